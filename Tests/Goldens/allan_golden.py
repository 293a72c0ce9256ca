#!/usr/bin/env python3
"""Generates the allantools golden values Poise's overlapping Allan deviation is tested against.

Run once from the repo root, with allantools installed (e.g. in a virtual environment:
python3 -m venv .build/allan-venv && .build/allan-venv/bin/pip install numpy allantools):

    .build/allan-venv/bin/python Tests/Goldens/allan_golden.py

Writes Tests/PoiseTests/Fixtures/allan_golden.json. The signals are not stored: both sides make
them from the same integer generator (a 64-bit LCG, exact in Swift and Python) and the same
sequential sums, so only the parameters and allantools' results are in the file. Each result is
allantools.oadev(y, rate, data_type="freq", taus=KEYWORD): cluster times, deviations and term
counts. Floats are written with repr (exact round trip).
"""
import json
import math
import pathlib

import allantools
import numpy as np

MASK = (1 << 64) - 1


def uniforms(seed, count):
    """count values in [-0.5, 0.5): state = state * 6364136223846793005 + 1442695040888963407."""
    state, out = seed, []
    for _ in range(count):
        state = (state * 6364136223846793005 + 1442695040888963407) & MASK
        out.append((state >> 11) * 2.0 ** -53 - 0.5)
    return out


def signals(count, rate):
    """The three channels (see AllanDeviationGoldenTests.swift, which builds the same)."""
    a = uniforms(1, count)
    b = uniforms(2, count)
    c = uniforms(3, count)
    white = [0.5 + 0.01 * v for v in a]                       # white noise on an offset
    walk, level = [], 0.0                                      # white + rate random walk
    for v, w in zip(a, b):
        level += 1e-4 * w
        walk.append(0.02 * v + level)
    sine = [1000.0 + 0.3 * math.sin(2 * math.pi * 1.7 * i / rate) + 0.05 * v   # large offset
            for i, v in enumerate(c)]
    return [white, walk, sine]


cases = []
for count, rate in [(20000, 400.0), (4099, 100.0)]:
    channels = signals(count, rate)
    for keyword in ["octave", "decade"]:
        results = []
        for y in channels:
            taus, devs, _, ns = allantools.oadev(np.array(y), rate=rate, data_type="freq", taus=keyword)
            results.append(dict(taus=[float(t) for t in taus], deviations=[float(d) for d in devs],
                                terms=[int(n) for n in ns]))
        cases.append(dict(count=count, rate=rate, sizes=keyword, channels=results))

out = pathlib.Path(__file__).resolve().parents[2] / "Tests/PoiseTests/Fixtures/allan_golden.json"
out.write_text(json.dumps(dict(generator="allantools " + getattr(allantools, "__version__", "?"), cases=cases), indent=1) + "\n")
print("wrote", out)
