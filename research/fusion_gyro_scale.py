#!/usr/bin/env python3
"""Can the gyroscope's per-axis scale factors be learnt from the accelerometer alone?

For each BROAD trial in ../shared/data/broad (CC BY 4.0, Laidig et al., Data 6(7) 2021,
doi:10.3390/data6070072), with numpy only:

1. Learn on the first half of the trial. Its movement is cut into windows of W seconds; each
   window is integrated from the truth's attitude at its start (the linearisation point an
   online estimator has to within its inclination error) with the gyroscope less the first
   still segment's bias. A scale error σ (gyro = (1 + σ)·ω per axis) and a residual bias δb
   tilt the integrated earth frame by θ(t) = Σ R_k·diag(ω_k)·dt·σ + Σ R_k·dt·δb, and the
   specific force rotated into that frame then leans by (θ_y, −θ_x) g. Least squares of the
   horizontal specific force (the accelerometer only: linear acceleration is the noise) on
   those regressors gives σ and δb. No truth rate, no magnetometer.
2. Judge on the second half: every movement window of 10 s is integrated from the truth's
   attitude at its start with the gyroscope less the bias, without and with σ removed
   ((gyr − b)/(1 + σ)), and with the trial's own 3×3 matrix A fitted to the truth's rate over
   the whole trial (research/fusion_gyro_drift.py: what a perfect calibration would give); the
   mean |heading error| at the windows' ends ÷ 10 s is the heading drift rate (°/s).

3. With --evaluate POISE: the gyroscope columns of the trial, corrected with the learnt matrix
   ((gyr − b)·A⁻ᵀ + b) and with the trial's own A, are written to a temporary copy (the input is
   never changed) and scored by `POISE evaluate --mode 6d|9d --json` with the defaults, against
   the trial as recorded: what the fusion would gain if the learnt correction were known from
   the start (optimistic for an online estimate, which has it only after the first half).

Run from the repository root: python3 research/fusion_gyro_scale.py [--window S] [--average S]
[--prior PCT] [--matrix] [--accelerometer] [--evaluate .build/release/poise] [TRIAL-PREFIX …]
"""
import argparse
import glob
import json
import math
import os
import tempfile

import numpy as np

from fusion_cv import evaluate
from fusion_gyro_drift import ROOT, fit, heading_inclination, integrate, load


def rotation_matrices(q):
    w, x, y, z = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1)], 1)


def integrate_all(q0, rates, dt):
    """Quaternions of the gyroscope integration from q0, one per sample (vectorised exponentials, sequential products)."""
    angle = np.linalg.norm(rates * dt[:, None], axis=1)
    half = angle / 2
    axis = np.where(angle[:, None] > 1e-15, rates * dt[:, None] / np.maximum(angle, 1e-300)[:, None], 0)
    steps = np.concatenate([np.cos(half)[:, None], np.sin(half)[:, None] * axis], 1)
    out = np.empty((len(rates) + 1, 4))
    out[0] = q = q0
    for k, s in enumerate(steps):
        w1, x1, y1, z1 = q
        w2, x2, y2, z2 = s
        q = (w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
             w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2)
        out[k + 1] = q
    return out


def movement_windows(t, q, edges, first, last, length):
    """Index ranges of consecutive windows of `length` s inside the movement phases between times first and last."""
    out = []
    for i in range(0, len(edges) - 1, 2):
        start, end = max(edges[i], first), min(edges[i + 1], last)
        while start + length <= end:
            i0, i1 = np.searchsorted(t, start), np.searchsorted(t, start + length)
            if np.isfinite(q[i0]).all() and np.isfinite(q[i1]).all():
                out.append((i0, i1))
            start += length
    return out


