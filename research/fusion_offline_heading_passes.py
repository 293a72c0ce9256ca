#!/usr/bin/env python3
"""Where in time the offline smoother's 9D heading error is, and whether the two passes'
heading disagreement tells the slow heading gain from the fast one.

Both use the forward and the backward pass of the online estimator as
`Tests/Goldens/fusion_forward_backward.py` builds them (`poise fuse` on the recording and on its
time-reversed copy; nothing carried between the passes, no gyroscope fit), with the smoother's
estimator settings (`magneticDirectionThreshold=0`) at a heading gain G
(`magnetometerTimeConstant`, s).

--trace TRIAL (e.g. 26): per 10-s window of the trial, the mean signed heading error (°,
estimate − truth about the vertical, scored samples only) of the forward pass, the backward pass
and their equal-weight average at each gain of --gain, and the share of each pass's samples
flagged magnetically disturbed (mag_disturbance).

Without --trace: on every BROAD trial in ../shared/data/broad, the 9D total RMSE (BROAD metric,
°) of the average at 25 s, at 9 s, and of the two averages blended per sample towards the 9-s
one with weight min(1, (d/D)²), d the heading difference of the two 25-s passes (°), for each D
of --scale; then the means. Reference: vqf.offlineVQF
(Tests/PoiseTests/Fixtures/vqf_offline_broad.csv).

Run from the repository root after `swift build -c release --product poise`:
    python3 research/fusion_offline_heading_passes.py [--trace 26] [--gain 25 --gain 9]
About 5 s per trial and gain.
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Goldens"))  # the goldens' BROAD metric and references
from fusion_forward_backward import CONJUGATE, product, score, write_reversed  # noqa: E402


def fuse(poise, path, gain, scratch):
    """Attitudes (w, x, y, z) and magnetic-disturbance flags of `poise fuse --mode 9d`."""
    out = os.path.join(scratch, "motion.csv")
    subprocess.run([poise, "fuse", path, "--mode", "9d", "--out", out, "--set", "magnetometerTimeConstant=%g" % gain,
                    "--set", "magneticDirectionThreshold=0"], check=True, capture_output=True)
    o = np.genfromtxt(out, delimiter=",", names=True)
    return np.stack([o["att_qw"], o["att_qx"], o["att_qy"], o["att_qz"]], 1), o["mag_disturbance"]


def passes(poise, path, rows, gain, scratch):
    """The forward and the backward pass (in forward order): attitudes and disturbance flags."""
    forward = fuse(poise, path, gain, scratch)
    q, flags = fuse(poise, write_reversed(path, rows, scratch), gain, scratch)
    return forward, (q[::-1], flags[::-1])


def offline_vqf_9d():
    """vqf.offlineVQF's 9D total RMSE (°) per trial name (Tests/PoiseTests/Fixtures/vqf_offline_broad.csv)."""
    reference = {}
    with open(os.path.join("Tests", "PoiseTests", "Fixtures", "vqf_offline_broad.csv")) as f:
        for line in f:
            field = line.strip().split(",")
            if len(field) == 5 and field[1] == "9d":
                reference[field[0]] = float(field[2])
    return reference


def average(a, b, weight_a=None):
    """Per-sample weighted quaternion average (equal weights without `weight_a`), normalised."""
    w = np.full(len(a), 0.5) if weight_a is None else weight_a
    c = w[:, None] * a + (1 - w)[:, None] * np.sign(np.sum(a * b, 1))[:, None] * b
    return c / np.linalg.norm(c, axis=1)[:, None]


def heading_difference(a, b):
    """Signed rotation about the vertical from b to a, degrees."""
    d = product(a, b * CONJUGATE)
    return np.degrees(2 * np.arctan(d[:, 3] / d[:, 0]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=".build/release/poise")
    parser.add_argument("--trace")
    parser.add_argument("--gain", type=float, action="append")
    parser.add_argument("--scale", type=float, action="append")
    options = parser.parse_args()
    trials = sorted(glob.glob(os.path.join("..", "shared", "data", "broad", "*.csv")))
    if not trials:
        sys.exit("no BROAD trials in ../shared/data/broad")
    if options.trace:
        path = next(t for t in trials if os.path.basename(t).startswith(options.trace))
        rows = np.loadtxt(path, delimiter=",", skiprows=1)
        truth = rows[:, 10:14]
        scored = (rows[:, 17] == 1) & np.isfinite(truth).all(1)
        columns, errors, flags = [], [], []
        with tempfile.TemporaryDirectory() as scratch:
            for gain in options.gain or [25, 9]:
                (f, ff), (b, bf) = passes(options.poise, path, rows, gain, scratch)
                columns += ["fwd %g s" % gain, "bwd %g s" % gain, "avg %g s" % gain]
                errors += [heading_difference(q, truth) for q in (f, b, average(f, b))]
                columns_flags = ["fwd %g s disturbed" % gain, "bwd %g s disturbed" % gain]
                flags += list(zip(columns_flags, (ff, bf)))
        t = rows[:, 0]
        print("| window (s) | " + " | ".join(columns + [c for c, _ in flags]) + " |")
        print("|---" * (1 + len(columns) + len(flags)) + "|")
        for start in np.arange(0, t[-1], 10):
            window = (t >= start) & (t < start + 10)
            if not (window & scored).any():
                continue
            print("| %d–%d | %s | %s |" % (start, start + 10, " | ".join("%+.2f" % np.mean(e[window & scored]) for e in errors),
                                           " | ".join("%.2f" % np.mean(x[window]) for _, x in flags)))
        print("| RMS | %s |" % " | ".join("%.2f" % np.sqrt(np.mean(e[scored] ** 2)) for e in errors))
        return
    scales = options.scale or [0.5, 1, 2, 3, 5]
    reference = offline_vqf_9d()
    print("| trial | offlineVQF | 25 s | 9 s | " + " | ".join("blend D = %g°" % d for d in scales) + " | mean d (°) |")
    print("|---" * (5 + len(scales)) + "|")
    results = []
    for path in trials:
        name = os.path.basename(path)[:-4]
        rows = np.loadtxt(path, delimiter=",", skiprows=1)
        truth = rows[:, 10:14]
        scored = (rows[:, 17] == 1) & np.isfinite(truth).all(1)
        with tempfile.TemporaryDirectory() as scratch:
            (f25, _), (b25, _) = passes(options.poise, path, rows, 25, scratch)
            (f9, _), (b9, _) = passes(options.poise, path, rows, 9, scratch)
        slow, fast = average(f25, b25), average(f9, b9)
        d = np.abs(heading_difference(f25, b25))
        r = [reference[name], score(slow, truth, scored, False)[0], score(fast, truth, scored, False)[0]]
        r += [score(average(fast, slow, np.minimum(1, (d / s) ** 2)), truth, scored, False)[0] for s in scales]
        results.append(r)
        print("| %s | %s | %.2f |" % (name[:2], " | ".join("%.2f" % x for x in r), np.mean(d[scored])), flush=True)
    print("| **mean** | %s | |" % " | ".join("**%.3f**" % x for x in np.mean(results, 0)))


if __name__ == "__main__":
    main()
