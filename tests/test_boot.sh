#!/bin/sh
# The UEFI application end to end: boots scratch copies of build/memprobe.img
# under QEMU with OVMF and TCG, and checks what a user would get.  The
# machine must power itself off before the timeout; the serial log must
# carry the banner, the probe's progress, the report, result.json and the
# sentinel; the result files read back out of the image with mtools must be
# valid; a second boot must add a run directory and leave the first one
# alone; a configuration with bad lines must still finish and name them; a
# read-only or full disk must still finish with result.json on the serial
# port.
# One PASS or FAIL line per check.  MEMPROBE_BOOT_TIMEOUT (seconds) bounds
# each boot.
set -u
cd "$(dirname "$0")/.."
. image/qemu.sh

out=build/tests/boot
timeout_s=${MEMPROBE_BOOT_TIMEOUT:-300}
TCG="-accel tcg -cpu max"
QUICK='profile = quick
on_finish = shutdown
finish_delay = 0'
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
	if [ -f tests/validate_json.py ]; then
		python3 tests/validate_json.py "$1"
	else
		echo "note: tests/validate_json.py missing; only checking that $1 is JSON"
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

# scratch NAME CONFIG: a copy of the image with this memprobe.cfg.
scratch() {
	cp build/memprobe.img "$out/$1.img"
	printf '%s\n' "$2" >"$out/$1.cfg"
	MTOOLS_SKIP_CHECK=1 mcopy -o -i "$(part_fs "$out/$1.img")" "$out/$1.cfg" \
		::/memprobe/memprobe.cfg
}

# run_boot NAME IMAGE [readonly]: sets status and secs; serial log in NAME.log.
run_boot() {
	cp "$OVMF_VARS" "$out/$1.vars"
	t0=$(date +%s.%N)
	boot "$2" "$out/$1.vars" "$timeout_s" "$TCG" "file:$out/$1.log" ${3:-} \
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
run_boot first "$out/quick.img"
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
check "serial: result.json equal to the file" serial_json_is first "$out/res1/run-0001/result.json"

# Second boot of the same image: a new directory, the first one untouched.
run_boot second "$out/quick.img"
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
finish_delay = 0"
run_boot broken "$out/broken.img"
check "broken config: powered off by itself ($secs s)" powered_off broken
check "broken config: line 4 (unknown key) named" in_log broken 'memprobe.cfg line 4: .*colour'
check "broken config: line 5 (bad value) named" in_log broken 'memprobe.cfg line 5: .*lots'
check "broken config: line 6 (no =) named" in_log broken 'memprobe.cfg line 6: '
check "broken config: sentinel" in_log broken "^$SENTINEL"
copy_results "$out/broken.img" "$out/res3"
check "broken config: result.json valid" valid_json "$out/res3/run-0001/result.json"

# A read-only disk: a clear message, and result.json still on the serial port.
run_boot readonly "$out/broken.img" readonly
check "read-only disk: powered off by itself ($secs s)" powered_off readonly
check "read-only disk: clear message" in_log readonly 'cannot store results: .*read-only'
check "read-only disk: sentinel" in_log readonly "^$SENTINEL"
check "read-only disk: result.json on the serial port is valid" serial_json_valid readonly

# A full partition: the same.
scratch full "$QUICK"
fill_up() { # one file as large as the free space
	fs=$(part_fs "$out/full.img")
	free=$(MTOOLS_SKIP_CHECK=1 mdir -i "$fs" :: | sed -n 's/ //g; s/^\([0-9]*\)bytesfree$/\1/p')
	head -c "$free" /dev/zero >"$out/fill.bin" &&
		MTOOLS_SKIP_CHECK=1 mcopy -i "$fs" "$out/fill.bin" ::/FILL.BIN && rm "$out/fill.bin"
}
check "full disk: filled up" fill_up
run_boot full "$out/full.img"
check "full disk: powered off by itself ($secs s)" powered_off full
check "full disk: clear message" in_log full 'cannot store results: .*full'
check "full disk: sentinel" in_log full "^$SENTINEL"
check "full disk: result.json on the serial port is valid" serial_json_valid full
