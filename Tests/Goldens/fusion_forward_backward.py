#!/usr/bin/env python3
"""What an offline answer from two runs of the online estimator gives on the BROAD trials: the
recording fused forward (`poise fuse`) and fused again backward in time, the two attitudes
averaged per sample with equal weights (a zero-phase combination: the lag of each pass's
corrections cancels). Compared with the forward pass alone and, when the `vqf` package is
importable, with `vqf.offlineVQF` and `vqf.VQF` on the same trials and metric.

The backward recording: rows in reverse order, time t → −t, rotation rate negated and taken from
the next row of the original (the estimator integrates each row's rate over the step before the
row, so the step from row k+1 back to row k turns by −ω_{k+1}); accelerometer and magnetometer
unchanged. This is exact for regular timestamps (BROAD's); irregular ones would also need each
row's step moved with its rate. 6D: the backward pass has its own arbitrary heading, so it is
turned about the vertical by the circular mean of its heading difference to the forward pass
before averaging. Scores: the BROAD metric of conventions.md (6D aligned by one constant heading
offset, found by a 0.5° scan refined to 0.001°).

Run from the repository root after `swift build -c release --product poise`:
    .build/python-venv/bin/python Tests/Goldens/fusion_forward_backward.py [--mode 9d|6d] [--set NAME=VALUE …]
(`make test` creates that virtual environment with numpy and vqf; python3 with numpy alone
skips the vqf rows.) About 10 s per trial and mode.
"""
import argparse
import glob
import os
import subprocess
import tempfile

import numpy as np

CONJUGATE = np.array([1.0, -1.0, -1.0, -1.0])


def product(a, b):
    w1, x1, y1, z1 = a.T
    w2, x2, y2, z2 = b.T
    return np.stack([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2], 1)


def about_vertical(angle, count):
    return np.tile([np.cos(angle / 2), 0.0, 0.0, np.sin(angle / 2)], (count, 1))


def fuse(poise, path, mode, settings, scratch):
    out = os.path.join(scratch, "motion.csv")
    args = [poise, "fuse", path, "--mode", mode, "--out", out]
    for s in settings:
        args += ["--set", s]
    subprocess.run(args, check=True, capture_output=True)
    o = np.genfromtxt(out, delimiter=",", names=True)
    return np.stack([o["att_qw"], o["att_qx"], o["att_qy"], o["att_qz"]], 1)


def score(q, truth, scored, align):
    """Total, heading and inclination RMSE in degrees (BROAD metric)."""
    e = product(q[scored], truth[scored] * CONJUGATE)
    if align:
        def heading_ms(offset):
            f = product(about_vertical(-offset, len(e)), e)
            return np.mean((2 * np.arctan(np.abs(f[:, 3] / f[:, 0]))) ** 2)
        best = min(np.radians(np.arange(-180, 180, 0.5)), key=heading_ms)
        for step in (0.1, 0.02, 0.004, 0.001):
            best = min(best + np.radians(np.arange(-5, 6) * step), key=heading_ms)
        e = product(about_vertical(-best, len(e)), e)
    w, z = e[:, 0], e[:, 3]
    total = 2 * np.arccos(np.minimum(1, np.abs(w)))
    heading = 2 * np.arctan(np.abs(z / w))
    inclination = 2 * np.arccos(np.minimum(1, np.sqrt(w * w + z * z)))
    return [float(np.degrees(np.sqrt(np.mean(x * x)))) for x in (total, heading, inclination)]


def write_reversed(path, rows, scratch):
    """Writes the time-reversed recording (see above) of `rows` (read from `path`, whose header
    it keeps) into `scratch` and returns its path."""
    rate = rows[:, 4:7].copy()
    rate[:-1] = rate[1:]
    backward_rows = rows.copy()
    backward_rows[:, 4:7] = -rate
    backward_rows = backward_rows[::-1].copy()
    backward_rows[:, 0] = -backward_rows[:, 0]
    reversed_path = os.path.join(scratch, "reversed.csv")
    with open(path) as f:
        header = f.readline().strip()
    np.savetxt(reversed_path, backward_rows, delimiter=",", header=header, comments="", fmt="%.9g")
    return reversed_path


def forward_backward(poise, path, mode, settings, scratch):
    rows = np.loadtxt(path, delimiter=",", skiprows=1)
    forward = fuse(poise, path, mode, settings, scratch)
    backward = fuse(poise, write_reversed(path, rows, scratch), mode, settings, scratch)[::-1]
    if mode == "6d":
        d = product(forward, backward * CONJUGATE)
        offset = np.angle(np.mean(np.exp(2j * np.arctan2(d[:, 3], d[:, 0]))))
        backward = product(about_vertical(offset, len(backward)), backward)
    sign = np.sign(np.sum(forward * backward, 1))[:, None]
    combined = forward + sign * backward
    combined /= np.linalg.norm(combined, axis=1)[:, None]
    return rows, forward, combined


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=".build/release/poise")
    parser.add_argument("--mode", default="9d", choices=["6d", "9d"])
    parser.add_argument("--set", action="append", default=[], dest="settings")
    options = parser.parse_args()
    try:
        import vqf
    except ImportError:
        vqf = None
    trials = sorted(glob.glob(os.path.join("..", "shared", "data", "broad", "*.csv")))
    columns = ["forward (online)", "forward-backward"] + (["vqf.VQF", "vqf.offlineVQF"] if vqf else [])
    print("| trial (%s: total / heading / inclination, °) | %s |" % (options.mode.upper(), " | ".join(columns)))
    print("|---" * (len(columns) + 1) + "|")
    results = []
    with tempfile.TemporaryDirectory() as scratch:
        for path in trials:
            rows, forward, combined = forward_backward(options.poise, path, options.mode, options.settings, scratch)
            truth = rows[:, 10:14]
            scored = (rows[:, 17] == 1) & np.isfinite(truth).all(1)
            estimates = [forward, combined]
            if vqf:
                gyr, acc, mag = (np.ascontiguousarray(rows[:, c:c + 3]) for c in (4, 1, 7))
                key = "quat9D" if options.mode == "9d" else "quat6D"
                step = float(np.median(np.diff(rows[:, 0])))
                estimates.append(vqf.VQF(step).updateBatch(gyr, acc, mag)[key])
                estimates.append(vqf.offlineVQF(gyr, acc, mag, step)[key])
            r = [score(q, truth, scored, options.mode == "6d") for q in estimates]
            results.append(r)
            print("| %s | %s |" % (os.path.basename(path)[:2], " | ".join("%.2f / %.2f / %.2f" % tuple(x) for x in r)))
    mean = np.mean(np.array(results), axis=0)
    print("| **mean** | %s |" % " | ".join("**%.3f** / %.3f / %.3f" % tuple(x) for x in mean))


if __name__ == "__main__":
    main()
