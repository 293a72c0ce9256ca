#!/usr/bin/env python3
"""How far a better gyroscope takes the online estimator: each BROAD trial evaluated with the
online defaults on its recorded gyroscope and on the gyroscope corrected by the trial's own
3×3 matrix A fitted to the optical truth (A⁻¹(g − b) + b, b the first still segment's bias; the
fit of research/fusion_gyro_drift.py). The second is an oracle: no estimator can know A from the
sensors alone, so its errors bound what any online gyroscope calibration can gain, in total
(6D: the heading drift) and in inclination.

For each BROAD trial in ../shared/data/broad (CC BY 4.0, Laidig et al., Data 6(7) 2021,
doi:10.3390/data6070072); the corrected copies are written to a temporary directory, never
beside the trials. Prints per trial and the mean: 9D and 6D total / inclination RMSE (°, BROAD
metric), recorded and corrected.

Run from the repository root after a release build (`swift build -c release --product poise`):
    python3 research/fusion_inclination_oracle.py [--poise .build/release/poise]   # numpy; ≈ 1 minute
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fusion_gyro_drift as drift  # noqa: E402


def evaluate(poise, path, mode):
    # The attitude at the samples' times (no output prediction), as research/fusion-tuning.md's oracle.
    out = subprocess.run([poise, "evaluate", path, "--mode", mode, "--json", "--set", "outputPrediction=0"],
                         capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    return result["total_rmse_deg"], result["inclination_rmse_deg"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=os.path.join(".build", "release", "poise"))
    args = parser.parse_args()
    with open(os.path.join(drift.ROOT, "summary.json")) as f:
        summary = json.load(f)
    names = sorted(n[:-4] for n in os.listdir(drift.ROOT) if n.endswith(".csv"))
    rows = []
    print("trial  9D total/incl recorded  6D recorded  9D corrected by the truth's A  6D corrected")
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            t, gyr, q, biases, _ = drift.load(name, summary)
            bias = biases[0]
            a = drift.fit(t, gyr, q, bias)
            path = os.path.join(drift.ROOT, name + ".csv")
            with open(path) as f:
                header = f.readline().strip()
            table = np.genfromtxt(path, delimiter=",", skip_header=1)
            table[:, 4:7] = (gyr - bias) @ np.linalg.inv(a).T + bias
            corrected = os.path.join(work, name + ".csv")
            np.savetxt(corrected, table, delimiter=",", header=header, comments="", fmt="%.9g")
            row = [evaluate(args.poise, p, m) for p in (path, corrected) for m in ("9d", "6d")]
            rows.append(row)
            print(name[:2], "  ".join(f"{tot:.3f}/{inc:.3f}" for tot, inc in row), flush=True)
    mean = np.mean(np.array(rows), axis=0)
    print("mean", "  ".join(f"{tot:.3f}/{inc:.3f}" for tot, inc in mean))


if __name__ == "__main__":
    main()
