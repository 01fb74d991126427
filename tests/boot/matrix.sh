#!/bin/sh
# The boot matrix (`make test-matrix`): the quick profile under QEMU/TCG on
# many CPU models and on machines that make the run hard, each case one
# boot that must end by itself with its results written.
#
#   tests/boot/matrix.sh list    the cases, one a line
#   tests/boot/matrix.sh CASE    boot one case; one PASS or FAIL line per check
#
# Cases:
#   cpu-MODEL   -cpu MODEL: old and new Intel and AMD models of this QEMU
#               (7.2: nothing newer than Cooperlake, Snowridge and
#               EPYC-Milan); `documented` must be exactly what QEMU
#               declares for the model (tests/boot/documented.py)
#   mem-128M    a 128 MB machine: the arena shrinks and says so
#   no-serial   no serial port at all: the results on the disk
#   read-only   a write-protected disk: the serial port carries result.json,
#               the console (copied to the serial log) says why
#   nearly-full room (64 KB) for the run directory and the first files only: what
#               was written stays valid, the rest is on the serial port
#   full        no room at all
#   garbage-cfg memprobe.cfg of binary garbage around two good lines: the
#               bad lines named, the good ones used, the run goes on
# MEMPROBE_BOOT_TIMEOUT (seconds) bounds each boot.
set -u
cd "$(dirname "$0")/../.."
. tests/boot/lib.sh

CPUS="qemu64 Opteron_G3 Nehalem Haswell Skylake-Server Icelake-Server Cooperlake Snowridge
EPYC-Rome EPYC-Milan Dhyana"
CASES="mem-128M no-serial read-only nearly-full full garbage-cfg"

if [ "${1:-}" = list ]; then
	for c in $CPUS; do echo "cpu-$c"; done
	for c in $CASES; do echo "$c"; done
	exit 0
