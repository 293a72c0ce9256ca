#!/bin/sh
# Times scipy.signal.welch and Poise's WelchEstimator on the same 1M × 3 signal in one run and
# prints the ratio (the `spectral` benchmark suite; scipy is called through Benchmarks/scripts/bench_welch.py).
cd "$(dirname "$0")/../.." && exec make bench SUITES=spectral
