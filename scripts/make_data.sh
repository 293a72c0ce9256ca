#!/bin/sh
# Regenerates the project's own recordings in data/ with the simulator (`make data`).
# Deterministic: the same seed gives the same files. 7 significant digits keep the folder small
# (far below the simulated sensor noise). See data/README.md for what each file is for.
set -eu
POISE=${POISE:-.build/debug/poise}
sim() { "$POISE" simulate --seed 1 --digits 7 "$@"; }
sim --scenario phone-tilt-steer --rate 100 --out data/phone-tilt-steer-100hz.csv
sim --scenario tilt-steps --rate 100 --out data/tilt-steps.csv
sim --scenario steering --rate 100 --out data/steering.csv
sim --scenario shake --rate 100 --out data/shake.csv
sim --scenario walking --rate 100 --magnetometer-rate 50 --out data/walking.csv
sim --scenario rotations-with-breaks --rate 100 --out data/rotations-with-breaks.csv
sim --scenario still --rate 100 --out data/still.csv
sim --scenario phone-tilt-steer --rate 100 --ideal --duration 30 --out data/phone-tilt-steer-ideal-30s.csv
