"""poise.Calibration: loading, applying as the formula says, fusing with a calibration, errors."""

import json

import numpy as np
import pytest

import poise
from conftest import load

CALIBRATION = {
    "format": "poise-calibration", "version": 1,
    "magnetometer": {"unit": "uT", "offset": [25, -40, 12],
                     "matrix": [[0.9, 0.05, 0.01], [0.05, 1.1, 0.02], [0.01, 0.02, 1.0]], "field_strength": 48.5},
    "gyroscope": {"unit": "rad/s", "offset": [0.01, -0.02, 0.005]},
}


def test_apply_is_matrix_times_raw_minus_offset(tmp_path):
    _, acc, gyr, mag = load("walking.csv")
    text = json.dumps(CALIBRATION)
    path = tmp_path / "cal.json"
    path.write_text(text)
    for source in (text, path, str(path)):
        with poise.Calibration.load(source) as calibration:
            a, g, m = calibration.apply(acc=acc, gyr=gyr, mag=mag)
            assert np.array_equal(a, acc)            # not calibrated: unchanged
            assert np.allclose(g, gyr - np.array([0.01, -0.02, 0.005]), rtol=0, atol=1e-15)
            matrix = np.array(CALIBRATION["magnetometer"]["matrix"])
            assert np.allclose(m, (mag - np.array([25, -40, 12])) @ matrix.T, rtol=0, atol=1e-12)
            offset, got = calibration.sensor("magnetometer")
            assert np.array_equal(offset, [25, -40, 12]) and np.array_equal(got, matrix)
            assert calibration.sensor("accelerometer") is None
            assert calibration.apply(gyr=gyr)[0] is None


def test_fuse_with_a_calibration_equals_fusing_calibrated_arrays():
    _, acc, gyr, mag = load("walking.csv")
    text = json.dumps(CALIBRATION)
    _, g, m = poise.Calibration.load(text).apply(acc=acc, gyr=gyr, mag=mag)
    direct = poise.fuse(acc=acc, gyr=g, mag=m, rate=100.0)
    via = poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0, calibration=text)
    assert np.array_equal(direct.quaternion, via.quaternion)
    assert not np.array_equal(poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0).quaternion, via.quaternion)


def test_bad_calibrations_raise_with_where_and_what(tmp_path):
    with pytest.raises(poise.PoiseError, match="line 1, column"):
        poise.Calibration.load('{"format": "poise-calibration",')
    with pytest.raises(poise.PoiseError, match="cannot open the calibration file"):
        poise.Calibration.load(tmp_path / "missing.json")
    with pytest.raises(poise.PoiseError, match="must be an array of three numbers"):
        poise.Calibration.load('{"format": "poise-calibration", "version": 1, "gyroscope": {"unit": "rad/s", "offset": [1]}}')
    calibration = poise.Calibration.load(json.dumps(CALIBRATION))
    with pytest.raises(poise.PoiseError, match="NaN|nan"):
        calibration.apply(gyr=np.array([[np.nan, 0, 0]]))
    with pytest.raises(ValueError, match="same number of rows"):
        calibration.apply(acc=np.zeros((2, 3)), gyr=np.zeros((3, 3)))
    calibration.close()
    with pytest.raises(ValueError, match="closed"):
        calibration.apply(gyr=np.zeros((1, 3)))
