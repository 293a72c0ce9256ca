#!/bin/bash
# Memory of every command that reads a whole recording, on a ~2 GB CSV: a BROAD trial (ground
# truth, magnetometer, 285.7 Hz) repeated end to end with increasing times
# (`repeat_recording.py`). Prints a Markdown table of wall time and max RSS per command; with
# POISE_BASE set, runs that binary too and says whether each output (hashed) is the same.
#   Benchmarks/soak/soak_memory.sh [GIGABYTES] [COMMAND-NAME…]   (names as in the table, in the order given)
#   POISE=.build/release/poise POISE_BASE=/path/to/other/poise Benchmarks/soak/soak_memory.sh 2
# Needs the recording's size free in $TMPDIR (the file is kept for a second run; delete
# $TMPDIR/poise-soak-memory afterwards), plus the temporary files of `fuse --offline` (about
# 430 bytes per row). Every command writes its output (CSV, HTML, JSON or text) to standard
# output, which is hashed, not kept; the output names the file, so compare hashes only between
# runs over the same path.
set -u
cd "$(dirname "$0")/../.."
GB=${1:-2}
shift || true
POISE=${POISE:-.build/release/poise}
BASE=${POISE_BASE:-}
SOURCE=${SOURCE:-../shared/data/broad/07_undisturbed_fast_rotation_B.csv}
DIR=${TMPDIR:-/tmp}/poise-soak-memory
mkdir -p "$DIR"
f="$DIR/repeated-$GB-GB.csv"
[ -f "$f" ] || python3 Benchmarks/soak/repeat_recording.py "$SOURCE" "$f" --bytes "$(awk "BEGIN { printf \"%d\", $GB * 1000000000 }")" >&2

# name|arguments (FILE: the recording)
COMMANDS='info|info FILE
fuse|fuse FILE --out -
fuse --offline|fuse FILE --offline --out -
evaluate --mode 9d|evaluate FILE --mode 9d --json
evaluate --mode 6d|evaluate FILE --mode 6d --json
evaluate --offline|evaluate FILE --offline --json
convert|convert FILE --out -
tilt|tilt FILE --out -
gyro|gyro FILE --out -
gyro --compare-smoothing|gyro FILE --compare-smoothing
remap|remap FILE --axes +Y-X+Z --out -
report|report FILE --out -
allan|allan FILE
spectrum|spectrum FILE
calibrate gyro|calibrate gyro FILE
calibrate accel|calibrate accel FILE
calibrate mag|calibrate mag FILE
replay --speed max|replay FILE --speed max --out -'

# run BINARY TAG ARGS…: "wall_s max_rss_kb exit_status sha256-of-stdout" on one line.
run() {
    local binary=$1 tag=$2
    shift 2
    local status
    /usr/bin/time -f "%e %M" -o "$DIR/time-$tag.txt" "$binary" "$@" 2> "$DIR/stderr-$tag.txt" | sha256sum | cut -c1-16 > "$DIR/hash-$tag.txt"
    status=${PIPESTATUS[0]}
    echo "$(tail -n 1 "$DIR/time-$tag.txt") $status $(cat "$DIR/hash-$tag.txt")"
}

WANTED=("$@")
echo "$(wc -c < "$f") bytes, $(($(wc -l < "$f") - 1)) rows: $f" >&2
if [ -n "$BASE" ]; then
    echo "| command | max RSS, base | max RSS | wall, base | wall | exit | output |"
    echo "|---|---:|---:|---:|---:|---|---|"
else
    echo "| command | max RSS | wall | exit | output (SHA-256, first 16) |"
    echo "|---|---:|---:|---|---|"
fi
# The commands named (in that order), else all.
if [ ${#WANTED[@]} -gt 0 ]; then
    SELECTED=$(for w in "${WANTED[@]}"; do echo "$COMMANDS" | grep -F "$w|" | grep "^$w|"; done)
else
    SELECTED=$COMMANDS
fi
echo "$SELECTED" | while IFS='|' read -r name arguments; do
    read -r -a args <<< "${arguments//FILE/$f}"
    read -r wall rss status hash <<< "$(run "$POISE" new "${args[@]}" < /dev/null)"
    mb=$(awk "BEGIN { printf \"%.1f\", $rss / 1024 }")
    if [ -n "$BASE" ]; then
        read -r bwall brss bstatus bhash <<< "$(run "$BASE" base "${args[@]}" < /dev/null)"
        bmb=$(awk "BEGIN { printf \"%.1f\", $brss / 1024 }")
        same=$([ "$hash" = "$bhash" ] && echo "same" || echo "DIFFERENT")
        echo "| \`$name\` | $bmb MB | $mb MB | $bwall s | $wall s | $bstatus / $status | $same |"
    else
        echo "| \`$name\` | $mb MB | $wall s | $status | $hash |"
    fi
done
