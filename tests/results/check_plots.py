#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the pictures of a memprobe run directory against its result.json.

Usage: python3 tests/results/check_plots.py RUN_DIR [PNG]

Every curve has its plot-NN-NAME.svg, which parses as XML and whose line
vertices are the curve's points, mapped back through the plot's data-*
attributes; report.html holds one inline <svg> per curve, each valid XML,
and opens with the audit.  With PNG (report.html rendered by a browser):
the picture is not blank and shows one band of curve-coloured pixels per
plotted curve.  One PASS or FAIL line per check; exit 1 on any FAIL.
"""
import json
import math
import pathlib
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

SVG = "{http://www.w3.org/2000/svg}"
CURVE_RGB = (0x1F, 0x77, 0xB4)      # core/results/svg_int.h SVG_CURVE_COLOUR
SVG_ROUNDING_PX = 0.0051            # coordinates are written with 2 decimals
JSON_ROUNDING = 0.0005              # and the points in result.json with 3
COLOUR_TOLERANCE = 40
BAND_GAP_ROWS = 40                  # plots are further apart than this

failed = 0


def check(ok, what):
    global failed
    print(("PASS " if ok else "FAIL ") + what)
    failed += 0 if ok else 1
    return ok


def plot_name(i, name):
    return "plot-%02d-%s.svg" % (i + 1, re.sub(r"[^A-Za-z0-9-]", "-", name))


def mapping(group):
    a = {k[5:]: v for k, v in group.attrib.items() if k.startswith("data-")}
    log = a["x-scale"] == "log2"
    f = (lambda v: math.log2(v)) if log else (lambda v: v)
    x_lo, x_hi = f(float(a["x-lo"])), f(float(a["x-hi"]))
    y_lo, y_hi = float(a["y-lo"]), float(a["y-hi"])
    left, top = float(a["left"]), float(a["top"])
    width, height = float(a["width"]), float(a["height"])

    def to_px(x, y):
        return (left + (f(x) - x_lo) / (x_hi - x_lo) * width,
                top + height - (y - y_lo) / (y_hi - y_lo) * height)

    def close(got, want, x):
        # the pixel distance a rounding of the JSON value by JSON_ROUNDING can make
        dx = abs(to_px(x + JSON_ROUNDING, 0)[0] - to_px(x, 0)[0]) if x > JSON_ROUNDING else 0
        dy = JSON_ROUNDING / (y_hi - y_lo) * height
        return (abs(got[0] - want[0]) <= SVG_ROUNDING_PX + dx and
                abs(got[1] - want[1]) <= SVG_ROUNDING_PX + dy)
    return log, to_px, close


def vertices(group):
    out = []
    for line in group.iter(SVG + "polyline"):
        if line.get("class") == "curve":
            out += [tuple(map(float, p.split(","))) for p in line.get("points").split()]
    return out


def check_svg(path, curve):
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        return check(False, "%s parses as XML: %s" % (path.name, e))
    group = root.find(SVG + "g")
    log, to_px, close = mapping(group)
    points = [(x, y) for x, y in curve["points"]
              if x is not None and y is not None and (not log or x > 0)]
    got = vertices(group)
    same = len(got) == len(points) and all(
        close(g, to_px(x, y), x) for g, (x, y) in zip(got, points))
    check(True, "%s parses as XML" % path.name)
    return check(same, "%s: its %d vertices are the curve's %d drawable points"
                 % (path.name, len(got), len(points)))


def parses(svg):
    try:
        ET.fromstring(svg)
        return True
    except ET.ParseError:
        return False


def check_html(path, ncurves):
    text = path.read_text(encoding="utf-8")
    svgs = re.findall(r"<svg .*?</svg>", text, re.S)
    # the core-to-core heat map (probe c2c) is no curve's plot
    heat = [s for s in svgs if "<title>core to core" in s]
    svgs = [s for s in svgs if s not in heat]
    check(all(parses(s) for s in heat), "report.html: %d heat map(s), valid XML" % len(heat))
    parsed = sum(parses(s) for s in svgs)
    check(len(svgs) == ncurves and parsed == ncurves,
          "report.html: %d inline plots, %d of them valid XML, for %d curves"
          % (len(svgs), parsed, ncurves))
    check(text.find('id="audit"') != -1 and text.find('id="audit"') < text.find('id="plots"'),
          "report.html: the audit comes before the plots")
    check("<script" not in text and "http://" not in text.replace(
        "http://www.w3.org/2000/svg", ""), "report.html: no script, no link outside the file")


def png_rows(path):
    data = path.read_bytes()
    pos, idat, head = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = head[:4]
    if depth != 8 or colour not in (2, 6):
        raise ValueError("PNG of depth %d colour type %d" % (depth, colour))
    bpp = 3 if colour == 2 else 4
    raw, stride, prev, rows = zlib.decompress(idat), width * bpp, bytearray(width * bpp), []
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            p = a + b - c
            pred = [0, a, b, (a + b) // 2,
                    a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c)
                    else b if abs(p - b) <= abs(p - c) else c][f]
            line[i] = (line[i] + pred) & 0xFF
        rows.append(line)
        prev = line
    return width, bpp, rows


def near(px, rgb):
    return all(abs(px[k] - rgb[k]) <= COLOUR_TOLERANCE for k in range(3))


def check_png(path, nplots):
    width, bpp, rows = png_rows(path)
    painted, colours, curve_rows = 0, set(), []
    for y, line in enumerate(rows):
        hit = False
        for x in range(0, width * bpp, bpp):
            px = tuple(line[x:x + 3])
            if px != (255, 255, 255):
                painted += 1
                colours.add(px)
            hit = hit or near(px, CURVE_RGB)
        if hit:
            curve_rows.append(y)
    bands = sum(1 for i, y in enumerate(curve_rows) if i == 0 or y - curve_rows[i - 1] > BAND_GAP_ROWS)
    check(painted > 0.02 * width * len(rows) and len(colours) > 8,
          "render: not blank (%d painted pixels, %d colours)" % (painted, len(colours)))
    check(bands == nplots, "render: %d bands of curve-coloured pixels for %d plots" % (bands, nplots))


def main():
    run = pathlib.Path(sys.argv[1])
    result = json.loads((run / "result.json").read_text())
    curves = result["curves"]
    drawn = 0
    for i, c in enumerate(curves):
        path = run / plot_name(i, c["name"])
        if check(path.is_file(), "%s written" % path.name) and check_svg(path, c):
            drawn += any(x is not None and y is not None for x, y in c["points"])
    check_html(run / "report.html", len(curves))
    if len(sys.argv) > 2:
        check_png(pathlib.Path(sys.argv[2]), drawn)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
