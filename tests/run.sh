#!/bin/sh
# The test runner, in two steps so that make can run the tests in parallel.
#
#   tests/run.sh one LOG COMMAND...   run one test program (or shell test),
#                                     keep its output in LOG and print one
#                                     line: its name, counts and seconds
#   tests/run.sh sum LOG...           print every FAIL and INFO line of the
#                                     logs, then the FAIL lines again with
#                                     the indented lines that say what each
#                                     saw (the end of a long output is what
#                                     a CI view keeps), then `N passed, N
#                                     failed`; all the logs in $SUM_LOG
#                                     (build/test.log)
#
# A test passes or fails check by check (its PASS and FAIL lines).  A
# program that crashes or exits non-zero without a FAIL line counts one
# failure, and so does one that printed no check at all: a test that
# checks nothing protects nothing.
set -u
cd "$(dirname "$0")/.."

count() { # count PATTERN FILE
	grep -c "$1" "$2" || true
}

# The FAIL lines of a log, each with the indented lines after it.
failures() { # failures LOG
	awk '/^FAIL/ { f = 1; print; next } f && /^[ \t]/ { print; next } { f = 0 }' "$1"
}

one() {
	log=$1; shift
	name=${log#build/tests/log/}
	name=${name%.log}
	mkdir -p "$(dirname "$log")"
	start=$(date +%s)
	"$@" >"$log.run" 2>&1
	rc=$?
	p=$(count '^PASS' "$log.run")
	f=$(count '^FAIL' "$log.run")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $name: exited with status $rc and no FAIL line" >>"$log.run"
		f=1
	elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $name: printed no check" >>"$log.run"
		f=1
	fi
	secs=$(($(date +%s) - start))
	echo "RESULT $name $p $f $secs" >>"$log.run"
	mv "$log.run" "$log"
	echo "  $name: $p passed, $f failed ($secs s)"
}

sum() {
	passed=0
	failed=0
	all=${SUM_LOG:-build/test.log}
	: >"$all"
	for log in "$@"; do
		if [ ! -f "$log" ]; then
			echo "FAIL ${log#build/tests/log/}: no log (the test did not run)" | tee -a "$all"
			failed=$((failed + 1))
			continue
		fi
		cat "$log" >>"$all"
		grep -E '^(FAIL|INFO)' "$log"
		set -- $(sed -n 's/^RESULT //p' "$log")
		passed=$((passed + $2))
		failed=$((failed + $3))
	done
	if [ "$failed" -gt 0 ]; then
		echo "the failures, with what each saw:"
		failures "$all"
	fi
	echo "full output: $all"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

what=$1; shift
case $what in
one) one "$@" ;;
sum) sum "$@" ;;
*) echo "usage: tests/run.sh one LOG COMMAND... | sum LOG..." >&2; exit 2 ;;
esac
