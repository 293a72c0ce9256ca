#!/bin/sh
# Regenerates notebooks-export/: one `poise report` page per recording in data/ and an index
# (`make reports`). Deterministic: same data, same pages. See docs/reports.md.
set -eu
POISE=${POISE:-.build/debug/poise}
OUT=${OUT:-notebooks-export}
mkdir -p "$OUT"
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
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
python3 - "$OUT" "$summary" <<'PY'
import html, re, sys
out, summary = sys.argv[1], sys.argv[2]
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
page = f"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Poise reports of the bundled recordings</title>
<style>body{{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;max-width:960px;margin:24px auto;padding:0 16px;color:#222;line-height:1.45}}li{{margin:10px 0}}code{{background:#f4f4f4;padding:0 3px}}</style>
</head>
<body>
<h1>Poise reports of the bundled recordings</h1>
<p>One page per simulated recording in <code>data/</code> (see data/README.md), made by <code>poise report</code>
(regenerate with <code>make reports</code>). Each page tells what the recording is, shows raw and filtered signals,
step responses, the latency–jitter plane of a sweep over the filter kinds with its Pareto front, spectra and the
fused attitude against the ground truth (and, for the recordings replayed in real time, the delivery-timing histograms), and says which filter setting is best for a latency of at most 100 ms and why.
Every page is a single self-contained HTML file (inline SVG, no scripts).</p>
<ul>
{chr(10).join(items)}
</ul>
</body>
</html>
"""
open(f"{out}/index.html", "w", encoding="utf-8").write(page)
PY
echo "$OUT/index.html"
