#!/usr/bin/env python3
"""Output prediction on simulated sensors: `poise evaluate` (online defaults, 9D and 6D) with
`outputPrediction` 2.5 ms (BROAD's delay) and with 0 (the default), on `poise simulate` recordings (their truth has no lag
behind the IMU, and the simulated gyroscope has no delay) over a small matrix of scenarios,
rates and sensor grades (`poise simulate`'s default phone-grade model, and --ideal). Prints one
Markdown table: mean total / inclination RMSE (°) per setting, and per cell.

Run (after `swift build`): python3 research/fusion_prediction_matrix.py [path/to/poise]
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SCENARIOS = ["rotations-with-breaks", "tumble"]
RATES = [50, 100, 400, 1000]
GRADES = {"phone": [], "ideal": ["--ideal"]}
SETTINGS = {"2.5 ms": ["--set", "outputPrediction=0.0025"], "0": ["--set", "outputPrediction=0"]}


def evaluate(poise, path, mode, extra):
    out = subprocess.run([poise, "evaluate", path, "--mode", mode, "--json"] + extra,
                         check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    return r["total_rmse_deg"], r["inclination_rmse_deg"]


def main():
    poise = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "poise")
    print("| scenario | rate (Hz) | grade | 9D 2.5 ms | 9D 0 | 6D 2.5 ms | 6D 0 | (total / inclination °) |")
    print("|---|---|---|---|---|---|---|---|")
    sums = {}
    with tempfile.TemporaryDirectory() as d:
        for scenario in SCENARIOS:
            for rate in RATES:
                for grade, flags in GRADES.items():
                    path = os.path.join(d, "sim.csv")
                    subprocess.run([poise, "simulate", "--scenario", scenario, "--rate", str(rate), "--seed", "5",
                                    "--out", path] + flags, check=True, capture_output=True)
                    cells = []
                    for mode in ("9d", "6d"):
                        for name, extra in SETTINGS.items():
                            t, i = evaluate(poise, path, mode, extra)
                            sums.setdefault((mode, name), []).append((t, i))
                            cells.append("%.3f / %.3f" % (t, i))
                    print("| %s | %d | %s | %s | |" % (scenario, rate, grade, " | ".join(cells)))
    means = []
    for mode in ("9d", "6d"):
        for name in SETTINGS:
            v = sums[(mode, name)]
            means.append("%.3f / %.3f" % (sum(x[0] for x in v) / len(v), sum(x[1] for x in v) / len(v)))
    print("| **mean** | | | %s | |" % " | ".join(means))


if __name__ == "__main__":
    main()
