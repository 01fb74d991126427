#!/bin/sh
# Runs every unit-test program given as an argument, then every shell test
# tests/test_*.sh, and counts their PASS / FAIL lines.  A program that
# crashes or exits non-zero without a FAIL line counts as one failure.
# Ends with the line `N passed, N failed`.
set -u
cd "$(dirname "$0")/.."
log=build/test.log
mkdir -p build
: > "$log"
passed=0
failed=0

run_one() {
	name=$1; shift
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out" >> "$log"
	p=$(printf '%s\n' "$out" | grep -c '^PASS')
	f=$(printf '%s\n' "$out" | grep -c '^FAIL')
	printf '%s\n' "$out" | grep -E '^(FAIL|INFO)'
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $name: exited with status $rc and no FAIL line"
		f=1
	fi
	echo "  $name: $p passed, $f failed"
	passed=$((passed + p))
	failed=$((failed + f))
}

for bin in "$@"; do
	run_one "$(basename "$bin")" "$bin"
done
for t in tests/test_*.sh; do
	[ -f "$t" ] || continue
	run_one "$(basename "$t")" sh "$t"
done
echo "full output: $log"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
