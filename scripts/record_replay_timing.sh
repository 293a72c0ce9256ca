#!/bin/sh
# Records the real-time replay timing shown in notebooks-export/ (`make replay-timing`): replays
# each recording named below in real time (1×, its own timestamps) through the pipeline its page
# shows, with the release build, and writes `poise replay --json` to
# notebooks-export/replay-timing/<name>.json. `make reports` then passes that file to
# `poise report --replay`, so regenerating the pages stays deterministic: the timing is a
# measurement of this machine, taken only when this script runs (60 s per minute of recording).
# See docs/reports.md.
set -eu
POISE=${POISE:-.build/release/poise}
OUT=${OUT:-notebooks-export/replay-timing}
# Recordings to replay; each through the pipeline its page recommends (found by a report
# without --replay, so the replay and the page agree).
RECORDINGS=${RECORDINGS:-"phone-tilt-steer-100hz"}
mkdir -p "$OUT"
scratch=$(mktemp)
trap 'rm -f "$scratch" "$scratch.html"' EXIT
for name in $RECORDINGS; do
  line=$("$POISE" report "data/$name.csv" --out "$scratch.html" --threads 2)
  pipeline=$(printf '%s\n' "$line" | sed -n 's/.*; pipeline \(.*\) (.*)$/\1/p')
  [ -n "$pipeline" ] || { echo "record_replay_timing: no pipeline in: $line" >&2; exit 1; }
  tmp="$OUT/$name.json.partial"
  echo "replaying data/$name.csv through '$pipeline' in real time…" >&2
  "$POISE" replay "data/$name.csv" --pipeline "$pipeline" --json > "$tmp"
  mv "$tmp" "$OUT/$name.json"
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[1] + ': ' + str(d['samples']) + ' samples, lateness p50 ' + str(d['lateness_us']['p50']) + ' us, p99 ' + str(d['lateness_us']['p99']) + ' us, max ' + str(d['lateness_us']['max']) + ' us, late ' + str(d['late_samples']))" "$OUT/$name.json"
done
