#!/usr/bin/env python3
"""Gyroscope self-calibration from a whole recording, without truth: the independent reference
for `GyroscopeSelfCalibration` (Sources/Poise/Fusion/GyroscopeSelfCalibration.swift).

Model: the gyroscope reads g = A·ω + b (rad/s, device frame, ω the true rate). The fit finds
C ≈ A⁻¹ such that ω̂ = C·(g − b) integrated between two quasi-still moments turns the
accelerometer's up direction at the first into the one measured at the second:

- rest: consecutive 1-s windows whose gyroscope norm stays below 0.015 rad/s; b is their mean
  rate and the still magnitude their mean |a| (no rest: no fit);
- anchors: consecutive 0.1-s windows (whole samples at the mean step) whose gyroscope norm stays
  below 0.5 rad/s, whose rate changes by at most 0.05 rad/s from the first to the last sample
  and whose mean specific force is within 0.4 % of the still magnitude; the window's mean
  specific force, normalised, is up at its centre sample;
- each anchor is paired with the anchors 1, 4, 16 and 64 later; a pair (i, j) gives the residual
  r = R_ijᵀ·u_i − u_j, R_ij the integrated rotation (each sample's rate over the step before it,
  exact exponential);
- 4 Gauss–Newton steps on the 9 entries of C, the Jacobian from first-order perturbations of the
  integrated rotation (δφ in the frame of anchor i = Σ_k R_ik·δω_k·Δt_k), Huber weights
  (threshold 3× the median residual norm); a step moves only along the eigenvectors of the
  normal matrix whose eigenvalue is at least (weighted rms residual / 0.001)²;
- the fit is refused (C = I) when a diagonal entry of C − I exceeds 2 % or an off-diagonal one
  3 mrad.

This script also compares, on the BROAD trials in ../shared/data/broad (CC BY 4.0, Laidig et
al., Data 6(7) 2021, doi:10.3390/data6070072), the heading drift of the raw gyroscope, the
self-calibrated one and the trial's own truth-fitted A (research/fusion_gyro_drift.py), and with
--golden writes the fixture of GyroscopeSelfCalibrationTests.

Run from the repository root (numpy; about 5 s per trial):
    python3 Tests/Goldens/gyro_self_calibration.py [TRIAL-PREFIX …]   the table of research/fusion-tuning.md
    python3 Tests/Goldens/gyro_self_calibration.py --golden            the test fixture
    python3 Tests/Goldens/gyro_self_calibration.py --write DIR         corrected copies of the trials
"""
import glob
import json
import math
import os
import sys

import numpy as np

WINDOW = 0.1                # s, anchor window (rounded to whole samples at the mean step)
MAX_RATE = 0.5              # rad/s, gyroscope norm within an anchor window
MAX_RATE_CHANGE = 0.05      # rad/s, gyroscope change across an anchor window (angular acceleration)
MAGNITUDE = 0.004           # largest relative deviation of |mean a| from the still magnitude
REST_WINDOW = 1.0           # s, rest windows (bias and still magnitude)
REST_RATE = 0.015           # rad/s, gyroscope norm within a rest window
STEPS = (1, 4, 16, 64)      # anchors paired with the anchors this many later
ITERATIONS = 4
PRECISION = 1e-3            # a direction of C − I is solved when the residuals determine it to this
SCALE_BOUND = 0.02          # C − I diagonal beyond this: the fit is refused (identity)
AXIS_BOUND = 0.003          # C − I off-diagonal beyond this: the fit is refused (identity)


def skew(v):
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


def rotations(rates, times):
    """R_0k (device at k → device at 0) for every sample, each rate over the step before it."""
    n = len(rates)
    out = np.empty((n, 3, 3))
    r = np.eye(3)
    out[0] = r
    for k in range(1, n):
        v = rates[k] * (times[k] - times[k - 1])
        angle = math.sqrt(v @ v)
        if angle > 0:
            a = v / angle
            s, c = math.sin(angle), math.cos(angle)
            k_ = skew(a)
            r = r @ (np.eye(3) + s * k_ + (1 - c) * (k_ @ k_))
        out[k] = r
    return out


def window_length(t, seconds):
    return max(1, int(round(seconds * (len(t) - 1) / (t[-1] - t[0]))))


def rest_mask(t, gyr):
    """Samples in consecutive windows of REST_WINDOW whose gyroscope norm stays below REST_RATE."""
    m = window_length(t, REST_WINDOW)
    mask = np.zeros(len(t), bool)
    norms = np.linalg.norm(gyr, axis=1)
    for start in range(0, len(t) - m + 1, m):
        if norms[start:start + m].max() < REST_RATE:
            mask[start:start + m] = True
    return mask


