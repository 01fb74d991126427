#!/bin/sh
# `make run`: boots the memprobe image under QEMU with OVMF.  The serial
# console shows live here and goes to build/run-serial.log; when the machine
# powers off, the image's memprobe/results/ is copied to build/results/ and
# the newest report is printed.  It boots a scratch copy (build/run/), which
# the run writes into as it would into a USB stick: the image itself stays
# the clean build output, the one to write to a stick.
#   image/run.sh [IMAGE]     MEMPROBE_TIMEOUT=seconds (default 3600)
set -eu
cd "$(dirname "$0")/.."
. image/qemu.sh

src=${1:-build/memprobe.img}
img=build/run/memprobe.img
log=build/run-serial.log
vars=build/run/OVMF_VARS_4M.fd
timeout_s=${MEMPROBE_TIMEOUT:-3600}

./image/deps.sh
[ -f "$src" ] || { echo "no image $src: run make image" >&2; exit 1; }
mkdir -p build/run
cp "$src" "$img"
cp "$OVMF_VARS" "$vars"
accel=$(accel_args)
echo "booting a copy of $src ($accel); serial log in $log; Ctrl-A X quits QEMU"
start=$(date +%s)
# QEMU's status through the pipe: sh has no pipefail.
{ boot "$img" "$vars" "$timeout_s" "$accel" mon:stdio; echo $? >build/run/status; } | tee "$log"
rc=$(cat build/run/status)
echo
echo "QEMU ended after $(($(date +%s) - start)) s"
[ "$rc" -eq 124 ] && echo "the run did not finish within $timeout_s s (MEMPROBE_TIMEOUT)" >&2

copy_results "$img" build/results || true
last=$(ls build/results 2>/dev/null | sort | tail -n 1)
if [ -z "$last" ] || [ ! -f "build/results/$last/report.txt" ]; then
	echo "no results in the image" >&2
	exit 1
fi
echo "results copied to build/results/ (newest: $last)"
echo
cat "build/results/$last/report.txt"
