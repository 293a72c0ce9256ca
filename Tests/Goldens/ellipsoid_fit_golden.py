#!/usr/bin/env python3
"""Golden ellipsoid fit for Poise's magnetometer-calibration tests, from an independent
implementation with numpy.

The same algebraic fit as Poise's EllipsoidFit (Sources/Poise/Calibration/EllipsoidFit.swift),
written independently: the points are centred on their mean and scaled by their RMS distance
from it, then numpy.linalg.lstsq (SVD) solves the general quadric
    a y1^2 + b y2^2 + c y3^2 + 2f y2 y3 + 2g y1 y3 + 2h y1 y2 + 2p y1 + 2q y2 + 2r y3 = 1
directly on the design matrix (Poise solves the normal equations by eigen decomposition); the
centre is -M^-1 v and the shape M / (1 + v^T M^-1 v), mapped back to the original units. The
soft-iron matrix is F * E^(1/2) with F = det(E)^(-1/6) (scipy.linalg.sqrtm).

Input: the magnetometer columns of BROAD trial 02 (../shared/data/broad, CC BY 4.0, Laidig et
al. 2021), every row (one fit, no outlier rejection). Output: Tests/PoiseTests/Fixtures/
ellipsoid_fit_broad02.json. Run from the repository root:
    python3 Tests/Goldens/ellipsoid_fit_golden.py [../shared/data/broad]
"""
import json
import pathlib
import sys

import numpy as np
import scipy
import scipy.linalg

folder = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/broad")
path = folder / "02_undisturbed_slow_rotation_B.csv"
header = path.open().readline().strip().split(",")
columns = [header.index(name) for name in ("mag_x_uT", "mag_y_uT", "mag_z_uT")]
points = np.loadtxt(path, delimiter=",", skiprows=1, usecols=columns)
points = points[np.all(np.isfinite(points), axis=1)]

mean = points.mean(axis=0)
scale = np.sqrt(np.mean(np.sum((points - mean) ** 2, axis=1)))
y = (points - mean) / scale
design = np.column_stack([
    y[:, 0] ** 2, y[:, 1] ** 2, y[:, 2] ** 2,
    2 * y[:, 1] * y[:, 2], 2 * y[:, 0] * y[:, 2], 2 * y[:, 0] * y[:, 1],
    2 * y[:, 0], 2 * y[:, 1], 2 * y[:, 2]])
theta, *_ = np.linalg.lstsq(design, np.ones(len(y)), rcond=None)
a, b, c, f, g, h, p, q, r = theta
M = np.array([[a, h, g], [h, b, f], [g, f, c]])
v = np.array([p, q, r])
centre = -np.linalg.solve(M, v)
shape = M / (1 + centre @ M @ centre)
center = mean + scale * centre
E = shape / scale ** 2
strength = np.linalg.det(E) ** (-1 / 6)
soft_iron = np.real(strength * scipy.linalg.sqrtm(E))

out = pathlib.Path("Tests/PoiseTests/Fixtures/ellipsoid_fit_broad02.json")
out.write_text(json.dumps({
    "source": "BROAD trial 02 (CC BY 4.0, Laidig et al. 2021), mag_x/y/z_uT, all finite rows; Tests/Goldens/ellipsoid_fit_golden.py",
    "versions": {"numpy": np.__version__, "scipy": scipy.__version__},
    "samples": int(len(points)),
    "center": center.tolist(),
    "shape": E.tolist(),
    "field_strength": float(strength),
    "soft_iron": soft_iron.tolist(),
}, indent=2) + "\n")
print(f"wrote {out}: centre {center}, field strength {strength:.6f}")
