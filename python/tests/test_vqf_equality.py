"""With VQF's parameters (preset="vqf"), poise.fuse equals the `vqf` package (the reference
implementation) to 1e-10 rad (measured: about 1e-12): on a simulated recording of data/ and on BROAD trials when
../shared/data/broad is present."""

import os

import numpy as np
import pytest

import poise
from conftest import BROAD, load

vqf = pytest.importorskip("vqf")
G = 9.80665



def relative_angle(q, r):
    # angle of q * conj(r): 2 atan2(|v|, |w|)
    w = np.sum(q * r, axis=1)
    v = (-q[:, :1] * r[:, 1:] + r[:, :1] * q[:, 1:] - np.cross(q[:, 1:], r[:, 1:]))
    return 2 * np.arctan2(np.linalg.norm(v, axis=1), np.abs(w))


def compare(acc_g, gyr, mag, rate, bound):
    n = len(acc_g)
    times = np.arange(n) / rate
    reference = vqf.VQF(1.0 / rate).updateBatch(np.ascontiguousarray(gyr), np.ascontiguousarray(acc_g * G),
                                                np.ascontiguousarray(mag))
    for mode, key in (("9d", "quat9D"), ("6d", "quat6D")):
        ours = poise.fuse(acc=acc_g, gyr=gyr, mag=mag, rate=rate, mode=mode, times=times, preset="vqf")
        worst = np.max(relative_angle(ours.quaternion, reference[key]))
        assert worst < bound, f"{mode}: {worst} rad from vqf"
        assert np.max(np.abs(ours.bias - reference["bias"])) < 1e-9
        assert np.array_equal(ours.flag("at_rest"), reference["restDetected"].astype(bool))
        if mode == "9d":
            assert np.array_equal(ours.flag("magnetic_disturbance"), reference["magDistDetected"].astype(bool))
    return worst


def test_equals_vqf_on_a_recording_with_rest_breaks():
    t, acc, gyr, mag = load("rotations-with-breaks.csv")
    compare(acc, gyr, mag, 100.0, 1e-10)


@pytest.mark.parametrize("trial", ["05_undisturbed_slow_rotation_with_breaks_B", "29_disturbed_stationary_magnet_B"])
def test_equals_vqf_on_broad(trial):
    path = os.path.join(BROAD, trial + ".csv")
    if not os.path.exists(path):
        pytest.skip("BROAD trials are not present")
    a = np.loadtxt(path, delimiter=",", skiprows=1, usecols=range(10))
    compare(a[:, 1:4] / G, a[:, 4:7], a[:, 7:10], 285.714285714, 1e-10)
