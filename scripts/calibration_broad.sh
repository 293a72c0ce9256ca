#!/bin/sh
# The 9D heading error of every BROAD trial without and with magnetometer calibration, as the
# table of docs/calibration.md: raw; calibrated from the trial itself (when its own turning
# determines the fit); calibrated from trial 02 (trial 05 for trial 02 itself), a different
# recording of the same IMU.
# Usage: POISE=.build/release/poise sh scripts/calibration_broad.sh [../shared/data/broad]
set -eu
POISE=${POISE:-.build/release/poise}
BROAD=${1:-../shared/data/broad}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$POISE" calibrate mag "$BROAD/02_undisturbed_slow_rotation_B.csv" --out "$WORK/from02.json" >/dev/null
"$POISE" calibrate mag "$BROAD/05_undisturbed_slow_rotation_with_breaks_B.csv" --out "$WORK/from05.json" >/dev/null
heading() { "$POISE" evaluate "$@" --json | sed 's/.*"heading_rmse_deg":\([0-9.e-]*\).*/\1/'; }
echo "| trial | raw | self-calibrated | calibrated from another trial |"
echo "|---|---|---|---|"
for file in "$BROAD"/*.csv; do
  name=$(basename "$file" .csv)
  raw=$(heading "$file")
  if "$POISE" calibrate mag "$file" --out "$WORK/self.json" >/dev/null 2>"$WORK/err"; then
    self=$(heading "$file" --calibration "$WORK/self.json")
  else
    self="not determined"
  fi
  other="$WORK/from02.json"; from=02
  case "$name" in 02_*) other="$WORK/from05.json"; from=05 ;; esac
  cross=$(heading "$file" --calibration "$other")
  printf '| %s | %.2f° | %s | %.2f° (from %s) |\n' "$name" "$raw" \
    "$(case "$self" in not*) echo "$self" ;; *) printf '%.2f°' "$self" ;; esac)" "$cross" "$from"
done
