#!/usr/bin/env python3
"""The offline smoother's zero-phase inclination (`inclinationLowPassTime`) computed independently
in numpy from the smoother's output with the zero-phase inclination off, on the BROAD trials.

For each trial and mode, the smoother's output at the samples' times (`poise fuse --offline --set
inclinationLowPassTime=0 --set outputPrediction=0`) gives per
sample the combined attitude q (device → ENU) and the rotation rate less the combined bias ω (the
`gyr_*` columns: gyroscope-calibrated rate minus bias, rad/s). From them, as offlineVQF's
published algorithm describes it (not its code):
1. one strapdown integration of ω from q at the first sample (each sample's rate over the step
   before it): g_i, device → integration frame;
2. the accelerometer turned into that frame, a_i = g_i · acc_i, and low-passed with zero phase:
   the second-order Butterworth low-pass of VQF's accelerometer filter (cut-off √2 / (2π τ)),
   run forward and then backward (filtfilt);
3. per sample, the shortest rotation c_i that turns the low-passed a_i to +z: the inclination
   estimate c_i · g_i;
4. the output keeps the smoother's heading: q'_i = twist_z(q_i · (c_i g_i)⁻¹) · c_i g_i.
Scores: total / inclination RMSE (BROAD metric, °) of q and of q' for each τ of --tau, per trial,
the means, and the worst trial's total error relative to vqf.offlineVQF
(Tests/PoiseTests/Fixtures/vqf_offline_broad.csv). Per-sample loops in Python: about 20 s per
trial; the τ are chosen by cross-validation in research/fusion_offline_cv.py, not here.

Run from the repository root after `swift build -c release --product poise`:
    python3 Tests/Goldens/fusion_offline_inclination.py [--tau 4 --tau 3]
    python3 Tests/Goldens/fusion_offline_inclination.py --csv > Tests/PoiseTests/Fixtures/offline_inclination_broad.csv
(--csv: trial, mode, total and inclination RMSE in degrees at the first τ, the golden of
DeviceMotionSmootherBROADTests.)
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fusion_forward_backward import CONJUGATE, product, score  # noqa: E402


def strapdown(q0, rate, t):
    """Attitudes from q0 integrating `rate` (rad/s, device frame) over each step before a sample."""
    out = np.empty((len(t), 4))
    q = np.array(q0, dtype=float)
    out[0] = q
    for i in range(1, len(t)):
        v = rate[i] * (t[i] - t[i - 1])
        angle = np.linalg.norm(v)
        if angle > 0:
            s = np.sin(angle / 2) / angle
            w, x, y, z = q
            a, b, c, d = np.cos(angle / 2), v[0] * s, v[1] * s, v[2] * s
            q = np.array([w * a - x * b - y * c - z * d, w * b + x * a + y * d - z * c,
                          w * c - x * d + y * a + z * b, w * d + x * c - y * b + z * a])
            q /= np.linalg.norm(q)
        out[i] = q
    return out


def rotate(q, v):
    """v (n×3) turned by q (n×4): q v q*."""
    return product(product(q, np.concatenate([np.zeros((len(v), 1)), v], 1)), q * CONJUGATE)[:, 1:]


def low_pass_coefficients(tau, step):
    """Second-order Butterworth low-pass with cut-off √2 / (2π τ) (VQF's accelerometer filter)."""
    c = np.tan(np.pi * np.sqrt(2) / (2 * np.pi * tau) * step)
    d = c * c + np.sqrt(2) * c + 1
    b0 = c * c / d
    return (b0, 2 * b0, b0), (2 * (c * c - 1) / d, (1 - np.sqrt(2) * c + c * c) / d)


def low_pass(x, b, a):
    """The filter run over x (one channel), started in steady state at x[0]."""
    y = np.empty_like(x)
    x1 = x2 = y1 = y2 = x[0]
    for i, xi in enumerate(x):
        yi = b[0] * xi + b[1] * x1 + b[2] * x2 - a[0] * y1 - a[1] * y2
        x2, x1, y2, y1 = x1, xi, y1, yi
        y[i] = yi
    return y


def zero_phase(x, b, a):
    return low_pass(low_pass(x, b, a)[::-1], b, a)[::-1]


def inclination_frame(q, rate, acc, t, tau):
    """Steps 1–3: the rates integrated from q[0], tilted so the zero-phase low-passed
    accelerometer points up (device → a frame with an arbitrary heading)."""
    g = strapdown(q[0], rate, t)
    earth = rotate(g, acc)
    b, a = low_pass_coefficients(tau, float(np.median(np.diff(t))))
    up = np.stack([zero_phase(earth[:, k], b, a) for k in range(3)], 1)
    up /= np.linalg.norm(up, axis=1)[:, None]
    # The shortest rotation taking up to +z: axis up × z, angle acos(up·z).
    axis = np.stack([up[:, 1], -up[:, 0], np.zeros(len(up))], 1)
    s = np.linalg.norm(axis, axis=1)
    angle = np.arctan2(s, up[:, 2])
    axis /= np.maximum(s, 1e-300)[:, None]
    return product(np.concatenate([np.cos(angle / 2)[:, None], np.sin(angle / 2)[:, None] * axis], 1), g)


def with_offline_inclination(q, rate, acc, t, tau):
    inclination = inclination_frame(q, rate, acc, t, tau)
    d = product(q, inclination * CONJUGATE)
    twist = np.stack([d[:, 0], np.zeros(len(d)), np.zeros(len(d)), d[:, 3]], 1)
    twist /= np.linalg.norm(twist, axis=1)[:, None]
    return product(twist, inclination)


def read_trial(path):
    """A BROAD trial's name, rows, truth quaternions (w, x, y, z) and scored samples (moving, with truth)."""
    rows = np.loadtxt(path, delimiter=",", skiprows=1)
    truth = rows[:, 10:14]
    return os.path.basename(path)[:-4], rows, truth, (rows[:, 17] == 1) & np.isfinite(truth).all(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=".build/release/poise")
    parser.add_argument("--tau", type=float, action="append")
    parser.add_argument("--csv", action="store_true")
    options = parser.parse_args()
    taus = options.tau or [4.0, 3.0]
    if options.csv:
        taus = taus[:1]
    trials = sorted(glob.glob(os.path.join("..", "shared", "data", "broad", "*.csv")))
    if not trials:
        sys.exit("no BROAD trials in ../shared/data/broad")
    reference = {}
    with open(os.path.join("Tests", "PoiseTests", "Fixtures", "vqf_offline_broad.csv")) as f:
        for line in f:
            field = line.strip().split(",")
            if len(field) == 5 and field[1] in ("9d", "6d"):
                reference[(field[0], field[1])] = (float(field[2]), float(field[4]))
    columns = ["offlineVQF", "smoother"] + ["τ = %g s" % tau for tau in taus]
    if options.csv:
        print("# offline smoother's zero-phase inclination (tau %g s) from poise fuse --offline --set inclinationLowPassTime=0 --set outputPrediction=0, "
              "BROAD metric; Tests/Goldens/fusion_offline_inclination.py --csv" % taus[0])
        print("trial,mode,total_deg,inclination_deg")
    else:
        print("| trial | " + " | ".join("%s %s" % (m, c) for m in ("9D", "6D") for c in columns) + " |")
        print("|---" * (1 + 2 * len(columns)) + "|")
    results = {"9d": [], "6d": []}
    with tempfile.TemporaryDirectory() as scratch:
        for path in trials:
            name, rows, truth, scored = read_trial(path)
            cells = []
            for mode in ("9d", "6d"):
                out = os.path.join(scratch, "motion.csv")
                subprocess.run([options.poise, "fuse", path, "--offline", "--mode", mode, "--set", "inclinationLowPassTime=0",
                                "--set", "outputPrediction=0", "--out", out],
                               check=True, capture_output=True)
                o = np.genfromtxt(out, delimiter=",", names=True)
                q = np.stack([o["att_qw"], o["att_qx"], o["att_qy"], o["att_qz"]], 1)
                rate = np.stack([o["gyr_x_radps"], o["gyr_y_radps"], o["gyr_z_radps"]], 1)
                r = [reference[(name, mode)], score(q, truth, scored, mode == "6d")]
                r += [score(with_offline_inclination(q, rate, rows[:, 1:4], rows[:, 0], tau), truth, scored, mode == "6d")
                      for tau in taus]
                r = [(x[0], x[-1]) for x in r]
                results[mode].append(r)
                if options.csv:
                    print("%s,%s,%.6f,%.6f" % (name, mode, r[2][0], r[2][1]), flush=True)
                cells += ["%.2f / %.2f" % x for x in r]
            if not options.csv:
                print("| %s | %s |" % (name[:2], " | ".join(cells)), flush=True)
    if options.csv:
        return
    cells, worst = [], []
    for mode in ("9d", "6d"):
        a = np.array(results[mode])
        cells += ["**%.3f** / %.3f" % (a[:, k, 0].mean(), a[:, k, 1].mean()) for k in range(a.shape[1])]
        worst += ["" if k == 0 else "%+.1f %%" % (100 * (np.max(a[:, k, 0] / a[:, 0, 0]) - 1)) for k in range(a.shape[1])]
    print("| **mean** (total / inclination) | %s |" % " | ".join(cells))
    print("| worst trial vs offlineVQF | %s |" % " | ".join(worst))


if __name__ == "__main__":
    main()
