#!/bin/sh
# The table "What calibration does to the 9D heading" of docs/calibration.md: heading RMS error
# of `poise evaluate --mode 9d` on simulated recordings of one device (--seed 5, phone sensor
# model) with a hard- and soft-iron distortion, raw, calibrated from a tumble of the same device,
# calibrated from a tumble of another device (--seed 6) with the same distortion, and the same
# scenario without distortion.
#
#   POISE=.build/release/poise sh research/calibration_heading.sh [poise evaluate options…]
#
# Extra arguments go to every `poise evaluate` (e.g. --preset fast).
set -eu
poise=${POISE:-.build/release/poise}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
hard=25,-40,12
soft=1.1,0.05,0.02,0.05,0.95,-0.03,0.02,-0.03,1.02
heading() {
  "$poise" evaluate "$@" --mode 9d --json | python3 -c 'import json, sys; print("%.2f°" % json.load(sys.stdin)["heading_rmse_deg"])'
}
for seed in 5 6; do
  "$poise" simulate --scenario tumble --seed $seed --mag-hard-iron $hard --mag-soft-iron $soft --out "$work/tumble$seed.csv" > /dev/null
  "$poise" calibrate mag "$work/tumble$seed.csv" --out "$work/cal$seed.json" > /dev/null
done
echo "| scenario | raw | calibrated (same device) | calibrated (other device) | no distortion |"
echo "|---|---|---|---|---|"
for scenario in rotations-with-breaks walking steering phone-tilt-steer tilt-steps; do
  "$poise" simulate --scenario $scenario --seed 5 --mag-hard-iron $hard --mag-soft-iron $soft --out "$work/d.csv" > /dev/null
  "$poise" simulate --scenario $scenario --seed 5 --out "$work/u.csv" > /dev/null
  echo "| $scenario | $(heading "$work/d.csv" "$@") | $(heading "$work/d.csv" --calibration "$work/cal5.json" "$@") | $(heading "$work/d.csv" --calibration "$work/cal6.json" "$@") | $(heading "$work/u.csv" "$@") |"
done
