#!/bin/sh
# The UEFI application end to end: boots scratch copies of build/memprobe.img
# under QEMU with OVMF and TCG, and checks what a user would get.  The
# machine must power itself off before the timeout; the serial log must
# carry the banner, the probe's progress, the report, result.json and the
# sentinel; the result files read back out of the image with mtools must be
# valid; a second boot must add a run directory and leave the first one
# alone; a configuration with bad lines must still finish and name them; a
# read-only or full disk must still finish with result.json on the serial
# port.  The platform's own parts must show: the #GP handler caught an MSR
# fault, our page tables were used, the arena is write-back, the
# interrupt-masked windows kept their bound.  The serial port marks every
# probe; report.html and the plots are on the ESP and render in headless
# Chromium; QEMU's SMBIOS type 4 is read as a documented source.  Two more
# CPU models (EPYC, Skylake-Client) and -cpu max must each document exactly
# the caches and TLBs QEMU declares for them, and a configuration asking for counters,
# which none of these models has under TCG, must end with the counter
# probes "unsupported".  INFO lines give every probe's status and time.
# One PASS or FAIL line per check.  MEMPROBE_BOOT_TIMEOUT (seconds) bounds
# each boot; only the first boot runs every probe, the others run what
# they check.
set -u
cd "$(dirname "$0")/../.."
. image/qemu.sh
. tests/boot/report_checks.sh

out=build/tests/boot
timeout_s=${MEMPROBE_BOOT_TIMEOUT:-300}
QUICK='profile = quick
on_finish = shutdown
finish_delay = 0'
# Boots that check the firmware side only: the shortest probe.
SHORT="$QUICK
probes = latency"
COUNTERS="$QUICK
method = counters"
BANNER='memory-hierarchy characterization, uefi-x86_64'
SENTINEL='memprobe: done'

rm -rf "$out"
mkdir -p "$out"

check() { # check NAME COMMAND...: PASS or FAIL, with the log's tail on failure
	name=$1; shift
	if "$@" >"$out/check.out" 2>&1; then
		echo "PASS boot: $name"
	else
		echo "FAIL boot: $name"
		sed 's/^/    /' "$out/check.out" | tail -n 20
	fi
}

valid_json() { # against docs/result.schema.json, or as plain JSON without the validator
	if [ -f tests/results/validate_json.py ]; then
		python3 tests/results/validate_json.py "$1"
	else
		echo "note: tests/results/validate_json.py missing; only checking that $1 is JSON"
		python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1"
	fi
}

# The JSON the application printed between its marker lines, from NAME.log.
serial_json() { # serial_json NAME
	sed -n '/^----- BEGIN result.json -----/,/^----- END result.json -----/p' "$out/$1.log" |
		tr -d '\r' | sed '1d;$d' >"$out/$1.json"
	test -s "$out/$1.json" || { echo "no result.json between markers in $out/$1.log"; false; }
}

serial_json_is() { # serial_json_is NAME FILE
	serial_json "$1" && cmp "$out/$1.json" "$2"
}

serial_json_valid() { # serial_json_valid NAME
	serial_json "$1" && valid_json "$out/$1.json"
}

# set_cfg NAME CONFIG: NAME.img gets this memprobe.cfg.
set_cfg() {
	printf '%s\n' "$2" >"$out/$1.cfg"
	MTOOLS_SKIP_CHECK=1 mcopy -o -i "$(part_fs "$out/$1.img")" "$out/$1.cfg" \
		::/memprobe/memprobe.cfg
}

# scratch NAME CONFIG: a copy of the image with this memprobe.cfg.
scratch() {
	cp build/memprobe.img "$out/$1.img"
	set_cfg "$1" "$2"
}

