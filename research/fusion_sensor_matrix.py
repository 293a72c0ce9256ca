#!/usr/bin/env python3
"""Poise's defaults against VQF on simulated sensors Poise was not tuned on: `poise simulate`
recordings (truth known exactly) over a matrix of sensor properties, each varied alone around a
base (a phone-grade IMU at 100 Hz, no gyroscope delay, `poise simulate`'s default error model),
on three scenarios (rotations-with-breaks, tumble, phone-tilt-steer; seed 5):

- rate: 50, 200, 400, 1000 Hz;
- gyroscope delay: 2.5, 5, 10 ms (`--gyro-delay`);
- noise grade (gyroscope and accelerometer white noise and bias instability, SI units): tactical,
  industrial (x-io/Xsens class), hobby (`--gyro-noise-density` …);
- gyroscope scale error 2 % and misalignment 2° (standard deviations, `--gyro-scale-error`,
  `--gyro-misalignment`);
- saturation: gyroscope full scale 250 and 125 °/s (`--gyro-range`);
- held samples: the IMU at 100 Hz in rows at 400 Hz, and at 50 Hz in rows at 200 Hz (`--imu-rate`);
- magnetic disturbance: 30 µT for 10 s, and 15 µT for 20 s (`--mag-disturbance`).

Estimates: Poise's defaults online (`poise evaluate`, 9D and 6D) and offline (`--offline`, 9D);
the `vqf` package's `VQF` (online, 9D and 6D, gyrTs = 1 / the nominal rate) and `offlineVQF`
(9D), scored by the same BROAD metric (Tests/Goldens/fusion_forward_backward.py's `score`: the
rows with movement = 1, 6D aligned by one constant heading offset). Writes the per-cell table and
the summary (mean total RMSE per group, and the share of cells where Poise is lower) to
research/fusion-sensor-matrix.md, and prints the summary.

Run from the repository root (about 10 minutes with a release build; `--cache FILE` keeps the
finished cells, so an interrupted run continues):
    swift build -c release --product poise
    python3 research/fusion_sensor_matrix.py [--poise .build/release/poise] [--cache cells.jsonl]
`--group NAME` (repeatable, e.g. `--group "magnetic disturbance"`) runs those groups only and
prints their summary without writing the file.
Needs numpy and vqf (`pip install numpy vqf`).
"""
import argparse
import importlib.metadata
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import vqf

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "Tests", "Goldens"))
from fusion_forward_backward import score  # noqa: E402

SCENARIOS = ["rotations-with-breaks", "tumble", "phone-tilt-steer"]
SEED = "5"
G = 9.80665
DEG = np.pi / 180


def grade(gyro_n, gyro_b, acc_n, acc_b):
    """Noise options: gyroscope N (°/s/√Hz) and B (°/s), accelerometer N (µg/√Hz) and B (mg)."""
    return ["--gyro-noise-density", repr(gyro_n * DEG), "--gyro-bias-instability", repr(gyro_b * DEG),
            "--accel-noise-density", repr(acc_n * 1e-6 * G), "--accel-bias-instability", repr(acc_b * 1e-3 * G)]


# group → [(cell label, rate Hz, simulate options)]
MATRIX = {
    "base (phone, 100 Hz)": [("base", 100, [])],
    "rate": [("%d Hz" % r, r, []) for r in (50, 200, 400, 1000)],
    "gyroscope delay": [("%g ms" % d, 100, ["--gyro-delay", str(d)]) for d in (2.5, 5, 10)],
    "noise grade": [("tactical", 100, grade(0.0005, 0.0003, 20, 0.01)),
                    ("industrial", 100, grade(0.003, 0.003, 60, 0.05)),
                    ("hobby", 100, grade(0.015, 0.05, 250, 1))],
    "scale / misalignment": [("scale 2 %", 100, ["--gyro-scale-error", "2"]),
                             ("misalignment 2°", 100, ["--gyro-misalignment", "2"])],
    "saturation": [("±%d °/s" % r, 100, ["--gyro-range", str(r)]) for r in (250, 125)],
    "held samples": [("IMU 100 Hz in 400 Hz rows", 400, ["--imu-rate", "100"]),
                     ("IMU 50 Hz in 200 Hz rows", 200, ["--imu-rate", "50"])],
    "magnetic disturbance": [("30 µT, 10 s", 100, ["--mag-disturbance", "8,18,20,-20,10"]),
                             ("15 µT, 20 s", 100, ["--mag-disturbance", "5,25,0,12,-9"])],
}
COLUMNS = ["VQF 9D", "Poise 9D", "VQF 6D", "Poise 6D", "offlineVQF 9D", "Poise offline 9D"]


def poise_scores(poise, path):
    out = []
    for args in (["--mode", "9d"], ["--mode", "6d"], ["--mode", "9d", "--offline"]):
        r = json.loads(subprocess.run([poise, "evaluate", path, "--json"] + args, check=True,
                                      capture_output=True, text=True).stdout)
        out.append(r["total_rmse_deg"])
    return out


