#!/usr/bin/env python3
"""The magnetometer offset estimation's small offsets (`magneticSmallOffsetMaximumResidual`),
judged where they were not chosen.

The online estimator fits a sphere to the recent magnetometer readings
(`magneticOffsetEstimation`) and subtracts its centre h from the readings when the fit holds
(coverage, residual, radius). An offset smaller than `magneticNormThreshold` × the radius (10 %)
passes the disturbance tests whether it is subtracted or not; the residual hard iron of a
calibrated magnetometer is such an offset, and it turns the heading by up to
asin(|h| / horizontal field) (2 µT of a 20-µT horizontal field: 6°). The setting subtracts a
smaller offset only when its readings lie on the sphere within the given relative misfit; 0
leaves every smaller offset to the disturbance tests (the rule off). The offline smoother's
passes use the same estimator; its span search judges the readings with the passes' large
offsets only (`DeviceMotionSmoother.spanOffset`).

Each candidate value is scored on 9D total RMSE, online (`poise evaluate --mode 9d`) and offline
(`--offline`), with every other setting the binary's defaults:

1. Leave one BROAD category out (../shared/data/broad; the categories of
   research/fusion_9d_rules.py). For each category the candidate with the lowest
   J = online mean / the rule off's + offline mean / the rule off's over the other categories'
   trials is chosen and scored on the held-out category's trials; the held-out scores are
   pooled over the 15 trials. Per category, each candidate's means against the rule off's.
2. The simulated sensor matrix of research/fusion_sensor_matrix.py (57 cells, `poise simulate`,
   truth without lag): means, and the cells lower and higher than with the rule off.

The decision (docs/fusion.md, "How defaults are chosen"): a candidate whose matrix mean, online or
offline, is higher than the rule off's is not eligible; nor is one with a higher mean than the
rule off's in any BROAD category offline (the smoother's rules hold category by category).
Among the eligible ones (the rule off always is) the held-out choice decides (candidates equal
on BROAD: the lower matrix means, online and offline relative to the rule off's). Writes
research/fusion-small-offset.md and prints it.

Run from the repository root (a release build; about 5 minutes on two cores with `--jobs 2`):
    cd Benchmarks && swift build -c release --product poise && cd ..
    python3 research/fusion_small_offset.py --poise Benchmarks/.build/release/poise [--jobs 2]
The simulated cells are those of research/fusion_9d_rules.py (.build/fusion_9d_cells/, written
once). Needs numpy (`pip install numpy`).
"""
import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fusion_9d_rules import CATEGORIES, broad_trials, cell_files, write_report  # noqa: E402

CANDIDATES = [0, 0.005, 0.01, 0.0125, 0.015, 0.0175, 0.02]
MODES = {"online": ["--mode", "9d"], "offline": ["--mode", "9d", "--offline"]}


