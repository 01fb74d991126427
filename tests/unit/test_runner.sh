#!/bin/sh
# The test runner's sum (tests/run.sh): over logs with passes, failures
# and a missing log, it counts them, exits non-zero, and ends with the
# failures again, each with the indented lines that say what it saw,
# just before `N passed, N failed` (a CI view keeps the end of the output).
set -u
out=build/tests/runner
rm -rf "$out"
mkdir -p "$out"

CHECK_AREA=runner
. tests/check.sh

printf 'PASS one\nFAIL two: a thing\n    saw x\n\tsaw y\nINFO three\nFAIL four\nnot indented\nRESULT a 1 2 0\n' \
	>"$out/a.log"
printf 'PASS five\nPASS six\nRESULT b 2 0 0\n' >"$out/b.log"
SUM_LOG="$out/all.log" sh tests/run.sh sum "$out/a.log" "$out/b.log" "$out/gone.log" \
	>"$out/sum.txt" 2>&1
rc=$?
recap=$(sed -n '/^the failures, with what each saw:$/,$p' "$out/sum.txt")

check "exits non-zero where a check failed" test "$rc" -ne 0
check "the last line counts passes and failures" test "$(tail -n 1 "$out/sum.txt")" = \
	"3 passed, 3 failed"
check "the failures come again before the count, with what each saw" test "$recap" = \
	"the failures, with what each saw:
FAIL two: a thing
    saw x
	saw y
FAIL four
FAIL $out/gone.log: no log (the test did not run)
full output: $out/all.log
3 passed, 3 failed"
check "every log in the full output" test "$(grep -c '^RESULT' "$out/all.log")" -eq 2

SUM_LOG="$out/all.log" sh tests/run.sh sum "$out/b.log" >"$out/ok.txt" 2>&1
rc=$?
check "all passed: exits 0, no failures listed" test "$rc" -eq 0 -a \
	"$(cat "$out/ok.txt")" = "full output: $out/all.log
2 passed, 0 failed"
