#!/bin/sh
# Soak: a one-hour 100 Hz recording replayed at --speed max through a full pipeline runs in
# constant memory (max RSS printed; compare with a 6-minute run) and its timing shows no drift.
#   Benchmarks/soak/soak_replay.sh [MINUTES]   (default 60)
set -eu
cd "$(dirname "$0")/../.."
MINUTES=${1:-60}
POISE=${POISE:-.build/release/poise}
[ -x "$POISE" ] || make build
DIR=${TMPDIR:-/tmp}/poise-soak-replay
mkdir -p "$DIR"
for m in $((MINUTES / 10)) "$MINUTES"; do
    f="$DIR/walk-$m-min.csv"
    [ -f "$f" ] || python3 Benchmarks/soak/make_long_recording.py "$f" --minutes "$m" --rate 100
    echo "== $m minutes ($(wc -c < "$f") bytes)"
    /usr/bin/time -f "wall %e s, max RSS %M KB" "$POISE" replay "$f" --speed max \
        --pipeline "remap:+Y-X+Z | butter:lowpass,order=4,cutoff=8 | tilt" --out "$DIR/out.csv" --json \
        > "$DIR/report-$m.json"
    python3 -c "import json,sys; r=json.load(open(sys.argv[1])); p=r['processing_ns']; print('samples', r['samples'], 'still segments', r['still_segments'], 'processing ns p50/p90/p99', p['p50'], p['p90'], p['p99'], 'wall', round(r['wall_s'], 2), 's', 'drift_us', r.get('drift_us', 'n/a (not paced)'))" "$DIR/report-$m.json"
done