# run_boot NAME IMAGE CPU [readonly]: sets status and secs; serial log in NAME.log.
run_boot() {
	cp "$OVMF_VARS" "$out/$1.vars"
	t0=$(date +%s.%N)
	boot "$2" "$out/$1.vars" "$timeout_s" "-accel tcg -cpu $3" "file:$out/$1.log" ${4:-} \
		</dev/null >"$out/$1.qemu" 2>&1
	status=$?
	secs=$(echo "$t0 $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
}

powered_off() { # the boot ended by itself, not by the timeout
	cat "$out/$1.qemu"
	[ "$status" -ne 124 ] || echo "still running after $timeout_s s: killed"
	[ "$status" -eq 0 ]
}

in_log() { # in_log NAME PATTERN
	grep -Eq "$2" "$out/$1.log" || { echo "no line matching '$2' in $out/$1.log"; false; }
}

# The longest interrupt-masked window within the bound, or the one that overran said so.
masked_bounded() { # masked_bounded NAME
	line=$(tr -d '\r' <"$out/$1.log" | grep -E '^memprobe: [0-9]+ interrupt-masked windows')
	[ -n "$line" ] || { echo "no window summary in $out/$1.log"; return 1; }
	echo "$line"
	echo "$line" | sed -n 's/.*the longest \([0-9.]*\) ms (bound \([0-9]*\) ms).*/\1 \2/p' |
		awk '{ exit !($1 <= $2) }' ||
		grep -q 'ms bound: the rest run with interrupts enabled' "$out/$1.log"
}

# One INFO line per probe of NAME.json: status, time, message.
probe_info() { # probe_info NAME CPU
	python3 - "$out/$1.json" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for p in r["probes"]:
    t = "-" if p["seconds"] is None else "%.2f s" % p["seconds"]
    print("INFO boot: -cpu %s: probe %s %s %s%s" % (sys.argv[2], p["name"], p["status"], t,
          ": " + p["message"] if p["message"] else ""))
PY
}

# Every probe either needs counters and says "unsupported", or measures by
# timing and was skipped for the method; a note says why there are no counters.
counters_unsupported() { # counters_unsupported NAME
	python3 - "$out/$1.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ok = True
for p in r["probes"]:
    print(p["name"], p["status"], p["message"])
    ok &= p["status"] == "unsupported" or (p["status"] == "skipped" and
                                          p["message"] == "method is counters")
notes = [n for n in r["notes"] if n.startswith("uefi: no performance counters")]
print(notes)
sys.exit(0 if ok and notes else 1)
PY
}

# The documented caches and TLBs in NAME.json are what QEMU 7.2 declares for
# CPU under TCG (target/i386/cpu.c; the values are written here, not decoded).
documented_is() { # documented_is NAME CPU
	python3 - "$out/$1.json" "$2" <<'PY'
import json, sys
K, M = 1024, 1024 * 1024
# (level, type, size, ways, line, inclusion)
CACHES = {
    # TCG's max is AuthenticAMD without model cache info: CPUID 0x80000005/6 carry
    # legacy_l1d_cache_amd, legacy_l1i_cache_amd, legacy_l2_cache_amd, and
    # legacy_l3_cache (l3-cache=on); TCG has no topoext, so no 0x8000001D.
    "max": [(1, "data", 64 * K, 2, 64, None), (1, "instruction", 64 * K, 2, 64, None),
            (2, "unified", 512 * K, 16, 64, None), (3, "unified", 16 * M, 16, 64, None)],
    # EPYC (EPYC-v1): epyc_cache_info, in 0x80000005/6 (topoext filtered by TCG).
    "EPYC": [(1, "data", 32 * K, 8, 64, None), (1, "instruction", 64 * K, 4, 64, None),
             (2, "unified", 512 * K, 8, 64, None), (3, "unified", 8 * M, 16, 64, None)],
    # Skylake-Client has no model cache info: leaf 4 carries legacy_l1d_cache,
    # legacy_l1i_cache, legacy_l2_cache and legacy_l3_cache (inclusive: EDX bit 1).
    "Skylake-Client": [(1, "data", 32 * K, 8, 64, None), (1, "instruction", 32 * K, 8, 64, None),
                       (2, "unified", 4 * M, 16, 64, None),
                       (3, "unified", 16 * M, 16, 64, "inclusive")],
}
# TLBs: L1_DTLB_*, L1_ITLB_*, L2_DTLB_*, L2_ITLB_* in 0x80000005/6, the same for
# every model: L1 255 entries of associativity 1 for 4K and 2M pages, L2 512
# entries 4-way for 4K pages (2M disabled).  Intel models: QEMU's leaf 2 holds
# cache descriptors only and these models have no leaf 18H.
AMD_TLBS = [(1, "data", 255, 4 * K, 1), (1, "data", 255, 2 * M, 1),
            (1, "instruction", 255, 4 * K, 1), (1, "instruction", 255, 2 * M, 1),
            (2, "data", 512, 4 * K, 4), (2, "instruction", 512, 4 * K, 4)]
TLBS = {"max": AMD_TLBS, "EPYC": AMD_TLBS, "Skylake-Client": []}
d = json.load(open(sys.argv[1]))["documented"]
cpu = sys.argv[2]
caches = sorted((c["level"], c["type"], c["size_bytes"], c["ways"], c["line_bytes"],
                 c["inclusion"]) for c in d["caches"])
tlbs = sorted((t["level"], t["type"], t["entries"], t["page_bytes"], t["ways"])
              for t in d["tlbs"])
print("source:", d["source"])
print("caches:", caches, "\nwant:  ", sorted(CACHES[cpu]))
print("tlbs:  ", tlbs, "\nwant:  ", sorted(TLBS[cpu]))
sys.exit(0 if caches == sorted(CACHES[cpu]) and tlbs == sorted(TLBS[cpu]) else 1)
PY
}

if ! make -s image >"$out/make.log" 2>&1; then
	echo "FAIL boot: make image"
	sed 's/^/    /' "$out/make.log" | tail -n 20
	exit 1
fi
echo "PASS boot: make image"

reproducible() { # two builds a second apart give the same bytes
	for n in 1 2; do
		./image/mkimage.sh "$out/repro$n.img" build/efi/BOOTX64.EFI image/memprobe.cfg \
			image/README.TXT || return 1
		sleep 1
	done
	cmp "$out/repro1.img" "$out/repro2.img"
}

fat_clean() { # fsck.fat finds nothing wrong with the partition
	skip=$(($(part_offset build/memprobe.img) / 512))
	dd if=build/memprobe.img of="$out/esp.img" bs=512 skip="$skip" status=none &&
		fsck.fat -n "$out/esp.img"
}

check "image is reproducible" reproducible
check "image: FAT32 file system is clean" fat_clean
rm -f "$out"/repro*.img "$out/esp.img"

# First boot: a quick run that powers off at once.
scratch quick "$QUICK"
run_boot first "$out/quick.img" max
check "first boot powered off by itself: $secs s boot to shutdown under TCG" powered_off first
echo "INFO boot: $secs s from QEMU start to power-off under TCG (quick profile)"
if [ "$status" -eq 124 ]; then
	echo "FAIL boot: the application hangs; the other boots are skipped"
	exit 1
fi
check "serial: start banner" in_log first "$BANNER"
check "serial: probe start and end" in_log first '^memprobe: probe latency: ok in'
check "serial: per-probe progress" in_log first '^memprobe: latency: [0-9]+/[0-9]+'
check "serial: final report" in_log first '^memprobe [0-9.]+ report'
check "serial: sentinel" in_log first "^$SENTINEL"
copy_results "$out/quick.img" "$out/res1"
check "one run directory, run-0001" test "$(ls "$out/res1")" = run-0001
check "result.json valid against the schema" valid_json "$out/res1/run-0001/result.json"
check "report.txt and curves.csv written" \
	test -s "$out/res1/run-0001/report.txt" -a -s "$out/res1/run-0001/curves.csv"
check "result: platform uefi-x86_64, probe latency ok" python3 -c "
import json, sys
r = json.load(open('$out/res1/run-0001/result.json'))
print(r['platform'], r['probes'])
sys.exit(r['platform'] != 'uefi-x86_64' or r['probes'][0]['status'] != 'ok')"
check "instruction side and cpu: icache, itlb, cpu ran to the end, kernels timed" python3 -c "
import json, sys
r = json.load(open('$out/res1/run-0001/result.json'))
ran = {p['name']: p for p in r['probes'] if p['name'] in ('icache', 'itlb', 'cpu')}
print({n: (p['status'], p['seconds']) for n, p in ran.items()}, len(r['cpu']['ops']), 'ops')
sys.exit(len(ran) != 3 or any(p['status'] not in ('ok', 'failed') or p['seconds'] is None
                              for p in ran.values()) or not r['cpu']['ops'])"
check "serial: result.json equal to the file" serial_json_is first "$out/res1/run-0001/result.json"
check "serial: every probe marked (start and end, or skipped)" \
	serial_marks_probes "$out/first.log" "$out/res1/run-0001/result.json"
check "ESP: report.html and the plots, rendered by headless Chromium" \
	pictures_render "$out/res1/run-0001" "$out/first-report.png"
check "-cpu max: SMBIOS type 4 read, its cores agree with CPUID" \
	smbios_type4_agrees "$out/res1/run-0001/result.json"
check "MSR guard: a #GP from an MSR write was caught" \
	in_log first '^memprobe: MSR guard: a #GP .* was caught'
check "page tables: our own for the measurements" in_log first '^memprobe: page tables: our own'
check "memory type of the arena: PAT entry 0 and MTRRs WB" \
	in_log first 'memory type of the arena: IA32_PAT entry 0 WB, MTRRs WB'
check "interrupt-masked windows within the bound" masked_bounded first
echo "INFO boot: -cpu max: $(tr -d '\r' <"$out/first.log" |
	sed -n 's/^memprobe: \([0-9]* interrupt-masked windows.*\)/\1/p')"
