#!/usr/bin/env python3
"""Golden output of the VQF reference implementation (pip package `vqf`, MIT, by D. Laidig), online
(`VQF.updateBatch`) and offline (`offlineVQF`), on recordings whose timestamps are not a clean
grid, for Poise's test that `DeviceMotionConfiguration.vqfDefaults` and `OfflineVQF` equal it
whatever the timestamps (Tests/PoiseTests/DeviceMotionVQFTimeTests.swift).

VQF has a fixed sample time Ts and never reads a timestamp; each case is fused by VQF with its
Ts and by Poise with sampleRate = 1 / Ts. The inputs come from `poise simulate` (its default
sensor model: noise, bias, scale and misalignment errors, jittered timestamps and dropped
samples), transformed here:
- jitter: every timestamp moved by up to ±30 % of the period (so some steps are far from Ts),
  and the field 1.6 times stronger from 6 s to 8 s (a magnetic disturbance);
- held: an IMU at 50 Hz in 100-Hz rows (each odd row repeats the row before it: every sensor
  held) and a magnetometer at 20 Hz (`poise simulate --magnetometer-rate 20`);
- gaps: rows removed (0.05 s, 0.3 s and 1 s) and rows repeated with the same timestamp;
- resampled: the recording linearly interpolated onto a 60-Hz grid (Ts = 1/60).
Every input value is rounded to 9 significant digits and both VQF and the Swift test read
those decimals, so both see the same numbers.

Stored (Tests/PoiseTests/Fixtures/vqf_time.csv): per case the rate and the input rows
(time s, acc g, gyr rad/s, mag µT), and at every 20th sample and the last one the online 6D and
9D quaternions and bias and offlineVQF's 6D and 9D quaternions and bias (quaternions w, x, y, z,
device → ENU; bias rad/s).

Run (after `swift build`): python3 Tests/Goldens/vqf_time_golden.py [path/to/poise] \
    > Tests/PoiseTests/Fixtures/vqf_time.csv
"""
import csv
import io
import os
import subprocess
import sys
import tempfile
from importlib.metadata import version

import numpy as np
import vqf

G = 9.80665  # Poise's inputs are in g; VQF takes m/s²
STEP = 20
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def simulate(poise, *args):
    """Rows (time, acc g ×3, gyr rad/s ×3, mag µT ×3) of `poise simulate` with these options."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "sim.csv")
        subprocess.run([poise, "simulate", "--scenario", "rotations-with-breaks", "--duration", "12",
                        "--digits", "12", "--out", path] + list(args), check=True, capture_output=True)
        with open(path) as f:
            rows = list(csv.reader(f))
    return np.array([[float(v) for v in r[:10]] for r in rows[1:]])


def rounded(a):
    """Every value rounded to 9 significant digits (the decimals written to the fixture)."""
    return np.vectorize(lambda v: float("%.9g" % v))(a)


def cases(poise):
    rng = np.random.default_rng(44)
    base = simulate(poise, "--seed", "3")
    out = []
    # jitter, and a magnetic disturbance
    a = base.copy()
    a[:, 0] += rng.uniform(-0.3, 0.3, len(a)) * 0.01
    a[(a[:, 0] >= 6) & (a[:, 0] < 8), 7:10] *= 1.6
    out.append(("jitter", 100.0, a))
    # held: every sensor at 50 Hz in 100-Hz rows, the magnetometer at 20 Hz
    b = simulate(poise, "--seed", "4", "--magnetometer-rate", "20")
    b[1::2, 1:10] = b[0:-1:2, 1:10]
    out.append(("held", 100.0, b))
    # gaps: rows removed, rows repeated with their timestamp
    keep = np.ones(len(base), bool)
    for start, length in ((150, 5), (400, 30), (800, 100)):
        keep[start:start + length] = False
    c = base[keep]
    repeat = np.zeros(len(c), int)
    repeat[[50, 51, 300, 600]] = 1
    repeat[[700]] = 3
    c = np.repeat(c, 1 + repeat, axis=0)
    out.append(("gaps", 100.0, c))
    # resampled onto 60 Hz
    grid = np.arange(0, base[-1, 0], 1 / 60)
    d = np.column_stack([grid] + [np.interp(grid, base[:, 0], base[:, k]) for k in range(1, 10)])
    out.append(("resampled", 60.0, d))
    return [(name, rate, rounded(rows)) for name, rate, rows in out]


def main():
    poise = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "poise")
    text = io.StringIO()
    print("# vqf %s: VQF(1/rate).updateBatch and offlineVQF(..., 1/rate), defaults; Tests/Goldens/vqf_time_golden.py"
          % version("vqf"), file=text)
    print("# in,case,rate,i,t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,mag_x,mag_y,mag_z", file=text)
    print("# out,case,i,online q6 (4),online q9 (4),online bias (3),offline q6 (4),offline q9 (4),offline bias (3)", file=text)
    for name, rate, rows in cases(poise):
        for i, r in enumerate(rows):
            print("in,%s,%g,%d," % (name, rate, i) + ",".join("%.9g" % v for v in r), file=text)
        gyr = np.ascontiguousarray(rows[:, 4:7])
        acc = np.ascontiguousarray(rows[:, 1:4] * G)
        mag = np.ascontiguousarray(rows[:, 7:10])
        online = vqf.VQF(1.0 / rate).updateBatch(gyr, acc, mag)
        offline = vqf.offlineVQF(gyr, acc, mag, 1.0 / rate)
        n = len(rows)
        for i in sorted(set(range(STEP - 1, n, STEP)) | {n - 1}):
            v = (list(online["quat6D"][i]) + list(online["quat9D"][i]) + list(online["bias"][i])
                 + list(offline["quat6D"][i]) + list(offline["quat9D"][i]) + list(offline["bias"][i]))
            print("out,%s,%d," % (name, i) + ",".join("%.12g" % x for x in v), file=text)
    sys.stdout.write(text.getvalue())


if __name__ == "__main__":
    main()
