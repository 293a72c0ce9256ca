#!/usr/bin/env python3
"""The rest test's thresholds scaled by the noise measured from the stream, judged where they
were not chosen.

The rest test (VQF's) compares every gyroscope and accelerometer sample with its 0.5-s low-pass:
the device is at rest while no deviation exceeds `restGyroscopeThreshold` (2 °/s) and
`restAccelerometerThreshold` (0.5 m/s², 0.0509858 g) for `restMinimumTime`. Those two are
constants of one sensor class; a sensor ten times quieter passes a slow turn as rest, a noisier
one is never at rest. The candidate rule here measures the noise from the stream itself and sets
each threshold to k times it:

- the noise: per sensor, the standard deviation of each axis about its mean, averaged over the
  axes, in the quietest 1-s window (lowest gyroscope variance; windows every 0.25 s) of the first
  10 s of the recording, what a running estimator can know 10 s into a stream (σ_g in °/s, σ_a
  in g; printed per file);
- the thresholds: `restGyroscopeThreshold` = m · 22 · σ_g and `restAccelerometerThreshold` =
  m · 9.5 · σ_a (22 and 9.5 are the fixed thresholds over BROAD's measured noise, ≈ 0.09 °/s and
  5.4 mg, so m = 1 keeps BROAD's thresholds and moves the others with their noise), m in M below;
  and the same for the gyroscope alone (the accelerometer's fixed). Passed to `poise evaluate`
  with `--set` per file; every other setting the binary's defaults.

Each candidate is scored on online 9D and 6D total RMSE and inclination (online 9D):

1. Leave one BROAD category out (../shared/data/broad: rotation 02–09, translation 10–18,
   tapping 24, vibration 26–27, stationary magnet 29–31, attached magnet 34). For each category
   the candidate with the lowest J = 9D/VQF 9D + 6D/VQF 6D + inclination/VQF inclination (means
   over the other categories' trials; VQF is `--preset vqf`'s settings) is chosen and scored on
   the held-out category's trials; the held-out scores are pooled over the 15 trials.
2. The simulated sensor matrix of research/fusion_sensor_matrix.py (57 cells, `poise simulate`,
   truth without lag): the means over the cells and per group.

The decision (as research/fusion_rest_bias.py): a candidate whose matrix mean is higher than the
defaults' in online 9D or online 6D is not eligible; among the eligible ones (the fixed
thresholds always are) the choice is made on BROAD by J, and its out-of-sample score is the
leave-one-category-out choice among them. The offline smoother is not scored here.
Writes research/fusion-rest-noise.md and prints it.

Run from the repository root (a release build; about 5 minutes on two cores with `--jobs 2`):
    swift build -c release --product poise
    python3 research/fusion_rest_noise.py [--poise .build/release/poise] [--jobs 2]
Scores are cached in .build/fusion_rest_noise.json (keyed by the binary's hash); the simulated
cells are those of research/fusion_9d_rules.py (.build/fusion_9d_cells/, written once). Needs
numpy (`pip install numpy`).
"""
import argparse
import hashlib
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fusion_cv import evaluate, mean  # noqa: E402
from fusion_9d_rules import CATEGORIES, VQF, broad_trials, cell_files, write_report  # noqa: E402
from fusion_sensor_matrix import MATRIX  # noqa: E402
from fusion_rest_bias import loco as rest_bias_loco  # noqa: E402

G = 9.80665
M = (0.5, 0.75, 1, 1.5, 2)
K_GYROSCOPE, K_ACCELEROMETER = 22.0, 9.5
FIXED = "fixed 2 °/s, 0.0509858 g (defaults)"
CANDIDATES = [FIXED] + ["both, m = %g" % m for m in M] + ["gyroscope only, m = %g" % m for m in M]
# estimate → (mode, column of [total, heading, inclination])
ESTIMATES = {"9D": ("9d", 0), "6D": ("6d", 0), "inclination": ("9d", 2)}


