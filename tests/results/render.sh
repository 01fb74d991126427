#!/bin/sh
# SPDX-License-Identifier: MIT
# Render an HTML file to PNG with headless Chromium (Debian's package):
#   tests/results/render.sh PAGE.html OUT.png HEIGHT
# with a fresh profile, no network and no background services (this
# machine's network is closed: without those flags Chromium keeps trying),
# at half scale: a quarter of the pixels for the test to decode.  HEIGHT is
# the window's, in CSS pixels; the picture is 600 x HEIGHT/2.
# Exit status: Chromium's, 127 when it is not installed.
set -u
page=$1 png=$2 height=$3
command -v chromium >/dev/null 2>&1 || { echo "chromium is not installed (image/deps.sh)"; exit 127; }
profile=$(mktemp -d "${TMPDIR:-/tmp}/memprobe-chromium.XXXXXX")
rm -f "$png"
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--hide-scrollbars --force-device-scale-factor=0.5 --user-data-dir="$profile" \
	--window-size="1200,$height" \
	--screenshot="$png" "file://$(realpath "$page")" >"$profile.log" 2>&1
status=$?
[ -s "$png" ] || { tail -n 5 "$profile.log"; status=${status:-1}; [ "$status" -ne 0 ] || status=1; }
rm -rf "$profile" "$profile.log"
exit "$status"
