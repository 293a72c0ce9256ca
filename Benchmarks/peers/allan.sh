#!/bin/sh
# Times allantools.oadev and Poise's overlapping Allan deviation on the same 10^7 samples × 6 axes
# in one run and prints the ratio (the `noise` benchmark suite; allantools is called through
# Benchmarks/scripts/bench_allan.py from a virtual environment of its own, .build/peers-allan-venv).
set -eu
cd "$(dirname "$0")/../.."
VENV=.build/peers-allan-venv
if [ ! -x "$VENV/bin/python" ]; then
    ${PYTHON:-python3} -m venv "$VENV"
    "$VENV/bin/pip" install -q --disable-pip-version-check numpy allantools
fi
POISE_PYTHON="$PWD/$VENV/bin/python" exec make bench SUITES=noise
