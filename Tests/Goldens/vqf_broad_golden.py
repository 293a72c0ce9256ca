#!/usr/bin/env python3
"""Golden output of the VQF reference implementation (pip package `vqf`, MIT, by D. Laidig) on
the BROAD trials in ../shared/data/broad, for Poise's exact-port test
(Tests/PoiseTests/DeviceMotionBROADPortTests.swift).

VQF runs with its own defaults and schedule (every sample), gyrTs = 1 / 285.714 Hz (BROAD's rate),
on the CSV's acc (m/s²), gyr (rad/s) and mag (µT) columns. Stored: every 1000th sample and the
last one of each trial, the 6D and 9D quaternions (w, x, y, z). The BROAD data are CC BY 4.0
(Laidig, Caruso, Cereatti, Seel, Data 6(7), 2021, doi:10.3390/data6070072); these numbers are
derived from them.

Run: python3 Tests/Goldens/vqf_broad_golden.py > Tests/PoiseTests/Fixtures/vqf_broad.csv
"""
import glob
import os
from importlib.metadata import version

import numpy as np
import vqf

RATE = 285.714285714
STEP = 1000
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "data", "broad")


def main():
    print("# vqf %s, VQF(gyrTs=1/285.714285714) defaults, every %dth sample and the last; Tests/Goldens/vqf_broad_golden.py"
          % (version("vqf"), STEP))
    print("trial,i,q6_w,q6_x,q6_y,q6_z,q9_w,q9_x,q9_y,q9_z")
    for path in sorted(glob.glob(os.path.join(ROOT, "*.csv"))):
        trial = os.path.basename(path)[:-4]
        a = np.loadtxt(path, delimiter=",", skiprows=1, usecols=range(10))
        gyr = np.ascontiguousarray(a[:, 4:7])
        acc = np.ascontiguousarray(a[:, 1:4])
        mag = np.ascontiguousarray(a[:, 7:10])
        out = vqf.VQF(1.0 / RATE).updateBatch(gyr, acc, mag)
        n = len(a)
        for i in sorted(set(range(STEP - 1, n, STEP)) | {n - 1}):
            row = list(out["quat6D"][i]) + list(out["quat9D"][i])
            print(trial + ",%d," % i + ",".join("%.15g" % v for v in row))


if __name__ == "__main__":
    main()
