#!/usr/bin/env python3
"""The scipy side of the `spectral` benchmark: times scipy.signal.welch on the same data Poise uses.

Called by the benchmark suite (Benchmarks/Sources/PoiseBenchmarks/SpectralSuite.swift), which
writes the signal, runs this script, times Poise in the same run and prints the ratio:

    make bench SUITES=spectral

Standalone:  python3 Benchmarks/scripts/bench_welch.py --data FILE [--channels 3] [--rate 100] [--nperseg 1024]
  FILE holds channels × samples little-endian float64 values, channel after channel.
Prints one JSON object: median milliseconds of welch (and of numpy.fft.rfft on 2^20 samples),
and, with --psd-out, writes scipy's PSD (channels × bins float64) there for the suite to compare.
"""
import argparse
import json
import time

import numpy as np
import scipy
import scipy.signal as sig


def median_ms(body, runs):
    body()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        body()
        times.append((time.perf_counter() - start) * 1e3)
    return float(np.median(times))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True)
    parser.add_argument("--channels", type=int, default=3)
    parser.add_argument("--rate", type=float, default=100.0)
    parser.add_argument("--nperseg", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--psd-out")
    args = parser.parse_args()

    x = np.fromfile(args.data, dtype="<f8").reshape(args.channels, -1)
    welch = lambda: sig.welch(x, fs=args.rate, nperseg=args.nperseg, axis=-1)
    welch_ms = median_ms(welch, args.runs)
    if args.psd_out:
        welch()[1].astype("<f8").tofile(args.psd_out)
    y = x[0, : 1 << 20] if x.shape[1] >= 1 << 20 else x[0]
    rfft_ms = median_ms(lambda: np.fft.rfft(y), args.runs)
    print(json.dumps(dict(scipy=scipy.__version__, numpy=np.__version__, samples=int(x.shape[1]),
                          channels=args.channels, welch_ms=welch_ms, rfft_samples=int(y.size), rfft_ms=rfft_ms)))


if __name__ == "__main__":
    main()
