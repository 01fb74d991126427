#!/bin/sh
# SPDX-License-Identifier: MIT
# The pictures end to end: a simulated run (a small model, every probe,
# timing and counters, so that every kind of curve is there) writes its
# plots and report.html; every SVG parses as XML and draws exactly the
# curve's points; report.html holds them inline; headless Chromium renders
# it, and the picture is not blank and shows every plot.  One PASS or FAIL
# line per check (tests/results/check_plots.py).
set -u
cd "$(dirname "$0")/../.."
out=build/tests/html
rm -rf "$out"
mkdir -p "$out"

if ! build/memprobe-sim --model sim/models/pentium-ii-233.model --method both --quiet \
	--out "$out/res" >"$out/report.txt" 2>"$out/stderr.txt"; then
	echo "FAIL html: memprobe-sim ran"
	sed 's/^/    /' "$out/stderr.txt" | tail -n 10
	exit 1
fi
run=$out/res/run-0001
curves=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['curves']))" \
	"$run/result.json")
# Room for the page: its head, each plot, the tables after them.
height=$((1500 + 460 * curves))
if sh tests/results/render.sh "$run/report.html" "$out/report.png" "$height" >"$out/render.log"; then
	echo "PASS html: headless Chromium rendered report.html ($curves plots)"
	python3 tests/results/check_plots.py "$run" "$out/report.png"
else
	echo "FAIL html: headless Chromium rendered report.html"
	sed 's/^/    /' "$out/render.log"
	python3 tests/results/check_plots.py "$run"
fi
