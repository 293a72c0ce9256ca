#!/bin/sh
# The magnetometer calibration of every BROAD trial and what it does to the 9D heading error, as
# the table of docs/calibration.md: the spread of |B| before and after the trial's own
# calibration (when its own turning determines the fit); the heading error raw, calibrated from
# the trial itself, and calibrated from trial 02 (trial 05 for trial 02 itself), a different
# recording of the same IMU.
# Usage: POISE=.build/release/poise sh research/calibration_broad.sh [../shared/data/broad]
set -eu
POISE=${POISE:-.build/release/poise}
BROAD=${1:-../shared/data/broad}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$POISE" calibrate mag "$BROAD/02_undisturbed_slow_rotation_B.csv" --out "$WORK/from02.json" >/dev/null
"$POISE" calibrate mag "$BROAD/05_undisturbed_slow_rotation_with_breaks_B.csv" --out "$WORK/from05.json" >/dev/null
heading() { "$POISE" evaluate "$@" --json | sed 's/.*"heading_rmse_deg":\([0-9.e-]*\).*/\1/'; }
echo "| trial | \|B\| spread before → after (own fit) | heading raw | heading, own calibration | heading, calibration of another trial |"
echo "|---|---|---|---|---|"
for file in "$BROAD"/*.csv; do
  name=$(basename "$file" .csv)
  raw=$(heading "$file")
  if "$POISE" calibrate mag "$file" --out "$WORK/self.json" >"$WORK/summary" 2>"$WORK/err"; then
    self=$(printf '%.2f°' "$(heading "$file" --calibration "$WORK/self.json")")
    spread=$(sed -n 's/.*|B| spread *before \([0-9.]*\) µT.*after \([0-9.]*\) µT.*/\1 → \2 µT/p' "$WORK/summary")
  else
    self="not determined"
    spread=$(sed -n 's/.*: the device \(hardly turned\).*/refused: \1/p; s/.*: the device \(turned through only [0-9]*° about [XYZ]\).*/refused: \1/p' "$WORK/err")
  fi
  other="$WORK/from02.json"; from=02
  case "$name" in 02_*) other="$WORK/from05.json"; from=05 ;; esac
  cross=$(heading "$file" --calibration "$other")
  printf '| %s | %s | %.2f° | %s | %.2f° (from %s) |\n' "$name" "$spread" "$raw" "$self" "$cross" "$from"
done
