#!/bin/sh
# The Linux command end to end: it runs, writes a valid result JSON with a
# measured L1 latency, keeps every run in its own directory, and rejects bad
# options with a clear message.
set -u
out=build/tests/linux
rm -rf "$out"
mkdir -p "$out"

CHECK_AREA=linux
. tests/check.sh

build/memprobe --quiet --probes latency --out "$out/res" --json "$out/r.json" \
	> "$out/report.txt" 2> "$out/stderr.txt"
check "exits 0" test $? -eq 0
check "report printed" grep -q "memprobe .* report" "$out/report.txt"
check "result.json valid against the schema" python3 tests/results/validate_json.py "$out/r.json"
check "L1 data latency measured, 1..20 cycles" python3 -c "
import json,sys
r=json.load(open('$out/r.json'))
l1=[c for c in r['caches'] if c['level']==1 and c['type']=='data'][0]
sys.exit(0 if 1 <= l1['latency_cycles'] <= 20 else 1)"
check "latency curve has points" python3 -c "
import json,sys
r=json.load(open('$out/r.json'))
sys.exit(0 if len(r['curves'][0]['points']) >= 10 else 1)"
check "files in run-0001" test -s "$out/res/run-0001/result.json" -a -s "$out/res/run-0001/report.txt" -a -s "$out/res/run-0001/curves.csv"
cp "$out/res/run-0001/result.json" "$out/first.json"
build/memprobe --quiet --probes latency --out "$out/res" > /dev/null 2>&1
check "second run gets run-0002" test -s "$out/res/run-0002/result.json"
check "first run untouched" cmp -s "$out/first.json" "$out/res/run-0001/result.json"
build/memprobe --profile sideways > /dev/null 2> "$out/bad.txt"
check "bad option value rejected with status 2" test $? -eq 2
check "bad option message names the value" grep -q "sideways" "$out/bad.txt"
