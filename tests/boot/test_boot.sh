#!/bin/sh
# The UEFI application end to end: boots scratch copies of build/memprobe.img
# under QEMU with OVMF and TCG, and checks what a user would get.  The
# machine must power itself off before the timeout; the serial log must
# carry the banner, the probe's progress, the report, result.json and the
# sentinel, each line ended; the result files read back out of the image
# with mtools must be valid; a second boot must add a run directory and
# leave the first one alone; a configuration with bad lines must still finish and name them,
# quoting control bytes as \xNN; a read-only or full disk must still finish
# with result.json on the serial port, and the full one keep a clean file
# system; a 128 MB machine must shrink the arena and say so.  The platform's own parts must show: the #GP handler caught an MSR
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
. tests/boot/lib.sh
scratch_dir build/tests/boot
. tests/boot/report_checks.sh
COUNTERS="$QUICK
method = counters"

# The longest interrupt-masked window within the bound, or the one that overran said so.
masked_bounded() { # masked_bounded NAME
	line=$(tr -d '\r' <"$out/$1.log" | grep -E '^memprobe: [0-9]+ interrupt-masked windows')
	[ -n "$line" ] || { echo "no window summary in $out/$1.log"; return 1; }
	echo "$line"
	echo "$line" | sed -n 's/.*the longest \([0-9.]*\) ms (bound \([0-9]*\) ms).*/\1 \2/p' |
		awk '{ exit !($1 <= $2) }' ||
		grep -q 'ms bound: the rest run with interrupts enabled' "$out/$1.log"
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

image_built

reproducible() { # two builds a second apart give the same bytes
	for n in 1 2; do
		./image/mkimage.sh "$out/repro$n.img" build/efi/BOOTX64.EFI image/memprobe.cfg \
			image/README.TXT || return 1
		sleep 1
	done
	cmp "$out/repro1.img" "$out/repro2.img"
}

check "image is reproducible" reproducible
check "image: FAT32 file system is clean" fat_clean build/memprobe.img
rm -f "$out"/repro*.img

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
check "serial: every line ends, none runs into the next" serial_lines_end "$out/first.log"
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
check "-cpu max: documented caches and TLBs are QEMU's" documented_is "$out/first.json" max
probe_info "$out/first.json" "-cpu max"

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
probes = latency
$(printf '\033[2J\001\377')"
run_boot broken "$out/broken.img" max
check "broken config: powered off by itself ($secs s)" powered_off broken
check "broken config: line 4 (unknown key) named" in_log broken 'memprobe.cfg line 4: .*colour'
check "broken config: line 5 (bad value) named" in_log broken 'memprobe.cfg line 5: .*lots'
check "broken config: line 6 (no =) named" in_log broken 'memprobe.cfg line 6: '
check "broken config: line 9's control bytes quoted as \\xNN" \
	in_log broken 'memprobe.cfg line 9: "\\x1b\[2J\\x01\\xff": missing'
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
check "full disk: the file system is still clean" fat_clean "$out/full.img"

# A small machine: the arena shrinks to what is free, says so, and the run ends.
scratch small "$SHORT"
run_boot small "$out/small.img" max mem=128M
check "128 MB machine: powered off by itself ($secs s)" powered_off small
check "128 MB machine: the arena shrank, and said so" \
	in_log small 'arena of [0-9]+M asked, [0-9]+M free: the probes use [0-9]+M'
check "128 MB machine: sentinel" in_log small "^$SENTINEL"

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
	check "-cpu $cpu: documented caches and TLBs are QEMU's" documented_is "$out/$cpu.json" "$cpu"
	probe_info "$out/$cpu.json" "-cpu $cpu"
done