def stream_noise(path, window=1.0, span=10.0, step=0.25):
    """(σ_g °/s, σ_a g, window start s): the axes' mean standard deviation of the gyroscope and
    accelerometer in the quietest `window` of the first `span` seconds."""
    data = np.genfromtxt(path, delimiter=",", names=True, max_rows=20000)
    t = data["t_s"]
    gyr = np.stack([data["gyr_%s_radps" % a] for a in "xyz"], 1) * 180 / np.pi
    if "acc_x_g" in data.dtype.names:
        acc = np.stack([data["acc_%s_g" % a] for a in "xyz"], 1)
    else:
        acc = np.stack([data["acc_%s_mps2" % a] for a in "xyz"], 1) / G
    best = None
    start = t[0]
    while start + window <= t[0] + span:
        rows = (t >= start) & (t < start + window)
        if rows.sum() >= 10:
            g = gyr[rows].std(0).mean()
            if best is None or g < best[0]:
                best = (g, acc[rows].std(0).mean(), start - t[0])
        start += step
    return best


def settings(candidate, noise):
    if candidate == FIXED:
        return {}
    m = float(candidate.split("=")[1])
    out = {"restGyroscopeThreshold": "%.6g" % (m * K_GYROSCOPE * noise[0])}
    if candidate.startswith("both"):
        out["restAccelerometerThreshold"] = "%.6g" % (m * K_ACCELEROMETER * noise[1])
    return out


class NoiseScores:
    """Per file [total, heading, inclination] for (mode, candidate), cached by the binary's hash."""

    def __init__(self, poise, files, cache_path, jobs):
        self.poise, self.files, self.cache_path, self.jobs = poise, files, cache_path, jobs
        self.digest = hashlib.sha256(open(poise, "rb").read()).hexdigest()[:16]
        everything = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
        self.cache = everything.get(self.digest, {})
        self.noise = {f: stream_noise(f) for f in files}

    def key(self, mode, candidate, path):
        return "%s|%s|%s" % (mode, candidate, path)

    def compute(self, candidates, modes=("9d", "6d")):
        work = [(m, c, f) for c in candidates for m in modes for f in self.files if self.key(m, c, f) not in self.cache]
        run = lambda w: evaluate(self.poise, w[2], w[0], w[1] if isinstance(w[1], dict) else settings(w[1], self.noise[w[2]]))  # noqa: E731
        with ThreadPoolExecutor(self.jobs) as pool:
            for (m, c, f), r in zip(work, pool.map(run, [(m, c if c != "VQF" else VQF, f) for m, c, f in work])):
                self.cache[self.key(m, c, f)] = r
                if len(self.cache) % 50 == 0:
                    self.save()
        self.save()

    def save(self):
        os.makedirs(os.path.dirname(self.cache_path) or ".", exist_ok=True)
        tmp = self.cache_path + ".tmp"
        json.dump({self.digest: self.cache}, open(tmp, "w"))
        os.replace(tmp, self.cache_path)

    def estimate(self, name, candidate, indices):
        mode, column = ESTIMATES[name]
        return [self.cache[self.key(mode, candidate, self.files[i])][column] for i in indices]


def objective(scores, c, indices):
    return sum(mean(scores.estimate(e, c, indices)) / mean(scores.estimate(e, "VQF", indices))
               for e in ("9D", "6D", "inclination"))


