#!/usr/bin/env python3
# pe_check.py BOOTX64.EFI VERSION: is the application an image that shim and
# firmware with memory protection can load, and sbsign can sign without
# warnings?  One PASS or FAIL line per rule (PE Format: "Optional Header
# Windows-Specific Fields", "Section Table", "Section Flags"; shim's
# SBAT.md):
#   - PE32+, EFI application, IMAGE_DLLCHARACTERISTICS_NX_COMPAT;
#   - every section starts on a page, right after the one before (no gap
#     in the address space), and the image ends where the last one does;
#   - the sections' bytes follow each other in the file and nothing comes
#     after them but a signature (no symbol table, no stray data that a
#     signature's hash would have to cover);
#   - W^X: no section both writable and executable, only .text executable;
#   - .sbat holds the SBAT format line and memprobe's line, with VERSION;
#   - every relocation GNU-EFI's _relocate applies (.rela, ELF64 Rela
#     entries) is R_X86_64_RELATIVE into a writable section.
import struct
import sys

PAGE = 0x1000
PE32_PLUS = 0x20B
SUBSYSTEM_EFI_APPLICATION = 10
NX_COMPAT = 0x0100
SCN_MEM_EXECUTE = 0x20000000
SCN_MEM_WRITE = 0x80000000
R_X86_64_RELATIVE = 8
RELA_BYTES = 24
CERT_TABLE_DIR = 4          # the data directory of the Attribute Certificate Table
CERT_ALIGN = 8
SBAT_FORMAT = "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md"
SBAT_FIELDS = 6

failed = 0


def check(ok, what, detail=""):
    global failed
    print("%s boot: PE: %s%s" % ("PASS" if ok else "FAIL", what,
                                 "" if ok or not detail else ": " + detail))
    failed += not ok


def align(v):
    return (v + PAGE - 1) & ~(PAGE - 1)


def read_image(path):
    d = open(path, "rb").read()
    pe = struct.unpack_from("<I", d, 0x3C)[0]
    nsec, _, symtab, nsym, opt_size = struct.unpack_from("<HIIIH", d, pe + 6)
    opt = pe + 24
    hdr = {
        "magic": struct.unpack_from("<H", d, opt)[0],
        "image_size": struct.unpack_from("<I", d, opt + 56)[0],
        "headers_size": struct.unpack_from("<I", d, opt + 60)[0],
        "subsystem": struct.unpack_from("<H", d, opt + 68)[0],
        "dll": struct.unpack_from("<H", d, opt + 70)[0],
        "symtab": symtab, "nsym": nsym,
        # a file offset, not an address: where a signature starts, and its size
        "cert": struct.unpack_from("<II", d, opt + 112 + 8 * CERT_TABLE_DIR),
    }
    secs = []
    for i in range(nsec):
        at = opt + opt_size + 40 * i
        name, vsize, va, rsize, raw = struct.unpack_from("<8sIIII", d, at)
        flags = struct.unpack_from("<I", d, at + 36)[0]
        secs.append({"name": name.rstrip(b"\0").decode(), "vsize": vsize, "va": va,
                     "rsize": rsize, "raw": raw, "flags": flags})
    return d, hdr, secs


def section_data(d, s):
    return d[s["raw"]:s["raw"] + min(s["rsize"], s["vsize"])]


def check_header(hdr):
    check(hdr["magic"] == PE32_PLUS and hdr["subsystem"] == SUBSYSTEM_EFI_APPLICATION,
          "PE32+ EFI application")
    check(hdr["dll"] & NX_COMPAT, "NX_COMPAT set", "DllCharacteristics %#x" % hdr["dll"])


def check_layout(d, hdr, secs):
    va = align(hdr["headers_size"])
    gaps = []
    for s in secs:
        if s["va"] != va:
            gaps.append("%s at %#x, expected %#x" % (s["name"], s["va"], va))
        va = align(s["va"] + s["vsize"])
    if hdr["image_size"] != va:
        gaps.append("SizeOfImage %#x, sections end at %#x" % (hdr["image_size"], va))
    check(not gaps, "sections page-aligned, in order, without gaps", "; ".join(gaps))
    at = secs[0]["raw"]
    stray = []
    for s in secs:
        if s["rsize"] and s["raw"] != at:
            stray.append("%s at file offset %#x, expected %#x" % (s["name"], s["raw"], at))
        at = s["raw"] + s["rsize"] if s["rsize"] else at
    if hdr["symtab"] or hdr["nsym"]:
        stray.append("a COFF symbol table at %#x" % hdr["symtab"])
    cert_at, cert_size = hdr["cert"]
    if cert_size and cert_at == (at + CERT_ALIGN - 1) & ~(CERT_ALIGN - 1):
        at = cert_at + cert_size
    if len(d) != at:
        stray.append("%d bytes after the last section" % (len(d) - at))
    check(not stray, "file: section data back to back, nothing after it but a signature", "; ".join(stray))


def check_wx(secs):
    bad = [s["name"] for s in secs if s["flags"] & SCN_MEM_WRITE and s["flags"] & SCN_MEM_EXECUTE]
    check(not bad, "no section both writable and executable", " ".join(bad))
    code = [s["name"] for s in secs if s["flags"] & SCN_MEM_EXECUTE]
    check(code == [".text"], "only .text executable", " ".join(code))


def check_sbat(d, secs, version):
    sbat = [s for s in secs if s["name"] == ".sbat"]
    text = section_data(d, sbat[0]).decode("utf-8", "replace") if sbat else ""
    lines = text.rstrip("\n").split("\n")
    ok = (len(lines) >= 2 and lines[0] == SBAT_FORMAT and "\0" not in text and
          all(len(line.split(",")) == SBAT_FIELDS for line in lines) and
          lines[1].split(",")[:2] == ["memprobe", "1"] and lines[1].split(",")[4] == version)
    check(ok, ".sbat: the SBAT format line, then memprobe generation 1 version " + version,
          repr(text))


def check_relocations(d, secs):
    rela = [s for s in secs if s["name"] == ".rela"]
    data = section_data(d, rela[0]) if rela else b""
    writable = [s for s in secs if s["flags"] & SCN_MEM_WRITE]
    bad = []
    for i in range(0, len(data) - RELA_BYTES + 1, RELA_BYTES):
        off, info, _ = struct.unpack_from("<QQq", data, i)
        inside = any(s["va"] <= off < s["va"] + s["vsize"] for s in writable)
        if info & 0xFFFFFFFF != R_X86_64_RELATIVE or not inside:
            bad.append("%#x type %d" % (off, info & 0xFFFFFFFF))
    check(data and not bad, "%d relocations, all RELATIVE into writable sections"
          % (len(data) // RELA_BYTES), " ".join(bad[:5]))


def main(path, version):
    d, hdr, secs = read_image(path)
    print("INFO boot: PE: " + " ".join("%s@%#x+%#x" % (s["name"], s["va"], s["vsize"])
                                       for s in secs))
    check_header(hdr)
    check_layout(d, hdr, secs)
    check_wx(secs)
    check_sbat(d, secs, version)
    check_relocations(d, secs)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main(*sys.argv[1:3])
