#!/bin/sh
# SPDX-License-Identifier: MIT
# The result schema: the files build/tests/test_json writes (sample.json,
# every field filled; empty.json, almost nothing measured) must validate
# against docs/result.schema.json, and files that drifted from it (a wrong
# enum, an unknown or missing field, a wrong type, NaN, a negative count)
# must be rejected, at the right place.  One PASS or FAIL line per check;
# details are indented.
set -u
cd "$(dirname "$0")/../.."
dir=build/tests
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

validate() {
	python3 tests/results/validate_json.py "$1" 2>&1
}

# accepts WHAT FILE
accepts() {
	if out=$(validate "$2"); then
		echo "PASS schema accepts $1"
	else
		echo "FAIL schema rejects $1:"
		printf '%s\n' "$out" | sed 's/^/    /'
	fi
}

# rejects WHAT WHERE FILE: invalid, and the complaint names WHERE.
rejects() {
	if out=$(validate "$3"); then
		echo "FAIL schema accepts $1"
	elif printf '%s\n' "$out" | grep -q -F -- "$2"; then
		echo "PASS schema rejects $1"
	else
		echo "FAIL schema rejects $1, but not at $2:"
		printf '%s\n' "$out" | sed 's/^/    /'
	fi
}

# The program that writes sample.json changed by a statement acting on `doc`.
cat > "$tmp/drift.py" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(doc, open(sys.argv[2], "w"), indent=2)
PY

# drift WHAT WHERE PYTHON: sample.json changed by PYTHON is rejected at WHERE.
drift() {
	f="$tmp/drift.json"
	rm -f "$f"
	if python3 "$tmp/drift.py" "$dir/sample.json" "$f" "$3"; then
		rejects "$1" "$2" "$f"
	else
		echo "FAIL could not build the file with $1"
	fi
}

for f in sample empty; do
	if [ ! -f "$dir/$f.json" ]; then
		echo "FAIL $dir/$f.json is missing: run build/tests/test_json first"
		exit 1
	fi
	accepts "$f.json" "$dir/$f.json"
done

drift "a cache type outside the enum" "caches/0/type" 'doc["caches"][0]["type"] = "dat"'
drift "a null probe status" "probes/0/status" 'doc["probes"][0]["status"] = None'
drift "an unknown TLB field" "tlbs/0: Additional" 'doc["tlbs"][0]["colour"] = "blue"'
drift "an unknown top-level field" "(top level): Additional" 'doc["comment"] = "x"'
drift "a missing cpu field" "cpu: 'cores' is a required" 'del doc["cpu"]["cores"]'
drift "a string where a number belongs" "memory/latency_ns" 'doc["memory"]["latency_ns"] = "80"'
drift "a negative way count" "documented/caches/0/ways" \
	'doc["documented"]["caches"][0]["ways"] = -1'
drift "a curve point with three values" "curves/0/points/0" \
	'doc["curves"][0]["points"][0] = [1, 2, 3]'
drift "a source status outside the enum" "sources/2/status" \
	'doc["sources"][2]["status"] = "missing"'
drift "a size scope outside the enum" "sources/1/caches/0/size_covers" \
	'doc["sources"][1]["caches"][0]["size_covers"] = "socket"'
drift "a verdict on an unknown fact" "verdicts/0/parameter" \
	'doc["verdicts"][0]["parameter"] = "L1 data colour"'
drift "a documented value written as text" "verdicts/0/documented/0/value" \
	'doc["verdicts"][0]["documented"][0]["value"] = "32K"'
drift "a verdict without its sources" "verdicts/0/documented" \
	'doc["verdicts"][0]["documented"] = []'
drift "a core type without its CPUs" "core_types/1: 'cpus' is a required" \
	'del doc["core_types"][1]["cpus"]'
drift "a core-to-core unit outside the enum" "core_to_core/unit" \
	'doc["core_to_core"]["unit"] = "furlongs"'
drift "a pair's latency written as text" "core_to_core/pairs/0/latency" \
	'doc["core_to_core"]["pairs"][0]["latency"] = "7"'
drift "a topology without threads" "topology: 'threads' is a required" \
	'del doc["topology"]["threads"]'
drift "a NaN literal" "NaN is not JSON" 'doc["memory"]["latency_ns"] = float("nan")'
drift "another tool's file" ": tool:" 'doc["tool"] = "other"'
printf '{"tool": "memprobe",' > "$tmp/truncated.json"
rejects "truncated JSON" "not a readable JSON file" "$tmp/truncated.json"