def learn(t, acc, gyr, q, bias, windows, average, prior, matrix, accelerometer, stride=5):
    """σ (3) and δb (3) by least squares of the horizontal specific force on the tilt regressors."""
    rows, rhs = [], []
    for i0, i1 in windows:
        dt = np.diff(t[i0:i1 + 1])
        rates = gyr[i0:i1] - bias
        quats = integrate_all(q[i0] / np.linalg.norm(q[i0]), rates, dt)[:-1]
        r = rotation_matrices(quats)
        if matrix:  # every element of A − I: Σ R[:, p] ω_j dt for element (p, j)
            phi = np.cumsum((r[:, :, :, None] * (rates * dt[:, None])[:, None, None, :]).reshape(len(r), 3, 9), 0)
        else:       # the scale factors: Σ R diag(ω) dt
            phi = np.cumsum(r * (rates * dt[:, None])[:, None, :], 0)
        psi = np.cumsum(r * dt[:, None, None], 0)                           # Σ R dt
        a_e = np.einsum("kij,kj->ki", r, acc[i0:i1]) / 9.81
        reg = np.concatenate([phi, psi], 2)
        if accelerometer:  # an accelerometer offset b_a (g, device frame) adds R·b_a: x and y rows of R, sign-matched below
            reg = np.concatenate([reg, np.stack([-r[:, 1], r[:, 0], np.zeros_like(r[:, 0])], 1)], 2)
        reg = reg.reshape(len(phi), -1)
        if average > 0:
            # the same boxcar of `average` seconds on both sides: linear acceleration averages to
            # Δv/T there while the tilt does not (VQF's earth-frame low-pass)
            n = max(1, int(round(average / np.median(dt))))
            kernel = np.ones(n) / n
            reg = np.apply_along_axis(lambda c: np.convolve(c, kernel, "valid"), 0, reg)
            a_e = np.apply_along_axis(lambda c: np.convolve(c, kernel, "valid"), 0, a_e)
            basis = np.ones((len(reg), 1))          # each window's own start tilt
        else:
            # integrated twice on both sides: linear acceleration becomes the displacement, which
            # stays bounded, while the tilt's share grows with t²; each window's own start tilt,
            # start velocity and start position are a quadratic in t
            step = np.median(dt)
            reg = np.cumsum(np.cumsum(reg, 0), 0) * step * step
            a_e = np.cumsum(np.cumsum(a_e, 0), 0) * step * step
            tau = np.arange(len(reg)) * step
            basis = np.stack([np.ones_like(tau), tau, tau * tau], 1)
        project = lambda m: m - basis @ np.linalg.lstsq(basis, m, rcond=None)[0]
        reg, a_e = project(reg).reshape(len(reg), 3, -1)[::stride], project(a_e)[::stride]
        rows += [reg[:, 1], -reg[:, 0]]
        rhs += [a_e[:, 0], a_e[:, 1]]
    h, y = np.concatenate(rows), np.concatenate(rhs)
    if prior > 0:  # σ ~ N(0, prior²), δb free; the noise variance from the unregularised fit's residual
        x0, _, _, _ = np.linalg.lstsq(h, y, rcond=None)
        noise = np.std(y - h @ x0)
        m = 9 if matrix else 3
        # rows within one averaging length are not independent: the information of the data is
        # that of one row per `average` seconds
        correlated = max(1.0, (average or 1.0) / (stride * np.median(np.diff(t))))
        h = np.concatenate([h, np.hstack([np.eye(m), np.zeros((m, h.shape[1] - m))]) * noise * math.sqrt(correlated) / prior])
        y = np.concatenate([y, np.zeros(m)])
    x, _, _, _ = np.linalg.lstsq(h, y, rcond=None)
    m = 9 if matrix else 3
    return (x[:9].reshape(3, 3) if matrix else np.diag(x[:3])), x[m:m + 3]


def drift(t, gyr, q, bias, windows, a):
    rates = (gyr - bias) @ np.linalg.inv(a).T
    errors = []
    for i0, i1 in windows:
        end = integrate(q[i0] / np.linalg.norm(q[i0]), rates[i0:i1 + 1], t[i0:i1 + 1])
        errors.append(abs(heading_inclination(end, q[i1] / np.linalg.norm(q[i1]))[0]))
    return float(np.mean(errors)) / (t[windows[0][1]] - t[windows[0][0]]) if errors else float("nan")