check "-cpu max: counters: none, TCG ignores the counter MSRs" \
	in_log first '^memprobe: counters: none: amd-legacy: no counter took an event select'
check "-cpu max: documented caches and TLBs are QEMU's" documented_is first max
probe_info first max

# Second boot of the same image: a new directory, the first one untouched.
set_cfg quick "$SHORT"
run_boot second "$out/quick.img" max
check "second boot powered off by itself ($secs s)" powered_off second
copy_results "$out/quick.img" "$out/res2"
check "second boot wrote run-0002" valid_json "$out/res2/run-0002/result.json"
check "run-0001 byte-identical after the second boot" diff -r "$out/res1/run-0001" \
	"$out/res2/run-0001"

# A configuration with bad lines: each named by number, defaults kept, the run finishes.
scratch broken "$QUICK
colour = blue
arena = lots
no equals sign here
finish_delay = 0
probes = latency"
run_boot broken "$out/broken.img" max
check "broken config: powered off by itself ($secs s)" powered_off broken
check "broken config: line 4 (unknown key) named" in_log broken 'memprobe.cfg line 4: .*colour'
check "broken config: line 5 (bad value) named" in_log broken 'memprobe.cfg line 5: .*lots'
check "broken config: line 6 (no =) named" in_log broken 'memprobe.cfg line 6: '
check "broken config: sentinel" in_log broken "^$SENTINEL"
copy_results "$out/broken.img" "$out/res3"
check "broken config: result.json valid" valid_json "$out/res3/run-0001/result.json"

