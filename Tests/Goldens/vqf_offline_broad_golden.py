#!/usr/bin/env python3
"""Accuracy of the VQF reference implementation's offline estimator (`vqf.offlineVQF`, pip package
`vqf`, MIT, by D. Laidig; forward and backward passes over the whole recording) on the BROAD trials
in ../shared/data/broad, for Poise's offline-smoother accuracy test
(Tests/PoiseTests/DeviceMotionSmootherBROADTests.swift), the offline cross-validation
(research/fusion_offline_cv.py) and Benchmarks/peers.

offlineVQF runs with its defaults, gyrTs = 1 / 285.714285714 (BROAD's rate), on the CSV's acc
(m/s²), gyr (rad/s) and mag (µT) columns. Stored per trial and mode (6D: quat6D, 9D: quat9D): the
total, heading and inclination RMSE in degrees by the BROAD metric of conventions.md (samples with
movement = 1 and finite truth; 6D aligned by one constant heading offset, found by a 0.5° scan
refined to 0.001°). The BROAD data are CC BY 4.0 (Laidig, Caruso, Cereatti, Seel, Data 6(7),
2021, doi:10.3390/data6070072); these numbers are derived from them.

Run: python3 Tests/Goldens/vqf_offline_broad_golden.py > Tests/PoiseTests/Fixtures/vqf_offline_broad.csv
"""
import glob
import os
from importlib.metadata import version

import numpy as np
import vqf

from fusion_forward_backward import score  # the BROAD metric (numpy), shared with the forward-backward script

RATE = 285.714285714
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "data", "broad")


def main():
    print("# vqf %s, offlineVQF(gyrTs=1/285.714285714) defaults, BROAD metric; Tests/Goldens/vqf_offline_broad_golden.py"
          % version("vqf"))
    print("trial,mode,total_deg,heading_deg,inclination_deg")
    for path in sorted(glob.glob(os.path.join(ROOT, "*.csv"))):
        trial = os.path.basename(path)[:-4]
        a = np.loadtxt(path, delimiter=",", skiprows=1)
        gyr, acc, mag = (np.ascontiguousarray(a[:, c:c + 3]) for c in (4, 1, 7))
        out = vqf.offlineVQF(gyr, acc, mag, 1.0 / RATE)
        truth = a[:, 10:14]
        scored = (a[:, 17] == 1) & np.isfinite(truth).all(1)
        for mode, key in (("9d", "quat9D"), ("6d", "quat6D")):
            r = score(out[key], truth, scored, mode == "6d")
            print("%s,%s,%.6f,%.6f,%.6f" % (trial, mode, r[0], r[1], r[2]))


if __name__ == "__main__":
    main()