def scores(poise, paths, jobs):
    """Total RMSE (°) per mode, candidate and file: {mode: array (candidates × files)}."""
    def run(job):
        mode, value, path = job
        out = subprocess.run([poise, "evaluate", path, "--json", "--set", "magneticSmallOffsetMaximumResidual=%r" % value]
                             + MODES[mode], check=True, capture_output=True, text=True).stdout
        return json.loads(out)["total_rmse_deg"]
    jobs_list = [(m, v, p) for m in MODES for v in CANDIDATES for p in paths]
    with ThreadPoolExecutor(jobs) as pool:
        flat = list(pool.map(run, jobs_list))
    n = len(paths)
    return {m: np.array(flat[k * len(CANDIDATES) * n:(k + 1) * len(CANDIDATES) * n]).reshape(len(CANDIDATES), n)
            for k, m in enumerate(MODES)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=os.path.join(".build", "release", "poise"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=os.path.join("research", "fusion-small-offset.md"))
    options = parser.parse_args()
    trials = broad_trials()
    names = [os.path.basename(t)[:2] for t in trials]
    cells = cell_files(options.poise, os.path.join(".build", "fusion_9d_cells"), options.jobs)
    broad = scores(options.poise, trials, options.jobs)
    matrix = scores(options.poise, [c[4] for c in cells], options.jobs)
    label = ["off (0)" if v == 0 else "%g" % v for v in CANDIDATES]

    def category_means(a, k):
        return {c: a[k, [i for i, n in enumerate(names) if n in members]].mean() for c, members in CATEGORIES.items()}

    higher_offline = []
    for k in range(len(CANDIDATES)):
        on, off = category_means(broad["offline"], k), category_means(broad["offline"], 0)
        higher_offline.append([c for c in CATEGORIES if on[c] > off[c] + 1e-9])
    eligible = [k for k in range(len(CANDIDATES))
                if k == 0 or (matrix["online"][k].mean() <= matrix["online"][0].mean()
                              and matrix["offline"][k].mean() <= matrix["offline"][0].mean() and not higher_offline[k])]

    def matrix_j(k):
        return sum(matrix[m][k].mean() / matrix[m][0].mean() for m in MODES)

    def j(k, idx):
        return sum(broad[m][k, idx].mean() / broad[m][0, idx].mean() for m in MODES)

    held = {m: np.zeros(len(trials)) for m in MODES}
    picks = {}
    for category, members in CATEGORIES.items():
        test = [i for i, n in enumerate(names) if n in members]
        train = [i for i, n in enumerate(names) if n not in members]
        # Equal on BROAD (to 1e-9), the lower matrix (online and offline, relative) decides.
        choice = min(eligible, key=lambda k: (round(j(k, train), 9), matrix_j(k), k))
        picks[category] = label[choice]
        for m in MODES:
            held[m][test] = broad[m][choice, test]

    lines = ["# The magnetometer offset estimation's small offsets", "",
             "Produced by `python3 research/fusion_small_offset.py` (its docstring gives the protocol). "
             "9D total RMSE in degrees; each value of `magneticSmallOffsetMaximumResidual`, every other setting the defaults.", "",
             "## BROAD, 15 trials, per category (online / offline)", "",
             "| candidate | all | " + " | ".join(CATEGORIES) + " | offline categories above the rule off |",
             "|---" * (3 + len(CATEGORIES)) + "|"]
    for k in range(len(CANDIDATES)):
        on, off = category_means(broad["online"], k), category_means(broad["offline"], k)
        lines.append("| %s | %.3f / %.3f | %s | %s |" % (
            label[k], broad["online"][k].mean(), broad["offline"][k].mean(),
            " | ".join("%.3f / %.3f" % (on[c], off[c]) for c in CATEGORIES), ", ".join(higher_offline[k]) or "none"))
    lines += ["", "## Simulated sensor matrix, 57 cells", "",
              "| candidate | online mean | lower / higher than off | offline mean | lower / higher than off | eligible |",
              "|---|---|---|---|---|---|"]
    for k in range(len(CANDIDATES)):
        row = []
        for m in MODES:
            a = matrix[m]
            row += ["%.3f" % a[k].mean(), "%d / %d" % ((a[k] < a[0] - 1e-9).sum(), (a[k] > a[0] + 1e-9).sum())]
        lines.append("| %s | %s | %s |" % (label[k], " | ".join(row), "yes" if k in eligible else "no"))
    lines += ["", "Chosen among the eligible without the held-out category (by J): " +
              "; ".join("%s → %s" % (c, p) for c, p in picks.items()) + ".", "",
              "| BROAD, 15 trials | online 9D | offline 9D |", "|---|---|---|",
              "| held out (chosen without the category) | %.3f | %.3f |" % (held["online"].mean(), held["offline"].mean()),
              "| the rule off | %.3f | %.3f |" % (broad["online"][0].mean(), broad["offline"][0].mean())]
    for k in eligible[1:]:
        lines.append("| %s | %.3f | %.3f |" % (label[k], broad["online"][k].mean(), broad["offline"][k].mean()))
    lines += ["", "Per BROAD trial (online / offline, %s):" % " | ".join(label), ""]
    for i, n in enumerate(names):
        lines.append("- %s: %s" % (n, " | ".join("%.2f / %.2f" % (broad["online"][k, i], broad["offline"][k, i])
                                               for k in range(len(CANDIDATES)))))
    lines += ["", "Matrix cells that change (online / offline, the rule off → each candidate):", ""]
    for c, cell in enumerate(cells):
        if any(abs(matrix[m][k, c] - matrix[m][0, c]) > 0.005 for m in MODES for k in range(len(CANDIDATES))):
            lines.append("- %s, %s, %s: %s" % (cell[0], cell[1], cell[2], " | ".join(
                "%.2f / %.2f" % (matrix["online"][k, c], matrix["offline"][k, c]) for k in range(len(CANDIDATES)))))
    write_report(options.out, lines)


if __name__ == "__main__":
    main()
