import os
import shutil

import numpy as np
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.environ.get("POISE_DATA", os.path.join(ROOT, "data"))
BROAD = os.path.join(ROOT, "..", "shared", "data", "broad")


def load(name):
    """A recording of data/ as (t, acc g, gyr rad/s, mag µT) float64 arrays."""
    a = np.loadtxt(os.path.join(DATA, name), delimiter=",", skiprows=1, usecols=range(10))
    return a[:, 0], a[:, 1:4], a[:, 4:7], a[:, 7:10]


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("POISE_CLI") or shutil.which("poise")
    if not path or not os.path.exists(path):
        pytest.skip("the poise CLI is not built (set POISE_CLI)")
    return path
