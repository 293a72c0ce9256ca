#!/usr/bin/env python3
"""A zero-phase heading for the offline smoother, computed in numpy from the smoother's output,
on the BROAD trials (9D).

offlineVQF's heading, from its published description (not its code): the heading offset between
the attitude's frame and magnetic north is nearly constant over a recording, so it is measured
per sample from the magnetometer in that frame and low-passed with zero phase over the whole
recording, leaving out the samples whose field is disturbed. Here, per sample i of
`poise fuse --offline --mode 9d` (q_i device → ENU, m_i the magnetometer, µT):
1. the field in the attitude's frame, e_i = q_i · m_i, and its offset from north about the
   vertical δ_i = atan2(e_x, e_y) (rad; positive: north lies clockwise from the frame's +y when
   seen from above, so the frame must turn counter-clockwise by δ_i);
2. its weight: 0 when the sample is disturbed — the field's norm more than 10 % or its dip more
   than 10° from the recording's median (`offline` test), or the smoother's
   `mag_disturbance` flag (`flag` test), or either (`both`) — else 1;
3. the zero-phase low-pass: (cos δ, sin δ)·w and w each filtered forward and then backward by a
   first-order low-pass of time constant T (s; an exponential kernel e^(−|Δt|/T) on each side,
   never negative), δ̄_i = atan2 of the filtered sine and cosine;
4. the output q'_i = R_z(δ̄_i) · q_i.
Variants: "residual" applies it to the smoother's attitude (its heading corrected by the
low-passed residual); "replace" applies it to the smoother's zero-phase inclination frame (the
rates less the combined bias integrated once from the first attitude, tilted up; no passes'
heading at all, as offlineVQF).

--truth: per trial, the magnetometer's heading offset in the truth's frame (δ of step 1 with q
the truth, mean and standard deviation, °) over the samples at rest and over the scored samples
in motion: what a heading taken from the magnetometer can be at best.

Otherwise prints per trial the 9D total RMSE (BROAD metric, °) of offlineVQF (fixture), the smoother and
each variant, then the means and the worst trial against offlineVQF.

Run from the repository root after `swift build -c release --product poise`:
    python3 research/fusion_offline_heading.py [--time 10 --time 30] [--test offline] [--variant residual]
    python3 research/fusion_offline_heading.py --truth
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
from fusion_forward_backward import product, score  # noqa: E402
from fusion_offline_heading_passes import offline_vqf_9d  # noqa: E402
from fusion_offline_inclination import inclination_frame, read_trial, rotate  # noqa: E402


def first_order_zero_phase(x, t, T):
    """x (n×k) low-passed forward and then backward by a first-order low-pass of time constant
    T (s), each direction started at 0 (the weighted sums of a normalised convolution)."""
    a = 1 - np.exp(-np.abs(np.diff(t, prepend=t[0])) / T)
    y = np.empty_like(x)
    s = np.zeros(x.shape[1])
    for i in range(len(x)):
        s += a[i] * (x[i] - s)
        y[i] = s
    a = np.roll(a, -1)
    s = np.zeros(x.shape[1])
    for i in range(len(x) - 1, -1, -1):
        s += a[i] * (y[i] - s)
        y[i] = s
    return y


def about_vertical(angle):
    return np.stack([np.cos(angle / 2), 0 * angle, 0 * angle, np.sin(angle / 2)], 1)


def weights(e, flags, test):
    norm = np.linalg.norm(e, axis=1)
    dip = np.arctan2(e[:, 2], np.hypot(e[:, 0], e[:, 1]))
    offline = (np.abs(norm / np.median(norm) - 1) <= 0.1) & (np.abs(dip - np.median(dip)) <= np.radians(10))
    flag = flags == 0
    return {"offline": offline, "flag": flag, "both": offline & flag, "none": np.ones(len(e), bool)}[test].astype(float)


def corrected(q, mag, flags, t, T, test):
    e = rotate(q, mag)
    delta = np.arctan2(e[:, 0], e[:, 1])
    w = weights(e, flags, test)
    f = first_order_zero_phase(np.stack([w * np.cos(delta), w * np.sin(delta)], 1), t, T)
    return product(about_vertical(np.arctan2(f[:, 1], f[:, 0])), q)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=".build/release/poise")
    parser.add_argument("--time", type=float, action="append")
    parser.add_argument("--test", action="append")
    parser.add_argument("--variant", action="append")
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--truth", action="store_true")
    options = parser.parse_args()
    times = options.time or [10.0, 30.0, 60.0]
    tests = options.test or ["offline"]
    variants = options.variant or ["residual", "replace"]
    trials = sorted(glob.glob(os.path.join("..", "shared", "data", "broad", "*.csv")))
    if not trials:
        sys.exit("no BROAD trials in ../shared/data/broad")
    if options.truth:
        print("| trial | at rest: mean / sd (°) | in motion: mean / sd (°) |")
        print("|---|---|---|")
        for path in trials:
            name, rows, truth, scored = read_trial(path)
            cells = []
            for samples in (np.isfinite(truth).all(1) & (rows[:, 17] == 0), scored):
                e = rotate(truth[samples], rows[samples, 7:10])
                delta = np.degrees(np.arctan2(e[:, 0], e[:, 1]))
                cells.append("%+.2f / %.2f" % (delta.mean(), delta.std()))
            print("| %s | %s |" % (name[:2], " | ".join(cells)))
        return
    reference = offline_vqf_9d()
    columns = ["offlineVQF", "smoother"] + ["%s %s %g s" % (v, k, T) for v in variants for k in tests for T in times]
    print("| trial | " + " | ".join(columns) + " |")
    print("|---" * (1 + len(columns)) + "|")
    table = []
    with tempfile.TemporaryDirectory() as scratch:
        for path in trials:
            name, rows, truth, scored = read_trial(path)
            out = os.path.join(scratch, "motion.csv")
            args = [options.poise, "fuse", path, "--offline", "--mode", "9d", "--out", out]
            for s in options.set:
                args += ["--set", s]
            subprocess.run(args, check=True, capture_output=True)
            o = np.genfromtxt(out, delimiter=",", names=True)
            q = np.stack([o["att_qw"], o["att_qx"], o["att_qy"], o["att_qz"]], 1)
            mag = np.stack([o["mag_x_uT"], o["mag_y_uT"], o["mag_z_uT"]], 1)
            t = o["t_s"]
            flags = o["mag_disturbance"]
            r = [reference[name], score(q, truth, scored, False)[0]]
            frames = {"residual": q}
            if "replace" in variants:
                rate = np.stack([o["gyr_x_radps"], o["gyr_y_radps"], o["gyr_z_radps"]], 1)
                frames["replace"] = inclination_frame(q, rate, rows[:, 1:4], t, 4.0)
            for v in variants:
                for k in tests:
                    for T in times:
                        r.append(score(corrected(frames[v], mag, flags, t, T, k), truth, scored, False)[0])
            table.append(r)
            print("| %s | %s |" % (name[:2], " | ".join("%.2f" % x for x in r)), flush=True)
    a = np.array(table)
    print("| **mean** | %s |" % " | ".join("**%.3f**" % x for x in a.mean(0)))
    print("| worst vs offlineVQF | | %s |" % " | ".join("%+.1f %%" % (100 * (np.max(a[:, k] / a[:, 0]) - 1))
                                                       for k in range(1, a.shape[1])))


if __name__ == "__main__":
    main()