def loco(scores, trials, pool):
    """fusion_rest_bias's leave-one-category-out choice by J among `pool` (candidate labels)."""
    return rest_bias_loco(scores, trials, pool, lambda c, idx: objective(scores, c, idx), ESTIMATES, lambda c: c)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=os.path.join(".build", "release", "poise"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=os.path.join("research", "fusion-rest-noise.md"))
    options = parser.parse_args()
    trials = broad_trials()
    names = [os.path.basename(t)[:2] for t in trials]
    everyone = range(len(trials))
    cache = os.path.join(".build", "fusion_rest_noise.json")
    broad = NoiseScores(options.poise, trials, cache, options.jobs)
    broad.compute(CANDIDATES + ["VQF"])
    cells = cell_files(options.poise, os.path.join(".build", "fusion_9d_cells"), options.jobs)
    allcells = range(len(cells))
    matrix = NoiseScores(options.poise, [c[4] for c in cells], cache, options.jobs)
    matrix.cache = broad.cache
    matrix.compute(CANDIDATES)

    text = ["# The rest thresholds scaled by the stream's noise, out of sample", "",
            "Produced by `python3 research/fusion_rest_noise.py` (its docstring gives the protocol). Total and "
            "inclination RMSE in degrees (BROAD metric, rows with movement). Every candidate runs with the "
            "defaults' other settings; m scales the thresholds with the noise measured in the quietest second of the first "
            "10 s.", "",
            "## The noise measured from the stream", "",
            "| recording | σ gyroscope (°/s) | σ accelerometer (mg) | quietest second starts at (s) | thresholds at m = 1 (°/s, mg) |",
            "|---|---|---|---|---|"]
    for f, n in list(broad.noise.items()) + [(c[4], matrix.noise[c[4]]) for c in cells if c[2] == "rotations-with-breaks"]:
        label = os.path.basename(f)[:-4]
        text.append("| %s | %.4f | %.3f | %.2f | %.3f, %.2f |" % (label, n[0], 1000 * n[1], n[2], K_GYROSCOPE * n[0], 1000 * K_ACCELEROMETER * n[1]))
    text += ["", "(Matrix rows: the rotations-with-breaks cell of each sensor; the fixed thresholds are 2 °/s and "
             "50.99 mg.)", "", "## BROAD (15 trials)", "",
             "| candidate | 9D | 6D | inclination | J (all 15) | " + " | ".join("%s 9D / 6D" % c for c in CATEGORIES) + " |",
             "|---" * (len(CATEGORIES) + 5) + "|"]
    per_category = {c: [i for i in everyone if names[i] in m] for c, m in CATEGORIES.items()}
    for c in ["VQF"] + CANDIDATES:
        text.append("| %s | %s | %.4f | %s |" % (
            "VQF (`--preset vqf` settings)" if c == "VQF" else c,
            " | ".join("%.3f" % mean(broad.estimate(e, c, everyone)) for e in ESTIMATES), objective(broad, c, everyone),
            " | ".join("%.2f / %.2f" % tuple(mean([broad.estimate(e, c, [i])[0] for i in idx]) for e in ("9D", "6D"))
                       for idx in per_category.values())))
    held, picks = loco(broad, trials, CANDIDATES)
    text += ["", "Chosen by J without the held-out category (all candidates): %s; held out, pooled: 9D %.3f, 6D %.3f, "
             "inclination %.3f (the fixed thresholds: %s)." % (
                 "; ".join("%s → %s" % kv for kv in picks.items()), *(mean(held[e]) for e in ESTIMATES),
                 " / ".join("%.3f" % mean(broad.estimate(e, FIXED, everyone)) for e in ESTIMATES)), "",
             "## Simulated sensor matrix (57 cells)", "",
             "Mean over the cells; in parentheses, the cells lower than the fixed thresholds.", "",
             "| candidate | 9D | 6D | inclination | " + " | ".join("%s 9D / 6D" % g for g in MATRIX) + " |",
             "|---" * (len(MATRIX) + 4) + "|"]
    first = {e: matrix.estimate(e, FIXED, allcells) for e in ESTIMATES}
    for c in CANDIDATES:
        v = {e: matrix.estimate(e, c, allcells) for e in ESTIMATES}
        text.append("| %s | %s | %s |" % (
            c, " | ".join("%.3f (%d)" % (mean(v[e]), sum(a < b - 1e-9 for a, b in zip(v[e], first[e]))) for e in ESTIMATES),
            " | ".join("%.2f / %.2f" % tuple(mean([v[e][i] for i in allcells if cells[i][0] == g]) for e in ("9D", "6D"))
                       for g in MATRIX)))
    eligible = [c for c in CANDIDATES
                if all(mean(matrix.estimate(e, c, allcells)) <= mean(first[e]) + 1e-12 for e in ("9D", "6D"))]
    held, picks = loco(broad, trials, eligible)
    chosen = min(eligible, key=lambda c: objective(broad, c, everyone))
    text += ["", "## The decision", "",
             "Candidates no worse than the fixed thresholds on the matrix's 9D and 6D means: %s. Chosen among them "
             "without the held-out category: %s; on all 15 trials: **%s**." % (
                 ", ".join(eligible), "; ".join("%s → %s" % kv for kv in picks.items()), chosen), "",
             "| BROAD, 15 trials | 9D | 6D | inclination |", "|---|---|---|---|",
             "| held out (chosen without the category) | %s |" % " | ".join("%.3f" % mean(held[e]) for e in ESTIMATES),
             "| the fixed thresholds | %s |" % " | ".join("%.3f" % mean(broad.estimate(e, FIXED, everyone)) for e in ESTIMATES),
             "| VQF | %s |" % " | ".join("%.3f" % mean(broad.estimate(e, "VQF", everyone)) for e in ESTIMATES), ""]
    write_report(options.out, text)


if __name__ == "__main__":
    main()
