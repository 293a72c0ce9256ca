#!/usr/bin/env python3
"""Golden outputs for Poise's filter tests, from independent references.

- Butterworth: scipy.signal.butter(order, Wn, btype, fs=rate, output="sos") + sosfilt, zero
  initial state (Poise `start: .zero`) and steady state at the first input
  (`sosfilt_zi(sos) * x[0]`, Poise `start: .firstInput`), orders 1-8, low/high/band-pass.
- One-pole RC low-pass / high-pass: scipy.signal.lfilter with the RC coefficients.
- One Euro: the authors' OneEuroFilter 0.2.1 (PyPI), with irregular timestamps.

Writes Tests/PoiseTests/Fixtures/filter_goldens.json. Run from the repository root:
    python3 Tests/Goldens/filter_goldens.py
Versions used: see the "versions" field of the output.
"""
import json
import math
import pathlib

import numpy as np
import scipy
import scipy.signal as signal

try:
    import OneEuroFilter as one_euro_module
    from OneEuroFilter import OneEuroFilter
except ImportError:  # pip install OneEuroFilter==0.2.1
    raise SystemExit("needs OneEuroFilter 0.2.1: pip install OneEuroFilter==0.2.1")

RATE = 100.0
COUNT = 96
rng = np.random.default_rng(20261121)
t = np.arange(COUNT) / RATE
x = (0.8 + 0.5 * np.sin(2 * np.pi * 1.5 * t) + 0.3 * np.sin(2 * np.pi * 12 * t)
     + 0.2 * rng.standard_normal(COUNT))
x[40:] += 0.7  # a step, so transients matter

cases = []
bands = [("lowpass", 5.0), ("highpass", 2.0), ("bandpass", [1.0, 10.0])]
for btype, wn in bands:
    for order in range(1, 9):
        sos = signal.butter(order, wn, btype=btype, fs=RATE, output="sos")
        cases.append({"band": btype, "order": order, "edges": wn if isinstance(wn, list) else [wn],
                      "start": "zero", "output": signal.sosfilt(sos, x).tolist()})
        zi = signal.sosfilt_zi(sos) * x[0]
        cases.append({"band": btype, "order": order, "edges": wn if isinstance(wn, list) else [wn],
                      "start": "first", "output": signal.sosfilt(sos, x, zi=zi)[0].tolist()})
# Harder corners: poles close to the unit circle, and edges close to Nyquist.
for btype, wn, order in [("lowpass", 0.5, 8), ("highpass", 45.0, 8), ("bandpass", [0.2, 0.4], 6), ("bandpass", [30.0, 48.0], 8)]:
    sos = signal.butter(order, wn, btype=btype, fs=RATE, output="sos")
    cases.append({"band": btype, "order": order, "edges": wn if isinstance(wn, list) else [wn],
                  "start": "zero", "output": signal.sosfilt(sos, x).tolist()})

# One-pole RC filters: RC = 1/(2 pi fc).
one_pole = []
for fc in [0.5, 5.0, 20.0]:
    dt = 1 / RATE
    rc = 1 / (2 * math.pi * fc)
    a = dt / (dt + rc)
    b, den = [a], [1.0, -(1.0 - a)]
    zero = signal.lfilter(b, den, x)
    first = signal.lfilter(b, den, x, zi=signal.lfilter_zi(b, den) * x[0])[0]
    alpha = rc / (rc + dt)
    high = signal.lfilter([alpha, -alpha], [1.0, -alpha], x)  # y = alpha (y' + x - x'), zero state
    one_pole.append({"cutoff": fc, "lowpass_zero": zero.tolist(), "lowpass_first": first.tolist(),
                     "highpass_zero": high.tolist()})

# One Euro with irregular timestamps (the reference ignores timestamp 0, so start at 1 s).
periods = 0.01 * (1 + 0.5 * rng.uniform(-1, 1, COUNT))
times = 1.0 + np.cumsum(periods)
one_euro = []
for mincutoff, beta, dcutoff in [(1.0, 0.0, 1.0), (0.1, 2.0, 1.0), (0.5, 0.05, 2.0)]:
    f = OneEuroFilter(freq=RATE, mincutoff=mincutoff, beta=beta, dcutoff=dcutoff)
    out = [f(float(v), float(ts)) for v, ts in zip(x, times)]
    one_euro.append({"mincutoff": mincutoff, "beta": beta, "dcutoff": dcutoff, "output": out})

doc = {
    "versions": {"numpy": np.__version__, "scipy": scipy.__version__, "OneEuroFilter": "0.2.1"},
    "rate": RATE,
    "input": x.tolist(),
    "times": times.tolist(),
    "butterworth": cases,
    "one_pole": one_pole,
    "one_euro": one_euro,
}
path = pathlib.Path(__file__).resolve().parents[2] / "Tests/PoiseTests/Fixtures/filter_goldens.json"
path.write_text(json.dumps(doc, separators=(",", ":")))
print(f"wrote {path} ({path.stat().st_size} bytes)")
