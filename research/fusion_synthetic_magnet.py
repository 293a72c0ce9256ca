#!/usr/bin/env python3
"""The magnetometer offset estimation on magnets it was not designed on: a magnet fixed to the
device, added to every BROAD trial.

For each BROAD trial in ../shared/data/broad (CC BY 4.0, Laidig et al., Data 6(7) 2021,
doi:10.3390/data6070072), a copy in a temporary folder (removed afterwards) gets a constant
offset of 14 µT in the device frame, in a pseudo-random direction per trial (numpy
default_rng(25)), added to its magnetometer columns for 50 s from the start of its second
movement phase (10 s into the first when it has only one). Each copy is scored with
`poise evaluate --mode 9d --json` with every-sample corrections, the offset estimation off and
on (coverage 0.25 and 0.2 with residual 0.03, and the defaults' 0.2 and 0.02); prints the 9D
total error per trial and the mean.

Run from the repository root after `swift build -c release --product poise`:
    python3 research/fusion_synthetic_magnet.py [--poise PATH]      (numpy; a few minutes)
"""
import argparse
import glob
import json
import os
import subprocess
import tempfile

import numpy as np

ROOT = os.path.join("..", "shared", "data", "broad")
SETTINGS = {
    "offset estimation off": ["--set", "magneticOffsetEstimation=false"],
    "on, coverage 0.25, residual 0.03": ["--set", "magneticOffsetMinimumCoverage=0.25",
                                         "--set", "magneticOffsetMaximumResidual=0.03"],
    "on, coverage 0.2, residual 0.03": ["--set", "magneticOffsetMinimumCoverage=0.2",
                                        "--set", "magneticOffsetMaximumResidual=0.03"],
    "on, coverage 0.2, residual 0.02 (the defaults)": ["--set", "magneticOffsetMinimumCoverage=0.2",
                                                       "--set", "magneticOffsetMaximumResidual=0.02"],
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=".build/release/poise")
    options = parser.parse_args()
    summary = json.load(open(os.path.join(ROOT, "summary.json")))
    rng = np.random.default_rng(25)
    paths = sorted(glob.glob(os.path.join(ROOT, "*.csv")))
    results = {label: [] for label in SETTINGS}
    with tempfile.TemporaryDirectory() as folder:
        for path in paths:
            name = os.path.basename(path)[:-4]
            header = open(path).readline().strip()
            rows = np.loadtxt(path, delimiter=",", skiprows=1)
            edges = summary[name]["movement_edges_s"]
            start = edges[0] + 10 if len(edges) <= 2 else edges[2]
            direction = rng.normal(size=3)
            offset = 14 * direction / np.linalg.norm(direction)
            on = (rows[:, 0] >= start) & (rows[:, 0] < start + 50)
            rows[on, 7:10] += offset
            copy = os.path.join(folder, os.path.basename(path))
            np.savetxt(copy, rows, delimiter=",", fmt="%.9g", header=header, comments="")
            for label, extra in SETTINGS.items():
                run = subprocess.run([options.poise, "evaluate", copy, "--mode", "9d", "--json",
                                      "--set", "correctionRate=0"] + extra, capture_output=True, text=True, check=True)
                results[label].append(json.loads(run.stdout)["total_rmse_deg"])
            os.remove(copy)
    names = [os.path.basename(p)[:2] for p in paths]
    print("| | " + " | ".join(names) + " | mean |")
    print("|---|" + "---|" * (len(names) + 1))
    for label, values in results.items():
        print("| %s | %s | %.2f |" % (label, " | ".join("%.2f" % v for v in values), sum(values) / len(values)))


if __name__ == "__main__":
    main()
