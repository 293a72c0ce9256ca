#!/usr/bin/env python3
"""The allantools side of the `noise` benchmark: times allantools.oadev on the same data Poise uses.

Called by the benchmark suite (Benchmarks/Sources/PoiseBenchmarks/NoiseSuite.swift), which writes
the channels, runs this script with a Python that has numpy and allantools ($POISE_PYTHON;
Benchmarks/peers/allan.sh makes one), times Poise in the same run and prints the ratio:

    Benchmarks/peers/allan.sh

Standalone:  python3 Benchmarks/scripts/bench_allan.py --data FILE --channels 6 --rate 400 [--out DEVIATIONS]
  FILE holds channels × samples little-endian float64 values, channel after channel.
Prints one JSON object: the seconds oadev(data_type="freq", taus="octave") took for all channels
(one run: a run takes seconds), and with --out writes its deviations (channels × sizes float64).
"""
import argparse
import json
import time

import allantools
import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("--data", required=True)
parser.add_argument("--channels", type=int, default=6)
parser.add_argument("--rate", type=float, default=400.0)
parser.add_argument("--out")
args = parser.parse_args()

data = np.fromfile(args.data, dtype=np.float64).reshape(args.channels, -1)
start = time.perf_counter()
deviations = [allantools.oadev(channel, rate=args.rate, data_type="freq", taus="octave")[1] for channel in data]
seconds = time.perf_counter() - start
if args.out:
    np.concatenate(deviations).astype(np.float64).tofile(args.out)
print(json.dumps(dict(allantools=getattr(allantools, "__version__", "?"), seconds=seconds,
                      sizes=len(deviations[0]), samples=data.shape[1])))
