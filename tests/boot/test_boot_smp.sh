#!/bin/sh
# The UEFI application on a machine of several logical CPUs: QEMU/OVMF
# under TCG with -smp and its sockets, cores and threads set, two ways
# (two sockets of two cores; one socket of two cores with two threads).
# Every AP must have started, run its job and come back (one "cpu N:" line
# each, and the count line), each CPU's place (x2APIC ID, package, core,
# thread) must be the one QEMU gives it, the firmware's location must agree,
# and the run must end by itself.  Where the suite has the "topology" probe,
# result.json's topology must be QEMU's too, and the core-to-core probe
# must have run its pairs.  Timings under TCG are not hardware and are not
# checked.  One PASS or FAIL line per check.
set -u
cd "$(dirname "$0")/../.."
. tests/boot/lib.sh
scratch_dir build/tests/boot-smp

# The multi-core probes where the suite has them, else the shortest probe.
if grep -q '"topology"' core/suite.c; then
	PROBES='latency,topology,c2c'
else
	PROBES=latency
fi
SMP_CFG="$QUICK
probes = $PROBES"

# QEMU's x2APIC IDs (hw/i386/topology.h): thread, core and package fields
# each as wide as its count needs, the package's above the core's.  The
# places of every CPU, one "apic package core thread" line each, sorted.
qemu_places() { # qemu_places SOCKETS CORES THREADS
	awk -v s="$1" -v c="$2" -v t="$3" 'function bits(n,  b) { b = 0; while (2 ^ b < n) b++; return b }
	BEGIN {
		tb = bits(t); cb = bits(c)
		for (p = 0; p < s; p++) for (k = 0; k < c; k++) for (h = 0; h < t; h++)
			print p * 2 ^ (cb + tb) + k * 2 ^ tb + h, p, k, h
	}' | sort -n
}

# The places the log gives: what memprobe read from CPUID, or (fw) the firmware's location.
log_places() { # log_places NAME [fw]
	tr -d '\r' <"$out/$1.log" | grep -E '^memprobe: cpu [0-9]+: ' |
		if [ "${2:-}" = fw ]; then
			sed -n 's/.*(firmware: APIC ID \([0-9]*\) package \([0-9]*\) core \([0-9]*\) thread \([0-9]*\).*/\1 \2 \3 \4/p'
		else
			sed -n 's/.*x2APIC ID \([0-9]*\) package \([0-9-]*\) die [0-9-]* cluster [0-9-]* core \([0-9-]*\) thread \([0-9-]*\).*/\1 \2 \3 \4/p'
		fi | sort -n
}

places_are_qemus() { # places_are_qemus NAME SOCKETS CORES THREADS [fw]
	qemu_places "$2" "$3" "$4" >"$out/$1.want"
	log_places "$1" "${5:-}" >"$out/$1.got"
	diff "$out/$1.want" "$out/$1.got"
}

# result.json's topology: packages, cores and logical CPUs as QEMU's.
topology_is() { # topology_is NAME PACKAGES CORES THREADS
	python3 - "$out/$1.json" "$2" "$3" "$4" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
want = dict(packages=int(sys.argv[2]), cores=int(sys.argv[3]), threads=int(sys.argv[4]))
print("got", r.get("topology"), "want", want)
sys.exit(0 if r.get("topology") == want else 1)
PY
}

# The core-to-core probe ran and measured every pair it lists.
c2c_ran() { # c2c_ran NAME
	python3 - "$out/$1.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
probe = [p for p in r["probes"] if p["name"] == "c2c"]
pairs = r.get("core_to_core", {}).get("pairs", [])
print(probe, len(pairs), "pairs")
sys.exit(0 if probe and probe[0]["status"] == "ok" and pairs and
         all(p["latency"] is not None for p in pairs) else 1)
PY
}

image_built

for shape in 2,2,1 1,2,2; do
	IFS=, read -r sockets cores threads <<EOF
$shape
EOF
	cpus=$((sockets * cores * threads))
	b=smp-$sockets-$cores-$threads
	label="-smp $cpus,sockets=$sockets,cores=$cores,threads=$threads"
	scratch "$b" "$SMP_CFG"
	run_boot "$b" "$out/$b.img" max \
		"smp=$cpus,sockets=$sockets,cores=$cores,threads=$threads"
	check "$label: powered off by itself ($secs s)" powered_off "$b"
	check "$label: sentinel" in_log "$b" "^$SENTINEL"
	check "$label: every AP started, ran a job and came back" in_log "$b" \
		"^memprobe: logical CPUs: $cpus of the firmware's $cpus; $((cpus - 1)) APs started"
	check "$label: each CPU's place from its CPUID is QEMU's" \
		places_are_qemus "$b" "$sockets" "$cores" "$threads"
	check "$label: the firmware's locations are QEMU's" \
		places_are_qemus "$b" "$sockets" "$cores" "$threads" fw
	check "$label: result.json on the serial port is valid" serial_json_valid "$b"
	if [ "$PROBES" != latency ]; then
		check "$label: result.json's topology is QEMU's" \
			topology_is "$b" "$sockets" "$((sockets * cores))" "$cpus"
		check "$label: core-to-core pairs measured" c2c_ran "$b"
	fi
	probe_info "$out/$b.json" "$label"
done
