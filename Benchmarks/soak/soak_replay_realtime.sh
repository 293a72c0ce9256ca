#!/bin/sh
# Soak: a MINUTES-long 100 Hz recording replayed in REAL TIME through a full pipeline. Samples the
# process's resident memory every minute (it must stay flat after the recording is loaded: nothing
# grows per delivered sample) and prints the replay's timing report at the end.
#   Benchmarks/soak/soak_replay_realtime.sh [MINUTES]   (default 60; takes that long)
set -eu
cd "$(dirname "$0")/../.."
MINUTES=${1:-60}
POISE=${POISE:-.build/release/poise}
[ -x "$POISE" ] || make build
DIR=${TMPDIR:-/tmp}/poise-soak-realtime
mkdir -p "$DIR"
f="$DIR/walk-$MINUTES-min.csv"
[ -f "$f" ] || python3 Benchmarks/soak/make_long_recording.py "$f" --minutes "$MINUTES" --rate 100
echo "== $MINUTES minutes in real time ($(wc -c < "$f") bytes), started $(date -u +%H:%M:%S) UTC"
"$POISE" replay "$f" --pipeline "remap:+Y-X+Z | butter:lowpass,order=4,cutoff=8 | tilt" \
    --out "$DIR/out.csv" --json > "$DIR/report.json" &
pid=$!
minute=0
while kill -0 "$pid" 2>/dev/null; do
    rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$rss" ] && echo "minute $minute: RSS $rss KB"
    minute=$((minute + 1))
    sleep 60
done
wait "$pid"
python3 - "$DIR/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
keys = ["samples", "stopped", "lateness_us", "period_jitter_us", "drift_us", "drift_trend_us", "late_samples", "processing_ns", "cpu_fraction", "realtime_scheduling"]
for k in keys: print(k, json.dumps(r.get(k)))
PY
