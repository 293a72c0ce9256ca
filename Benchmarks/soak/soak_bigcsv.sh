#!/bin/sh
# Soak: a 2 GB CSV streams through `poise info`, `poise spectrum`, `poise fuse`,
# `poise replay --speed max` and `poise report` in under 100 MB of memory. Prints wall time and
# max RSS of each.
#   Benchmarks/soak/soak_bigcsv.sh [GIGABYTES]   (default 2; needs about twice that much free space in
#   $TMPDIR: the CSV, and the binary copy of its samples that `report` keeps while it runs)
set -eu
cd "$(dirname "$0")/../.."
GB=${1:-2}
POISE=${POISE:-.build/release/poise}
[ -x "$POISE" ] || make build
DIR=${TMPDIR:-/tmp}/poise-soak-big
mkdir -p "$DIR"
f="$DIR/big-$GB-GB.csv"
[ -f "$f" ] || python3 Benchmarks/soak/make_long_recording.py "$f" --bytes $(awk "BEGIN { printf \"%d\", $GB * 1073741824 }") --rate 200 --magnetometer
echo "== $(wc -c < "$f") bytes"
/usr/bin/time -f "info: wall %e s, max RSS %M KB" "$POISE" info "$f" > "$DIR/info.txt"
tail -n 5 "$DIR/info.txt"
/usr/bin/time -f "spectrum: wall %e s, max RSS %M KB" "$POISE" spectrum "$f" > "$DIR/spectrum.txt"
head -n 2 "$DIR/spectrum.txt"
/usr/bin/time -f "fuse: wall %e s, max RSS %M KB" "$POISE" fuse "$f" --mode 9d --out "$DIR/fused.csv" > /dev/null
rm -f "$DIR/fused.csv"
/usr/bin/time -f "replay --speed max: wall %e s, max RSS %M KB" "$POISE" replay "$f" --speed max --pipeline "adaptive | fusion:9d" --out "$DIR/replayed.csv" > "$DIR/replay.txt"
rm -f "$DIR/replayed.csv"
head -n 3 "$DIR/replay.txt"
/usr/bin/time -f "report: wall %e s, max RSS %M KB" "$POISE" report "$f" --out "$DIR/report.html" > /dev/null
ls -l "$DIR/report.html"
rm -f "$DIR/report.html"