# A read-only disk: a clear message, and result.json still on the serial port.
run_boot readonly "$out/broken.img" max readonly
check "read-only disk: powered off by itself ($secs s)" powered_off readonly
check "read-only disk: clear message" in_log readonly 'cannot store results: .*read-only'
check "read-only disk: sentinel" in_log readonly "^$SENTINEL"
check "read-only disk: result.json on the serial port is valid" serial_json_valid readonly

# A full partition: the same.
scratch full "$SHORT"
fill_up() { # one file as large as the free space
	fs=$(part_fs "$out/full.img")
	free=$(MTOOLS_SKIP_CHECK=1 mdir -i "$fs" :: | sed -n 's/ //g; s/^\([0-9]*\)bytesfree$/\1/p')
	head -c "$free" /dev/zero >"$out/fill.bin" &&
		MTOOLS_SKIP_CHECK=1 mcopy -i "$fs" "$out/fill.bin" ::/FILL.BIN && rm "$out/fill.bin"
}
check "full disk: filled up" fill_up
run_boot full "$out/full.img" max
check "full disk: powered off by itself ($secs s)" powered_off full
check "full disk: clear message" in_log full 'cannot store results: .*full'
check "full disk: sentinel" in_log full "^$SENTINEL"
check "full disk: result.json on the serial port is valid" serial_json_valid full

# Two more CPU models, asking for counters: the documented caches QEMU
# declares; no counters (EPYC: AMD counters TCG does not implement;
# Skylake-Client: Intel without CPUID leaf 0AH), so counter probes say
# "unsupported" and the run ends.
for cpu in EPYC Skylake-Client; do
	case $cpu in
	EPYC) why='amd-legacy: no counter took an event select' ;;
	*) why='CPUID leaf 0AH reports no architectural performance monitoring' ;;
	esac
	scratch "$cpu" "$COUNTERS"
	run_boot "$cpu" "$out/$cpu.img" "$cpu"
	check "-cpu $cpu: powered off by itself ($secs s)" powered_off "$cpu"
	check "-cpu $cpu: sentinel" in_log "$cpu" "^$SENTINEL"
	check "-cpu $cpu: counters: none, and why" in_log "$cpu" "^memprobe: counters: none: $why"
	check "-cpu $cpu: result.json on the serial port is valid" serial_json_valid "$cpu"
	check "-cpu $cpu: method counters: probes unsupported or skipped" \
		counters_unsupported "$cpu"
	check "-cpu $cpu: documented caches and TLBs are QEMU's" documented_is "$cpu" "$cpu"
	probe_info "$cpu" "$cpu"
done
