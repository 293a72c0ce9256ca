#!/usr/bin/env python3
"""When does the estimate match the truth best? Each BROAD trial is evaluated with the truth
moved later by a fraction s of a sample (at sample i the truth of time t_i − s·T, interpolated
between rows i−1 and i by normalised linear interpolation of the quaternions), for Poise with
the given settings and for VQF's own (`--preset vqf`). An estimate that lags the truth by d
samples scores best at s = d.

For each BROAD trial in ../shared/data/broad (CC BY 4.0, Laidig et al., Data 6(7) 2021,
doi:10.3390/data6070072); the shifted copies are written to a temporary directory, never beside
the trials. Prints, per shift, the mean over the 15 trials of the total / inclination RMSE (°,
BROAD metric) in 9D and 6D.

Run from the repository root after a release build (`swift build -c release --product poise`):
    python3 research/fusion_time_offset.py                                   # the estimate at the sample's time
    python3 research/fusion_time_offset.py --set outputPrediction=0.0025     # the defaults
    python3 research/fusion_time_offset.py --offline
(numpy; ≈ 1 minute per shift online, 3 offline).
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import tempfile

import numpy as np

ROOT = os.path.join("..", "shared", "data", "broad")


def shifted(name, s, work):
    path = os.path.join(ROOT, name + ".csv")
    if s == 0:
        return path
    with open(path) as f:
        header = f.readline().strip()
    table = np.genfromtxt(path, delimiter=",", skip_header=1)
    truth = table[:, 10:14]
    previous = np.roll(truth, 1, 0)
    previous[0] = truth[0]
    previous *= np.sign(np.sum(previous * truth, 1))[:, None]
    q = (1 - s) * truth + s * previous
    table[:, 10:14] = q / np.linalg.norm(q, axis=1)[:, None]
    out = os.path.join(work, "%s-%g.csv" % (name, s))
    np.savetxt(out, table, delimiter=",", header=header, comments="", fmt="%.10g")
    return out


def evaluate(poise, path, mode, extra):
    out = subprocess.run([poise, "evaluate", path, "--mode", mode, "--json", *extra], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    return result["total_rmse_deg"], result["inclination_rmse_deg"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=os.path.join(".build", "release", "poise"))
    parser.add_argument("--shifts", default="0,0.25,0.5,0.7,0.75,1", help="fractions of a sample")
    parser.add_argument("--offline", action="store_true")
    parser.add_argument("--set", action="append", default=[], help="NAME=VALUE for Poise's row")
    args = parser.parse_args()
    names = sorted(n[:-4] for n in os.listdir(ROOT) if n.endswith(".csv"))
    # Poise at the samples' times unless --set says otherwise (later settings win).
    rows = {"Poise": ["--set", "outputPrediction=0"] + [a for s in args.set for a in ("--set", s)], "VQF": ["--preset", "vqf"]}
    offline = ["--offline"] if args.offline else []
    print("shift (samples)  method  9D total/inclination  6D total/inclination")
    with tempfile.TemporaryDirectory() as work, concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for s in (float(x) for x in args.shifts.split(",")):
            paths = [shifted(n, s, work) for n in names]
            for label, extra in rows.items():
                if args.offline and label == "VQF":
                    continue
                means = []
                for mode in ("9d", "6d"):
                    results = list(pool.map(lambda p: evaluate(args.poise, p, mode, extra + offline), paths))
                    means.append(np.mean(np.array(results), axis=0))
                print("%.2f  %s  %s" % (s, label, "  ".join("%.3f/%.3f" % tuple(m) for m in means)), flush=True)


if __name__ == "__main__":
    main()
