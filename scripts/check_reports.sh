#!/bin/sh
# Opens every page of notebooks-export/ (or the files given) in headless Chromium, takes a
# 1200×3000 screenshot of each into ${SHOTS:-/tmp/poise-report-shots}, and fails when a page is
# broken: no screenshot, a screenshot that is (almost) all one colour, a page without inline
# SVG plots, a page referring to anything outside itself, or a page without the replay-timing
# histogram although its recording has a committed replay (notebooks-export/replay-timing/).
# Needs `chromium` (Debian: apt-get install -y chromium) and python3. See docs/reports.md.
set -eu
SHOTS=${SHOTS:-/tmp/poise-report-shots}
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
[ -n "$CHROMIUM" ] || { echo "check_reports: chromium not found (apt-get install -y chromium)" >&2; exit 2; }
mkdir -p "$SHOTS"
[ $# -gt 0 ] || set -- notebooks-export/*.html
status=0
for page in "$@"; do
  name=$(basename "$page" .html)
  shot="$SHOTS/$name.png"
  rm -f "$shot"
  "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --disable-dev-shm-usage \
    --screenshot="$shot" --window-size=1200,3000 "file://$(realpath "$page")" >/dev/null 2>&1 || true
  if python3 - "$page" "$shot" <<'PY'
import re, struct, sys, zlib
page, shot = sys.argv[1], sys.argv[2]
text = open(page, encoding="utf-8").read()
problems = []
if re.search(r'(src|href)\s*=\s*["\']?(https?:)?//', text): problems.append("external reference")
if re.search(r'<script[^>]*\bsrc', text): problems.append("external script")
if "index" not in page and text.count("<svg") < 5: problems.append(f"only {text.count('<svg')} inline SVG plots")
if text.count("<svg") != text.count("</svg>"): problems.append("unbalanced <svg>")
# A page whose recording has a committed real-time replay (scripts/record_replay_timing.sh) must
# show its timing histograms, with bars.
import os
replay = os.path.join(os.path.dirname(page), "replay-timing", os.path.basename(page)[:-5] + ".json")
if os.path.exists(replay) and not re.search(r'Delivery lateness.*?data-bars="[1-9]', text, re.S):
    problems.append("no lateness histogram although " + replay + " exists")
try:
    data = open(shot, "rb").read()
except OSError:
    problems.append("no screenshot")
    data = b""
if data:
    # Decode the PNG (8-bit RGB/RGBA, no interlace: what Chromium writes) and count colours.
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            channels = {2: 3, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    non_white = 0
    colours = set()
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        previous = line
        if y % 4 == 0:
            for x in range(0, width, 4):
                px = bytes(line[x * channels:x * channels + 3])
                colours.add(px)
                if px != b"\xff\xff\xff": non_white += 1
    sampled = (height // 4 + 1) * (width // 4 + 1)
    share = non_white / max(1, sampled)
    print(f"{page}: {width}x{height}, {len(colours)} colours, {100 * share:.1f} % non-white")
    if len(colours) < 8: problems.append(f"screenshot nearly blank ({len(colours)} colours)")
    if share < 0.01: problems.append(f"screenshot nearly blank ({100 * share:.2f} % non-white)")
if problems:
    print(f"{page}: BROKEN: {', '.join(problems)}", file=sys.stderr)
    sys.exit(1)
PY
  then :; else status=1; fi
done
[ $status -eq 0 ] && echo "check_reports: all pages render (screenshots in $SHOTS)"
exit $status
