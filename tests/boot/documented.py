#!/usr/bin/env python3
# documented.py RESULT.json CPU: does `documented` in a result from a boot
# under `-cpu CPU` (TCG, q35, QEMU 7.2) hold exactly the caches and TLBs
# QEMU declares for that model?  The values are written here from QEMU
# 7.2's target/i386/cpu.c, not derived from memprobe's decoder.  Exit 0
# when they match; prints both lists.
import json
import sys

K, M = 1024, 1024 * 1024

# (level, type, size, ways, line, inclusion) per CPUCacheInfo of cpu.c.
# AMD models without cache_info: CPUID 0x80000005/6 carry legacy_l1d_cache_amd,
# legacy_l1i_cache_amd, legacy_l2_cache_amd and legacy_l3_cache (l3-cache=on).
LEGACY_AMD = [(1, "data", 64 * K, 2, 64, None), (1, "instruction", 64 * K, 2, 64, None),
              (2, "unified", 512 * K, 16, 64, None), (3, "unified", 16 * M, 16, 64, None)]
# Intel models have no cache_info in 7.2: leaf 4 carries legacy_l1d_cache,
# legacy_l1i_cache, legacy_l2_cache and legacy_l3_cache (inclusive: EDX bit 1).
LEGACY_INTEL = [(1, "data", 32 * K, 8, 64, None), (1, "instruction", 32 * K, 8, 64, None),
                (2, "unified", 4 * M, 16, 64, None), (3, "unified", 16 * M, 16, 64, "inclusive")]


# The EPYC family's cache_info, in 0x80000005/6: TCG filters topoext, so there
# is no 0x8000001D, and 0x80000006 has no inclusion bit.
def epyc(l1i_size, l1i_ways, l3_size):
    return [(1, "data", 32 * K, 8, 64, None), (1, "instruction", l1i_size, l1i_ways, 64, None),
            (2, "unified", 512 * K, 8, 64, None), (3, "unified", l3_size, 16, 64, None)]


EPYC = epyc(64 * K, 4, 8 * M)                      # epyc_cache_info (EPYC-v1, Dhyana)
CACHES = {
    "max": LEGACY_AMD,      # TCG's max: AuthenticAMD, family 15, like qemu64
    "qemu64": LEGACY_AMD,
    "Opteron_G3": LEGACY_AMD,
    "EPYC": EPYC,
    "Dhyana": EPYC,         # HygonGenuine: AMD's leaves
    "EPYC-Rome": epyc(32 * K, 8, 16 * M),          # epyc_rome_cache_info
    "EPYC-Milan": epyc(32 * K, 8, 32 * M),         # epyc_milan_cache_info
}
for intel in ("Nehalem", "Haswell", "Skylake-Client", "Skylake-Server", "Icelake-Server",
              "Cooperlake", "Snowridge"):
    CACHES[intel] = LEGACY_INTEL

# TLBs: L1_DTLB_*, L1_ITLB_*, L2_DTLB_*, L2_ITLB_* in 0x80000005/6, the same
# for every AMD model: L1 255 entries of associativity 1 for 4K and 2M pages,
# L2 512 entries 4-way for 4K pages (2M disabled); no 0x80000019.  Intel
# models: QEMU's leaf 2 holds cache descriptors only, and there is no leaf 18H.
AMD_TLBS = [(1, "data", 255, 4 * K, 1), (1, "data", 255, 2 * M, 1),
            (1, "instruction", 255, 4 * K, 1), (1, "instruction", 255, 2 * M, 1),
            (2, "data", 512, 4 * K, 4), (2, "instruction", 512, 4 * K, 4)]
AMD = ("max", "qemu64", "Opteron_G3", "EPYC", "Dhyana", "EPYC-Rome", "EPYC-Milan")


def main(path, cpu):
    if cpu not in CACHES:
        sys.exit("no QEMU values written here for -cpu %s" % cpu)
    d = json.load(open(path))["documented"]
    caches = sorted((c["level"], c["type"], c["size_bytes"], c["ways"], c["line_bytes"],
                     c["inclusion"]) for c in d["caches"])
    tlbs = sorted((t["level"], t["type"], t["entries"], t["page_bytes"], t["ways"])
                  for t in d["tlbs"])
    want_caches = sorted(CACHES[cpu])
    want_tlbs = sorted(AMD_TLBS if cpu in AMD else [])
    print("source:", d["source"])
    print("caches:", caches, "\nwant:  ", want_caches)
    print("tlbs:  ", tlbs, "\nwant:  ", want_tlbs)
    sys.exit(0 if caches == want_caches and tlbs == want_tlbs else 1)


if __name__ == "__main__":
    main(*sys.argv[1:3])