def vqf_scores(path, rate, offline=True):
    """VQF's total RMSE (°) on a simulated recording: online 9D, online 6D and (with `offline`)
    offlineVQF 9D."""
    o = np.genfromtxt(path, delimiter=",", names=True)
    acc = np.ascontiguousarray(np.stack([o["acc_x_g"], o["acc_y_g"], o["acc_z_g"]], 1) * G)
    gyr = np.ascontiguousarray(np.stack([o["gyr_x_radps"], o["gyr_y_radps"], o["gyr_z_radps"]], 1))
    mag = np.ascontiguousarray(np.stack([o["mag_x_uT"], o["mag_y_uT"], o["mag_z_uT"]], 1))
    truth = np.stack([o["gt_qw"], o["gt_qx"], o["gt_qy"], o["gt_qz"]], 1)
    scored = (o["movement"] == 1) & np.isfinite(truth).all(1)
    online = vqf.VQF(1.0 / rate).updateBatch(gyr, acc, mag)
    estimates = [(online["quat9D"], False), (online["quat6D"], True)]
    if offline:
        estimates.append((vqf.offlineVQF(gyr, acc, mag, 1.0 / rate)["quat9D"], False))
    out = []
    for q, six in estimates:
        out.append(score(q, truth, scored, six)[0])
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=os.path.join(ROOT, ".build", "release", "poise"))
    parser.add_argument("--out", default=os.path.join(ROOT, "research", "fusion-sensor-matrix.md"))
    parser.add_argument("--group", action="append", choices=list(MATRIX),
                        help="run these groups only and print their summary (the file is not written)")
    parser.add_argument("--cache", help="JSON-lines file of finished cells: read, and appended to (a rerun continues)")
    options = parser.parse_args()
    done = {}
    if options.cache and os.path.exists(options.cache):
        with open(options.cache) as f:
            for line in f:
                c = json.loads(line)
                done[(c["group"], c["cell"], c["scenario"])] = c["totals"]
    cells = []
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "sim.csv")
        for group, settings in MATRIX.items():
            if options.group and group not in options.group:
                continue
            for label, rate, extra in settings:
                for scenario in SCENARIOS:
                    row = done.get((group, label, scenario))
                    if row is None:
                        subprocess.run([options.poise, "simulate", "--scenario", scenario, "--rate", str(rate),
                                        "--seed", SEED, "--out", path] + extra, check=True, capture_output=True)
                        v, p = vqf_scores(path, rate), poise_scores(options.poise, path)
                        row = [v[0], p[0], v[1], p[1], v[2], p[2]]
                        if options.cache:
                            with open(options.cache, "a") as f:
                                f.write(json.dumps({"group": group, "cell": label, "scenario": scenario, "totals": row}) + "\n")
                    cells.append((group, label, scenario, row))
                    print("%s | %s | %s | %s" % (group, label, scenario, " ".join("%.2f" % x for x in row)), file=sys.stderr)
    lines = ["| group | cell | scenario | " + " | ".join(COLUMNS) + " |", "|---" * (len(COLUMNS) + 3) + "|"]
    for group, label, scenario, row in cells:
        lines.append("| %s | %s | %s | %s |" % (group, label, scenario, " | ".join("%.2f" % x for x in row)))
    summary = ["| group (cells) | " + " | ".join(COLUMNS) + " | Poise lower (9D / 6D / offline) |",
               "|---" * (len(COLUMNS) + 2) + "|"]
    groups = [g for g in MATRIX if not options.group or g in options.group] + ["all"]
    for group in groups:
        rows = [c[3] for c in cells if group == "all" or c[0] == group]
        means = [np.mean([r[k] for r in rows]) for k in range(len(COLUMNS))]
        wins = [sum(r[k + 1] < r[k] for r in rows) for k in (0, 2, 4)]
        summary.append("| %s (%d) | %s | %s |" % (group if group != "all" else "**all**", len(rows),
                                                   " | ".join("%.2f" % m for m in means),
                                                   " / ".join("%d" % w for w in wins)))
    if options.group:
        print("\n".join(summary))
        return
    text = ("# Poise's defaults and VQF on a simulated sensor matrix\n\n"
            "Produced by `python3 research/fusion_sensor_matrix.py` (its docstring describes the matrix). "
            "Total RMSE in degrees, BROAD metric, rows with movement; VQF is the `vqf` package (%s).\n\n"
            "## Summary: mean total RMSE (°) per group\n\n%s\n\n"
            "## Every cell: total RMSE (°)\n\n%s\n" % (
                importlib.metadata.version("vqf"), "\n".join(summary), "\n".join(lines)))
    tmp = options.out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, options.out)
    print("\n".join(summary))


if __name__ == "__main__":
    main()