fi
[ $# -eq 1 ] || { echo "usage: $0 list | CASE" >&2; exit 2; }
case=$1
scratch_dir "build/tests/matrix/$case"

# The run's files on NAME.img: valid result.json, report.txt and curves.csv.
results_on_disk() { # results_on_disk NAME
	copy_results "$out/$1.img" "$out/$1-results"
	d=$out/$1-results/run-0001
	valid_json "$d/result.json" && test -s "$d/report.txt" -a -s "$d/curves.csv"
}

# powered_off_in NAME: the boot powered off by itself; how long it took.
powered_off_in() {
	check "$case: powered off by itself ($secs s)" powered_off "$1"
	echo "INFO boot: $case: $secs s from QEMU start to power-off"
}

# ends NAME: powered off by itself, and the serial log has the sentinel.
ends() {
	powered_off_in "$1"
	check "$case: sentinel" in_log "$1" "^$SENTINEL"
}

# quick_boot NAME CPU [OPTION...]: the quick profile, booted.
quick_boot() {
	n=$1 cpu=$2
	shift 2
	scratch "$n" "$QUICK"
	run_boot "$n" "$out/$n.img" "$cpu" "$@"
}

cpu_case() { # -cpu MODEL, everything written and QEMU's caches documented
	quick_boot run "$1"
	ends run
	check "$case: results on the disk" results_on_disk run
	check "$case: result.json on the serial port equals the file" \
		serial_json_is run "$out/run-results/run-0001/result.json"
	check "$case: documented caches and TLBs are QEMU's" documented_is "$out/run.json" "$1"
	probe_info "$out/run.json" "$case"
}

mem_case() {
	quick_boot run max mem=128M
	ends run
	check "$case: the arena shrank, and said so" \
		in_log run 'arena of [0-9]+M asked, [0-9]+M free: the probes use [0-9]+M'
	check "$case: results on the disk" results_on_disk run
}

no_serial_case() {
	quick_boot run max noserial
	powered_off_in run
	check "$case: results on the disk" results_on_disk run
	probe_info "$out/run-results/run-0001/result.json" "$case"
}

# stores_refused NAME WHY: nothing stored, the reason said, result.json on the serial port.
stores_refused() {
	check "$case: the console says why" in_log "$1" "cannot store results: .*$2"
	check "$case: result.json on the serial port is valid" serial_json_valid "$1"
}

# fill_up NAME BYTES: one file takes all but BYTES of the partition's free space.
fill_up() {
	fs=$(part_fs "$out/$1.img")
	free=$(MTOOLS_SKIP_CHECK=1 mdir -i "$fs" :: | sed -n 's/ //g; s/^\([0-9]*\)bytesfree$/\1/p')
	head -c "$((free - $2))" /dev/zero >"$out/fill.bin" &&
		MTOOLS_SKIP_CHECK=1 mcopy -i "$fs" "$out/fill.bin" ::/FILL.BIN && rm "$out/fill.bin"
}

# What a run left on a disk that filled up under it: the files of the
# probes before, whole, and no half-written file.
earlier_files_whole() { # earlier_files_whole NAME
	copy_results "$out/$1.img" "$out/$1-results"
	d=$out/$1-results/run-0001
	ls -l "$d"
	valid_json "$d/result.json" && test -s "$d/report.txt" -a -s "$d/curves.csv" &&
		ends_with "$d/report.html" '</html>' && ends_with "$d/plot-*.svg" '</svg>' &&
		! ls "$d" | grep -v -e '^result.json$' -e '^report.txt$' -e '^curves.csv$' \
			-e '^report.html$' -e '^plot-[0-9][0-9]-.*\.svg$'
}

# ends_with PATTERN TEXT: every file matching PATTERN (if any) ends with TEXT (a line).
ends_with() {
	for f in $1; do
		[ -e "$f" ] || continue
		tail -n 1 "$f" | grep -qF "$2" || { echo "$f does not end with $2"; return 1; }
	done
}

no_run_dir() { # no_run_dir NAME: no memprobe/results/run-0001 on NAME.img
	! MTOOLS_SKIP_CHECK=1 mdir -i "$(part_fs "$out/$1.img")" ::/memprobe/results/run-0001
}

nearly_full_case() {
	scratch run "$QUICK"
	check "$case: filled up but 64 KB" fill_up run 65536
	run_boot run "$out/run.img" max
	ends run
	stores_refused run 'full'
	check "$case: the console says the earlier files are kept" \
		in_log run 'the files in memprobe/results/run-0001 keep what was measured before'
	check "$case: the earlier probes' files are whole" earlier_files_whole run
	check "$case: the file system is still clean" fat_clean "$out/run.img"
}

full_case() {
	scratch run "$QUICK"
	check "$case: filled up" fill_up run 0
	run_boot run "$out/run.img" max
	ends run
	stores_refused run 'full'
	check "$case: no run directory" no_run_dir run
	check "$case: the file system is still clean" fat_clean "$out/run.img"
}

read_only_case() {
	quick_boot run max readonly
	ends run
	stores_refused run 'read-only'
}

# Binary garbage (a fixed pseudo-random stream: every byte value, NULs, no
# line structure) before and after two good lines.
garbage_cfg() {
	python3 -c '
import random, sys
r = random.Random(16)
junk = lambda n: bytes(r.randrange(256) for _ in range(n))
sys.stdout.buffer.write(junk(3000) + b"\nprofile = quick\nfinish_delay = 0\n" + junk(3000))
' >"$out/run.cfg"
}

cfg_messages_printable() { # no control or non-ASCII byte in NAME's complaints
	tr -d '\r' <"$out/$1.log" | grep -a '^memprobe: memprobe/memprobe.cfg line' |
		LC_ALL=C grep -an '[^ -~]'
	[ $? -eq 1 ]
}

garbage_case() {
	cp build/memprobe.img "$out/run.img"
	garbage_cfg
	put_cfg run
	run_boot run "$out/run.img" max
	ends run
	check "$case: bad lines named" in_log run 'memprobe.cfg line [0-9]+: '
	check "$case: the messages quote them in printable ASCII" cfg_messages_printable run
	check "$case: the first 16 shown, the rest counted" \
		in_log run '^memprobe: [0-9]+ problems in memprobe/memprobe.cfg, the first 16 shown'
	check "$case: the good lines used" in_log run '^memprobe: config: profile=quick .*finish_delay=0'
	check "$case: results on the disk" results_on_disk run
}

case $case in
cpu-*) cpu_case "${case#cpu-}" ;;
mem-128M) mem_case ;;
no-serial) no_serial_case ;;
read-only) read_only_case ;;
nearly-full) nearly_full_case ;;
full) full_case ;;
garbage-cfg) garbage_case ;;
*) echo "FAIL boot: no case $case"; exit 1 ;;
esac
