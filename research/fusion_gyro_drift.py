#!/usr/bin/env python3
"""Where the 6D heading drift of the BROAD trials comes from: the gyroscope against the optical
truth's angular rate.

For each BROAD trial in ../shared/data/broad (CC BY 4.0, Laidig et al., Data 6(7) 2021,
doi:10.3390/data6070072):
- the gyroscope bias in each still segment of summary.json (mean rate, °/s) and its spread;
- each movement phase integrated from the truth's attitude at its start with the gyroscope less
  the first still segment's bias (exact quaternion exponential per sample; no fusion), and the
  heading and inclination error against the truth at its end: the drift a fusion without
  corrections would have;
- a 3×3 gyroscope matrix A (gyro − bias = A·ω) fitted by least squares to the truth's body rate
  (central differences of the truth quaternions, both smoothed over 0.1 s, one sample of lag,
  samples turning faster than 0.1 rad/s): scale factors (diagonal − 1), the symmetric
  off-diagonal part (axis non-orthogonality) and the antisymmetric part (a rotation between the
  gyroscope and the truth's body frame, which does not make the heading drift);
- the movement phases integrated again with A⁻¹ applied: with the trial's own A (fitted to its
  truth: what a perfect calibration of the trial would give) and with the mean A of the other
  trials (whether one calibration carries over).

Run from the repository root: python3 research/fusion_gyro_drift.py [TRIAL-PREFIX …] (numpy only).
"""
import glob
import json
import math
import os
import sys

import numpy as np

ROOT = os.path.join("..", "shared", "data", "broad")


def qmul(a, b):
    w1, x1, y1, z1 = a[..., 0], a[..., 1], a[..., 2], a[..., 3]
    w2, x2, y2, z2 = b[..., 0], b[..., 1], b[..., 2], b[..., 3]
    return np.stack([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2], -1)


def conj(q):
    return q * np.array([1, -1, -1, -1])


def heading_inclination(estimate, truth):
    """BROAD's split of truth ⊗ estimate⁻¹ (earth frame) into heading and inclination, degrees."""
    d = qmul(truth, conj(estimate))
    w, z = d[0], d[3]
    return math.degrees(2 * math.atan2(z, w)), math.degrees(2 * math.acos(min(1.0, math.sqrt(w * w + z * z))))


def integrate(q, rates, times):
    for k in range(len(rates) - 1):
        v = rates[k] * (times[k + 1] - times[k])
        angle = float(np.linalg.norm(v))
        if angle > 1e-15:
            q = qmul(q, np.concatenate([[math.cos(angle / 2)], math.sin(angle / 2) * v / angle]))
    return q


def smooth(x, n):
    kernel = np.ones(n) / n
    return np.stack([np.convolve(x[:, i], kernel, "same") for i in range(x.shape[1])], 1)


def truth_rate(t, q):
    q = q / np.linalg.norm(q, axis=1, keepdims=True)
    flips = np.sign(np.sum(q[1:] * q[:-1], 1))
    flips[~np.isfinite(flips)] = 1
    q = q.copy()
    q[1:] *= np.cumprod(np.where(flips < 0, -1, 1))[:, None]
    rate = np.full((len(t), 3), np.nan)
    rate[1:-1] = qmul(conj(q[:-2]), q[2:])[:, 1:4] / np.median(np.diff(t))
    return rate


def load(name, summary):
    a = np.loadtxt(os.path.join(ROOT, name + ".csv"), delimiter=",", skiprows=1, usecols=range(14))
    t, gyr, q = a[:, 0], a[:, 4:7], a[:, 10:14]
    still = summary[name]["heuristic_still_segments_s"]
    biases = [gyr[(t > s + 1) & (t < e - 1)].mean(0) for s, e in still if e - s > 3]
    return t, gyr, q, biases, summary[name]["movement_edges_s"]


def fit(t, gyr, q, bias):
    n = max(1, int(round(0.1 / np.median(np.diff(t)))))
    w = truth_rate(t, q)
    valid = np.convolve(np.isfinite(w).all(1).astype(float), np.ones(n) / n, "same") > 0.999
    ws, gs = smooth(np.nan_to_num(w), n), np.roll(smooth(gyr - bias, n), -1, 0)
    use = valid & (np.linalg.norm(ws, axis=1) > 0.1)
    use[:n] = use[-n:] = False
    a, _, _, _ = np.linalg.lstsq(ws[use], gs[use], rcond=None)
    return a.T


def phases(t, gyr, q, bias, edges, a):
    """Heading and inclination error (°) at the end of each movement phase, integrated with A⁻¹(gyr − bias)."""
    rates = (gyr - bias) @ np.linalg.inv(a).T
    out = []
    for i in range(0, len(edges) - 1, 2):
        i0, i1 = np.searchsorted(t, edges[i] - 0.5), np.searchsorted(t, edges[i + 1] + 0.5)
        while not np.isfinite(q[i0]).all():
            i0 += 1
        while not np.isfinite(q[i1]).all():
            i1 -= 1
        start = q[i0] / np.linalg.norm(q[i0])
        end = integrate(start, rates[i0:i1 + 1], t[i0:i1 + 1])
        out.append((t[i1] - t[i0],) + heading_inclination(end, q[i1] / np.linalg.norm(q[i1])))
    return out


def rate_of(rows):
    """Mean |heading error| / duration over the phases, °/s."""
    return sum(abs(h) for _, h, _ in rows) / sum(d for d, _, _ in rows)


def main():
    summary = json.load(open(os.path.join(ROOT, "summary.json")))
    names = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(ROOT, "*.csv")))
    if len(sys.argv) > 1:
        names = [n for n in names if n[:2] in sys.argv[1:]]
    data = {n: load(n, summary) for n in names}
    fits = {n: fit(d[0], d[1], d[2], d[3][0]) for n, d in data.items()}
    print("| trial | bias spread over still segments (°/s) | heading drift, gyroscope − bias (°/s) | "
          "with the trial's own A | with the other trials' mean A | scale factors − 1 (%) | "
          "non-orthogonality (mrad) | frame rotation (mrad) |")
    print("|---|---|---|---|---|---|---|---|")
    for n, (t, gyr, q, biases, edges) in data.items():
        a = fits[n]
        others = np.mean([fits[m] for m in names if m != n], 0) if len(names) > 1 else np.eye(3)
        spread = np.degrees(np.max(np.ptp(np.array(biases), 0))) if len(biases) > 1 else float("nan")
        raw, own, mean = (rate_of(phases(t, gyr, q, biases[0], edges, m)) for m in (np.eye(3), a, others))
        sym, anti = (a + a.T) / 2 - np.eye(3), (a - a.T) / 2
        print("| %s | %.3f | %.3f | %.3f | %.3f | %s | %s | %s |" % (
            n[:2], spread, raw, own, mean, " ".join("%+.2f" % v for v in 100 * np.diag(sym)),
            " ".join("%+.1f" % v for v in 1000 * sym[[0, 0, 1], [1, 2, 2]]),
            " ".join("%+.1f" % v for v in 1000 * anti[[0, 0, 1], [1, 2, 2]])))


if __name__ == "__main__":
    main()