def anchors(t, acc, gyr, magnitude):
    """Centre sample indices and unit up vectors (normalised mean specific force) of the anchor windows."""
    m = window_length(t, WINDOW)
    idx, ups = [], []
    for start in range(0, len(t) - m + 1, m):
        sl = slice(start, start + m)
        if not np.max(np.linalg.norm(gyr[sl], axis=1)) < MAX_RATE:
            continue
        if not np.linalg.norm(gyr[start + m - 1] - gyr[start]) <= MAX_RATE_CHANGE:
            continue
        a = acc[sl].mean(0)
        if not abs(np.linalg.norm(a) / magnitude - 1) <= MAGNITUDE:
            continue
        idx.append(start + m // 2)
        ups.append(a / np.linalg.norm(a))
    return np.array(idx, int), np.array(ups).reshape(-1, 3)


def pairs_of(idx, steps=STEPS):
    """Anchor pairs: each anchor with the anchors `steps` later (sample indices, anchor indices)."""
    n = len(idx)
    i = np.concatenate([np.arange(n - s) for s in steps if s < n] or [np.zeros(0, int)])
    j = np.concatenate([np.arange(s, n) for s in steps if s < n] or [np.zeros(0, int)])
    return idx[i], idx[j], i, j


def fit(t, acc, gyr, iterations=ITERATIONS):
    """A dict: C (3×3), bias b (rad/s), whether the fit was accepted, anchors, pairs, the weighted
    rms residual (rad) before and after, the solved directions of the last step."""
    rest = rest_mask(t, gyr)
    out = {"C": np.eye(3), "b": np.zeros(3), "accepted": False, "anchors": 0, "pairs": 0,
           "rms": [], "solved": 0}
    if not rest.any():
        return out
    b = gyr[rest].mean(0)
    out["b"] = b
    magnitude = np.linalg.norm(acc[rest], axis=1).mean()
    idx, ups = anchors(t, acc, gyr, magnitude)
    i, j, ai, aj = pairs_of(idx)
    out["anchors"], out["pairs"] = len(idx), len(i)
    if len(i) == 0:
        return out
    dts = np.diff(t, prepend=t[0])
    u = gyr - b
    e = np.zeros((3, 3))
    ux = np.array([skew(v) for v in ups[ai]])
    for _ in range(iterations):
        r0k = rotations(u @ (np.eye(3) + e).T, t)
        # S_k = Σ_{l≤k} R_0l ⊗ (g_l − b)ᵀ Δt_l (3 × 9): δφ over (i, j] in frame 0 per entry of C.
        s = np.cumsum(np.einsum("kia,kb->kiab", r0k, u).reshape(-1, 3, 9) * dts[:, None, None], 0)
        ri = r0k[i]
        rij = np.einsum("kai,kaj->kij", ri, r0k[j])         # R_ij = R_0iᵀ R_0j
        res = np.einsum("kai,ka->ki", rij, ups[ai]) - ups[aj]  # R_ijᵀ u_i − u_j
        dphi = np.einsum("kai,kap->kip", ri, s[j] - s[i])     # δφ in frame i per entry of C
        # R_ijᵀ exp(−[δφ]) u_i ≈ R_ijᵀ u_i + R_ijᵀ [u_i]× δφ
        jac = np.einsum("kai,kab,kbp->kip", rij, ux, dphi)
        norms = np.linalg.norm(res, axis=1)
        delta = 3 * np.median(norms)
        weights = np.where(norms <= delta, 1.0, delta / np.maximum(norms, 1e-300))
        jw = jac * weights[:, None, None]
        normal = np.einsum("kip,kiq->pq", jw, jac)
        rhs = -np.einsum("kip,ki->p", jw, res)
        rms = math.sqrt(np.sum(weights * norms ** 2) / np.sum(weights))
        out["rms"].append(rms)
        if not rms > 0:
            break
        eig, vec = np.linalg.eigh(normal)
        keep = eig >= (rms / PRECISION) ** 2
        out["solved"] = int(keep.sum())
        e = e + (vec[:, keep] @ ((vec[:, keep].T @ rhs) / eig[keep])).reshape(3, 3)
    off = e - np.diag(np.diag(e))
    if np.all(np.abs(np.diag(e)) <= SCALE_BOUND) and np.all(np.abs(off) <= AXIS_BOUND):
        out["C"], out["accepted"] = np.eye(3) + e, True
    out["fitted"] = np.eye(3) + e
    return out


def write_corrected(source, target, c, b):
    """A copy of a BROAD CSV with its gyroscope columns replaced by C·(g − b) + b."""
    with open(source) as f, open(target, "w") as out:
        out.write(f.readline())
        for line in f:
            cells = line.rstrip("\n").split(",")
            g = np.array([float(v) for v in cells[4:7]])
            cells[4:7] = ["%.9g" % v for v in c @ (g - b) + b]
            out.write(",".join(cells) + "\n")


GOLDEN = os.path.join("Tests", "PoiseTests", "Fixtures", "gyro_self_calibration_broad.csv")
GOLDEN_TRIALS = ("02", "04", "34")


def golden(root, names):
    """Writes the fixture: the fit on GOLDEN_TRIALS (accepted, counts, the fitted C row by row, b)."""
    with open(GOLDEN, "w") as out:
        out.write("# Tests/Goldens/gyro_self_calibration.py --golden: the gyroscope self-calibration of BROAD trials\n")
        out.write("# (CC BY 4.0, Laidig et al. 2021; read from ../shared, not copied), fitted with numpy.\n")
        out.write("trial,accepted,anchors,pairs,solved,c00,c01,c02,c10,c11,c12,c20,c21,c22,bx,by,bz\n")
        for n in names:
            if n[:2] not in GOLDEN_TRIALS:
                continue
            a = np.loadtxt(os.path.join(root, n + ".csv"), delimiter=",", skiprows=1, usecols=range(7))
            r = fit(a[:, 0], a[:, 1:4], a[:, 4:7])
            out.write(",".join([n, str(int(r["accepted"])), str(r["anchors"]), str(r["pairs"]), str(r["solved"])]
                               + ["%.17g" % v for v in r["fitted"].reshape(9)] + ["%.17g" % v for v in r["b"]]) + "\n")


def main():
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "research"))  # the trial loader of the drift study
    import fusion_gyro_drift as drift
    root = drift.ROOT
    summary = json.load(open(os.path.join(root, "summary.json")))
    names = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(root, "*.csv")))
    args = [a for a in sys.argv[1:] if not a.startswith("-") and a[:2].isdigit()]
    if args:
        names = [n for n in names if n[:2] in args]
    if "--golden" in sys.argv:
        golden(root, names)
        return
    print("| trial | anchors / pairs, rms residual (mrad) first → last iteration, solved directions | heading drift raw (°/s) | self-calibrated | own truth A | C − I diagonal (%) | C − I off-diagonal (mrad) | b (°/s) |")
    print("|---|---|---|---|---|---|---|---|")
    for n in names:
        a = np.loadtxt(os.path.join(root, n + ".csv"), delimiter=",", skiprows=1, usecols=range(14))
        t, acc, gyr, q = a[:, 0], a[:, 1:4], a[:, 4:7], a[:, 10:14]
        _, _, _, biases, edges = drift.load(n, summary)
        r = fit(t, acc, gyr)
        c, b = r["C"], r["b"]
        own = drift.fit(t, gyr, q, biases[0])
        raw = drift.rate_of(drift.phases(t, gyr, q, biases[0], edges, np.eye(3)))
        cal = drift.rate_of(drift.phases(t, gyr, q, biases[0], edges, np.linalg.inv(c)))
        tru = drift.rate_of(drift.phases(t, gyr, q, biases[0], edges, own))
        e = r["fitted"] - np.eye(3) if "fitted" in r else np.zeros((3, 3))
        print("| %s | %s | %.3f | %.3f | %.3f | %s | %s | %s |" % (
            n[:2], "%d / %d, %.2f → %.2f, %d%s" % (r["anchors"], r["pairs"], 1000 * r["rms"][0], 1000 * r["rms"][-1], r["solved"], "" if r["accepted"] else ", refused"), raw, cal, tru, " ".join("%+.2f" % v for v in 100 * np.diag(e)),
            " ".join("%+.1f" % v for v in 1000 * e[[0, 0, 1, 1, 2, 2], [1, 2, 0, 2, 0, 1]]),
            " ".join("%+.3f" % v for v in np.degrees(b))), flush=True)
        if "--write" in sys.argv:
            out = sys.argv[sys.argv.index("--write") + 1]
            write_corrected(os.path.join(root, n + ".csv"), os.path.join(out, n + ".csv"), c, b)


if __name__ == "__main__":
    main()
