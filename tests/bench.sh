#!/bin/sh
# Runs every benchmark program; each prints its own figures.
set -u
cd "$(dirname "$0")/.."
for b in "$@"; do
	echo "== $(basename "$b")"
	"$b" || echo "benchmark $(basename "$b") failed (status $?)"
done
