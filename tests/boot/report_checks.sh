# Checks of a boot's report, serial log and pictures, sourced by
# tests/boot/test_boot.sh (not run by itself): each is a command for its
# `check`, quiet on success and saying what it saw on failure.

# Every probe of the run's result.json is marked on the serial port: a start
# line and an end line with its status, or one "skipped" line.
serial_marks_probes() { # serial_marks_probes LOG RESULT_JSON
	tr -d '\r' <"$1" | python3 -c '
import json, sys
log = sys.stdin.read().splitlines()
ok = True
for p in json.load(open(sys.argv[1]))["probes"]:
    n, st = p["name"], p["status"]
    want = ["memprobe: probe %s: skipped: " % n] if st == "skipped" else \
           ["memprobe: probe %s: start: " % n, "memprobe: probe %s: %s in " % (n, st)]
    for w in want:
        if not any(line.startswith(w) for line in log):
            print("no line starting %r" % w)
            ok = False
sys.exit(0 if ok else 1)' "$2"
}

# No line of the application's ran into the next: a line longer than its
# buffer once lost its newline, and the next line began inside it.
serial_lines_end() { # serial_lines_end LOG
	joined=$(tr -d '\r' <"$1" | grep -an '.memprobe: ' | cut -c1-200 | head -3)
	[ -z "$joined" ] || { echo "lines run together: $joined"; return 1; }
}

# report.html and one SVG per curve in the run directory, the SVGs drawing
# the curves' points, and report.html rendered by headless Chromium with
# every plot on the picture.
pictures_render() { # pictures_render RUN_DIR PNG
	n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['curves']))" \
		"$1/result.json") || return 1
	sh tests/results/render.sh "$1/report.html" "$2" $((1500 + 460 * n)) || return 1
	python3 tests/results/check_plots.py "$1" "$2" >"$2.checks"
	status=$?
	grep -v '^PASS' "$2.checks"
	return $status
}

# QEMU's SMBIOS type 4 was read and agrees with CPUID on the package's cores.
smbios_type4_agrees() { # smbios_type4_agrees RESULT_JSON
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
s = [x for x in r["sources"] if x["name"] == "smbios type 4"]
v = [x for x in r["verdicts"] if x["parameter"] == "package cores"]
print("smbios type 4:", s, "\nverdict:", v)
sys.exit(0 if s and s[0]["status"] == "ok" and v and v[0]["sources_agree"] is True and
         "smbios type 4" in [d["source"] for d in v[0]["documented"]] else 1)' "$1"
}
