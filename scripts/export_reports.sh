#!/bin/sh
# Regenerates notebooks-export/: one `poise report` page per recording in data/, pages for two
# real recordings from ../shared/data when that folder is present (skipped with a message when
# not), and an index (`make reports`). Deterministic: same data, same pages. See docs/reports.md.
set -eu
POISE=${POISE:-.build/debug/poise}
OUT=${OUT:-notebooks-export}
SHARED=${SHARED:-../shared/data}
mkdir -p "$OUT"
summary=$(mktemp)
real=$(mktemp)
trap 'rm -f "$summary" "$real"' EXIT
# Real recordings: page name | file under $SHARED | page title | what it is | source and licence (shown on the page).
cat > "$real" <<'EOF_REAL'
broad-27-phone-vibration|broad/27_disturbed_phone_vibration_B.csv|Poise report: BROAD trial 27, phone vibration (27_disturbed_phone_vibration_B.csv)|BROAD trial 27: a phone vibrating against the IMU while it is turned by hand (about ±20°), still before and after; 285.7 Hz, 192 s, optical ground truth.|BROAD trial 27 (disturbed, phone vibration B) from D. Laidig, M. Caruso, A. Cereatti, T. Seel, "BROAD — A Benchmark for Robust Inertial Orientation Estimation", Data 6(7), 2021, doi:10.3390/data6070072; licensed CC BY 4.0 (creativecommons.org/licenses/by/4.0). The CSV holds the trial's values unchanged (m/s² converted to g on reading), with a time column of index / 285.714 Hz added.
xio-fusion-example|xio/sensor_data.csv|Poise report: x-io Fusion example recording (sensor_data.csv)|x-io Technologies' Fusion example recording: still for 13 s, hand movements (up to 365 °/s) with about eleven short pauses, still from 95 s to the end; about 100 Hz with irregular timestamps and ten dropped samples, no ground truth.|x-io Technologies Fusion library example data (sensor_data.csv of its Python example), MIT licence, copyright (c) 2021 x-io Technologies Limited.
EOF_REAL
for csv in data/*.csv; do
  name=$(basename "$csv" .csv)
  # A committed real-time replay of this recording (scripts/record_replay_timing.sh) adds the
  # replay-timing histograms; the page stays a function of committed files.
  replay=""
  [ -f "$OUT/replay-timing/$name.json" ] && replay="$OUT/replay-timing/$name.json"
  line=$("$POISE" report "$csv" --out "$OUT/$name.html" --threads 2 ${replay:+--replay "$replay"})
  echo "$line"
  printf '%s\t%s\n' "$name" "$line" >> "$summary"
done
if [ -d "$SHARED" ]; then
  while IFS='|' read -r name file title what source; do
    if [ ! -f "$SHARED/$file" ]; then
      echo "export_reports: $SHARED/$file not found: skipping $name.html" >&2
      continue
    fi
    line=$("$POISE" report "$SHARED/$file" --out "$OUT/$name.html" --threads 2 --title "$title" --data-source "$source")
    echo "$line"
  done < "$real"
else
  echo "export_reports: $SHARED not found: skipping the pages of real recordings (BROAD trial 27, x-io example); pages already in $OUT are kept" >&2
fi
python3 - "$OUT" "$summary" "$real" <<'PY'
import html, os, re, sys
out, summary, real = sys.argv[1], sys.argv[2], sys.argv[3]
# "What it is for" of each recording, from data/README.md's table.
purpose = {}
for row in open("data/README.md", encoding="utf-8"):
    m = re.match(r"\| `([^`]+)\.csv` \| (.*?) \| (.*?) \|\s*$", row)
    if m:
        purpose[m.group(1)] = (m.group(2), re.sub(r"\*\*|`", "", m.group(3)))
items = []
for line in open(summary, encoding="utf-8"):
    name, report = line.rstrip("\n").split("\t", 1)
    pipeline = re.search(r"pipeline (.*) \((.*)\)$", report)
    scenario, what = purpose.get(name, ("", ""))
    items.append(f'<li><a href="{name}.html">{html.escape(name)}</a> — {html.escape(what)} '
                 f'<br><small>scenario: {html.escape(re.sub("`", "", scenario))}; filtered with '
                 f'<code>{html.escape(pipeline.group(1) if pipeline else "?")}</code> '
                 f'({html.escape(pipeline.group(2) if pipeline else "")})</small></li>')
# Real recordings: listed when their page exists (made now or kept from an earlier run).
real_items = []
for row in open(real, encoding="utf-8"):
    name, file, title, what, source = row.rstrip("\n").split("|", 4)
    path = os.path.join(out, name + ".html")
    if not os.path.exists(path):
        continue
    page = open(path, encoding="utf-8").read()
    chosen = re.search(r"the pipeline \u201c(.*?)\u201d, (.*?)\.</p>", page)
    real_items.append(f'<li><a href="{name}.html">{html.escape(name)}</a> — {html.escape(what)} '
                      f'<br><small>file: <code>../shared/data/{html.escape(file)}</code>; filtered with '
                      f'<code>{html.escape(chosen.group(1) if chosen else "?")}</code> ({chosen.group(2) if chosen else ""})'
                      f'<br>data licence: {html.escape(source)}</small></li>')
real_section = ""
if real_items:
    real_section = f"""<h2>Real recordings</h2>
<p>Pages for recordings made by other people, from <code>../shared/data</code> (not part of this repository; each
page and the list below name the source and the data licence). <code>make reports</code> regenerates them when that
folder is present and keeps these pages otherwise.</p>
<ul>
{chr(10).join(real_items)}
</ul>
"""
page = f"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Poise reports of the bundled and real recordings</title>
<style>body{{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;max-width:960px;margin:24px auto;padding:0 16px;color:#222;line-height:1.45}}li{{margin:10px 0}}code{{background:#f4f4f4;padding:0 3px}}</style>
</head>
<body>
<h1>Poise reports of the bundled and real recordings</h1>
<h2>Simulated recordings (data/)</h2>
<p>One page per simulated recording in <code>data/</code> (see data/README.md; CC0), made by <code>poise report</code>
(regenerate with <code>make reports</code>). Each page tells what the recording is, shows raw and filtered signals,
step responses, the latency–jitter plane of a sweep over the filter kinds with its Pareto front, spectra and the
fused attitude against the ground truth (and, for the recordings replayed in real time, the delivery-timing histograms), and says which filter setting is best for a latency of at most 100 ms and why.
Every page is a single self-contained HTML file (inline SVG and one small inline script: hover a time plot for values,
drag across it to zoom, double-click to go back; nothing is loaded from the network).</p>
<ul>
{chr(10).join(items)}
</ul>
{real_section}
</body>
</html>
"""
open(f"{out}/index.html", "w", encoding="utf-8").write(page)
PY
echo "$OUT/index.html"
