# Shell functions shared by the boot tests (tests/boot/test_*.sh) and the
# boot matrix (tests/boot/matrix.sh), sourced from the top of the tree; it
# sources image/qemu.sh.  The caller names its scratch directory with
# scratch_dir first.  NAME is one boot: NAME.img its disk, NAME.log its
# serial log, NAME.qemu what QEMU said, NAME.json the result.json it printed.
# MEMPROBE_BOOT_TIMEOUT (seconds, default 300) bounds each boot.

. image/qemu.sh
timeout_s=${MEMPROBE_BOOT_TIMEOUT:-300}

QUICK='profile = quick
on_finish = shutdown
finish_delay = 0'
# Boots that check the firmware side only: the shortest probe.
SHORT="$QUICK
probes = latency"
BANNER='memory-hierarchy characterization, uefi-x86_64'
SENTINEL='memprobe: done'

scratch_dir() { # scratch_dir DIR: `out`, emptied
	out=$1
	rm -rf "$out"
	mkdir -p "$out"
}

# image_built: `make image`, or a FAIL line with make's last words and the end.
image_built() {
	if ! make -s image >"$out/make.log" 2>&1; then
		echo "FAIL boot: make image"
		sed 's/^/    /' "$out/make.log" | tail -n 20
		exit 1
	fi
	echo "PASS boot: make image"
}

check() { # check NAME COMMAND...: PASS or FAIL, with the log's tail on failure
	name=$1; shift
	if "$@" >"$out/check.out" 2>&1; then
		echo "PASS boot: $name"
	else
		echo "FAIL boot: $name"
		sed 's/^/    /' "$out/check.out" | tail -n 20
	fi
}

valid_json() { # against docs/result.schema.json
	python3 tests/results/validate_json.py "$1"
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

# put_cfg NAME: NAME.img gets NAME.cfg as its memprobe.cfg.
put_cfg() {
	MTOOLS_SKIP_CHECK=1 mcopy -o -i "$(part_fs "$out/$1.img")" "$out/$1.cfg" \
		::/memprobe/memprobe.cfg
}

# set_cfg NAME CONFIG: NAME.img gets this memprobe.cfg.
set_cfg() {
	printf '%s\n' "$2" >"$out/$1.cfg"
	put_cfg "$1"
}

# scratch NAME CONFIG: a copy of the image with this memprobe.cfg.
scratch() {
	cp build/memprobe.img "$out/$1.img"
	set_cfg "$1" "$2"
}

# run_boot NAME IMAGE CPU [OPTION...]: boots IMAGE under TCG with -cpu CPU;
# sets status and secs.  Options: those of image/qemu.sh's boot (readonly,
# secure, mem=SIZE, smp=SPEC), and noserial (a machine without a serial port).
run_boot() {
	r_name=$1 r_img=$2 r_cpu=$3 r_serial="file:$out/$1.log" r_vars=$OVMF_VARS
	shift 3
	r_opts=
	for r_opt in "$@"; do
		case $r_opt in
		noserial) r_serial=none; : >"$out/$r_name.log" ;;
		secure) r_vars=$OVMF_VARS_TEST_KEY; r_opts="$r_opts $r_opt" ;;
		*) r_opts="$r_opts $r_opt" ;;
		esac
	done
	cp "$r_vars" "$out/$r_name.vars"
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	boot "$r_img" "$out/$r_name.vars" "$timeout_s" "-accel tcg -cpu $r_cpu" "$r_serial" $r_opts \
		</dev/null >"$out/$r_name.qemu" 2>&1
	status=$?
	secs=$(echo "$t0 $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
}

powered_off() { # the boot ended by itself, not by the timeout
	cat "$out/$1.qemu"
	[ "$status" -ne 124 ] || echo "still running after $timeout_s s: killed"
	[ "$status" -eq 0 ]
}

in_log() { # in_log NAME PATTERN
	grep -Eaq "$2" "$out/$1.log" || { echo "no line matching '$2' in $out/$1.log"; false; }
}

fat_clean() { # fat_clean IMAGE: fsck.fat finds nothing wrong with its partition
	skip=$(($(part_offset "$1") / 512))
	dd if="$1" of="$out/esp.img" bs=512 skip="$skip" status=none &&
		fsck.fat -n "$out/esp.img"
	f_rc=$?
	rm -f "$out/esp.img"
	return $f_rc
}

not_in_log() { # not_in_log NAME PATTERN
	! grep -Ea "$2" "$out/$1.log"
}

# One INFO line per probe of FILE (a result.json): status, time, message.
probe_info() { # probe_info FILE LABEL
	python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for p in r["probes"]:
    t = "-" if p["seconds"] is None else "%.2f s" % p["seconds"]
    print("INFO boot: %s: probe %s %s %s%s" % (sys.argv[2], p["name"], p["status"], t,
          ": " + p["message"] if p["message"] else ""))
PY
}

# The documented caches and TLBs in FILE are what QEMU declares for CPU.
documented_is() { # documented_is FILE CPU
	python3 tests/boot/documented.py "$1" "$2"
}
