#!/usr/bin/env python3
# Marks a PE32+ image NX-compatible and writes its checksum again:
#   app/efi/pe_nxcompat.py IMAGE
#
# objcopy cannot set DllCharacteristics, so the build sets
# IMAGE_DLLCHARACTERISTICS_NX_COMPAT here: the promise that no section is
# both writable and executable and that the image never executes its data,
# which lets firmware and shim map the data non-executable (PE Format,
# "DLL Characteristics").  The checksum covers the header, so it is
# computed again after the change (the PE image checksum: 16-bit one's
# complement sum of the file's words with the checksum field taken as zero,
# plus the file length).
import struct
import sys

PE_OFFSET_AT = 0x3C          # e_lfanew in the MS-DOS header
OPT_HEADER_AT = 24           # after the 4-byte signature and the 20-byte COFF header
CHECKSUM_AT = 64             # in the PE32+ optional header
DLL_CHARACTERISTICS_AT = 70  # in the PE32+ optional header
PE32_PLUS = 0x20B
NX_COMPAT = 0x0100


def checksum(data, skip):
    total = 0
    for i in range(0, len(data) - 1, 2):
        if i not in (skip, skip + 2):
            total += data[i] | data[i + 1] << 8
            total = (total & 0xFFFF) + (total >> 16)
    if len(data) % 2:
        total += data[-1]
        total = (total & 0xFFFF) + (total >> 16)
    return (total & 0xFFFF) + len(data)


def main(path):
    data = bytearray(open(path, "rb").read())
    opt = struct.unpack_from("<I", data, PE_OFFSET_AT)[0] + OPT_HEADER_AT
    if struct.unpack_from("<H", data, opt)[0] != PE32_PLUS:
        sys.exit("%s: not a PE32+ image" % path)
    flags = struct.unpack_from("<H", data, opt + DLL_CHARACTERISTICS_AT)[0]
    struct.pack_into("<H", data, opt + DLL_CHARACTERISTICS_AT, flags | NX_COMPAT)
    struct.pack_into("<I", data, opt + CHECKSUM_AT, checksum(data, opt + CHECKSUM_AT))
    open(path, "wb").write(data)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: pe_nxcompat.py IMAGE")
    main(sys.argv[1])
