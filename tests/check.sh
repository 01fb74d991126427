# A shell test's checks, as tests/check.h is a C test's: sourced after
# setting CHECK_AREA (the word before each check's name), from the
# project's root.  tests/boot/lib.sh has its own, which shows a log.
check() { # check NAME CONDITION...: one PASS or FAIL line
	name=$1; shift
	if "$@"; then echo "PASS $CHECK_AREA: $name"; else echo "FAIL $CHECK_AREA: $name"; fi
}