def corrected_totals(poise, name, bias, matrices):
    """6D and 9D total RMSE (°, defaults) of the trial as recorded and with each matrix's correction."""
    path = os.path.join(ROOT, name + ".csv")
    with open(path) as f:
        header = f.readline().strip()
    data = np.loadtxt(path, delimiter=",", skiprows=1)
    out = [[evaluate(poise, path, mode, {})[0] for mode in ("6d", "9d")]]
    with tempfile.TemporaryDirectory() as directory:
        for a in matrices:
            copy = data.copy()
            copy[:, 4:7] = (data[:, 4:7] - bias) @ np.linalg.inv(a).T + bias
            target = os.path.join(directory, name + ".csv")
            np.savetxt(target, copy, delimiter=",", header=header, comments="", fmt="%.10g")
            out.append([evaluate(poise, target, mode, {})[0] for mode in ("6d", "9d")])
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--window", type=float, default=10.0, help="learning window, s")
    parser.add_argument("--average", type=float, default=3.0, help="boxcar on both sides, s; 0: integrate both sides twice instead")
    parser.add_argument("--prior", type=float, default=0.3, help="σ's prior standard deviation, %% (0: none)")
    parser.add_argument("--matrix", action="store_true", help="learn all of A − I (scale and axes), not only its diagonal")
    parser.add_argument("--accelerometer", action="store_true", help="also fit an accelerometer offset (device frame)")
    parser.add_argument("--evaluate", metavar="POISE", help="also score the corrected trials with this poise binary")
    parser.add_argument("trials", nargs="*")
    args = parser.parse_args()
    summary = json.load(open(os.path.join(ROOT, "summary.json")))
    names = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(ROOT, "*.csv")))
    if args.trials:
        names = [n for n in names if n[:2] in args.trials]
    extra = " | 6D total (°): as recorded | learnt | own A | 9D: as recorded | learnt | own A" if args.evaluate else ""
    print("| trial | σ learnt on the first half (%%) | trial's own A: scale − 1 (%%) | "
          "second half heading drift (°/s): gyroscope − bias | σ removed | own A%s |" % extra)
    print("|---|---|---|---|---|---|" + ("---|" * 6 if args.evaluate else ""))
    totals = np.zeros(9 if args.evaluate else 3)
    for n in names:
        t, gyr, q, biases, edges = load(n, summary)
        acc = np.loadtxt(os.path.join(ROOT, n + ".csv"), delimiter=",", skiprows=1, usecols=(1, 2, 3))
        middle = (t[0] + t[-1]) / 2
        own = fit(t, gyr, q, biases[0])
        learnt, _ = learn(t, acc, gyr, q, biases[0], movement_windows(t, q, edges, t[0], middle, args.window),
                         args.average, args.prior / 100, args.matrix, args.accelerometer)
        sigma = np.diag(learnt)
        judge = movement_windows(t, q, edges, middle, t[-1], 10.0)
        rates = [drift(t, gyr, q, biases[0], judge, m) for m in (np.eye(3), np.eye(3) + learnt, own)]
        if args.evaluate:
            scores = np.array(corrected_totals(args.evaluate, n, biases[0], [np.eye(3) + learnt, own]))
            rates += list(scores[:, 0]) + list(scores[:, 1])
        totals += rates
        print("| %s | %s | %s | %s |" % (
            n[:2], " ".join("%+.2f" % v for v in 100 * sigma),
            " ".join("%+.2f" % v for v in 100 * (np.diag(own) - 1)), " | ".join("%.3f" % v for v in rates)))
    print("| mean | | | %s |" % " | ".join("%.3f" % v for v in totals / len(names)))


if __name__ == "__main__":
    main()
