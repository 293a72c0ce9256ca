"""poise.read: every format the CLI reads gives the numbers `poise convert` writes (its
canonical CSV, every number in its shortest exact form), with the schema and units."""

import os
import shutil
import subprocess
import zipfile

import numpy as np
import pytest

import poise
from conftest import DATA, ROOT

FORMATS = os.path.join(ROOT, "..", "shared", "data", "formats")
MCAP = os.path.join(ROOT, "Tests", "PoiseRecordingTests", "Fixtures", "mcap")
needs_formats = pytest.mark.skipif(not os.path.isdir(FORMATS), reason="../shared/data/formats is not here")

# (path, expected format identifier); the shared recordings are real files from public sources
# (their licences are next to them in ../shared/data/formats).
BUNDLED = [
    (os.path.join(DATA, "walking.csv"), "poise"),
    (os.path.join(MCAP, "test2-none.mcap"), "MCAP"),
    (os.path.join(MCAP, "test2-zstd.mcap"), "MCAP"),
]
SHARED = [
    ("xsens_mtmanager_opensense/MT_012005D6_009-001_00B421E6.txt", "xsens", {}),
    ("ros1_bag_imu/test2.bag", "ROS 1 bag", {}),
    ("ros1_bag_imu/phidgets_imu_upside_down.bag", "ROS 1 bag", {}),
    ("sensor_logger_ios_iphone12", "sensorLogger", {}),
    ("xio_ximu3_logged/Left Foot 64F0EBCE (UDP)", "ximu3Session", {}),
    ("xio_ngimu_gait_tracking/short_walk.csv", None, {}),
    ("coremotion_motionsense/dws_1/sub_1.csv", "coreMotion", {"rate": 50}),   # no time column
]


def converted(cli, path, tmp_path, rate=None):
    out = tmp_path / "converted.csv"
    extra = [] if rate is None else ["--rate", str(rate)]
    done = subprocess.run([cli, "convert", path, "--out", str(out), *extra], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    with open(out) as f:
        header = f.readline().strip().split(",")
    # An empty field (a sample without a magnetometer reading) is NaN, as read() gives it.
    rows = np.atleast_2d(np.genfromtxt(out, delimiter=",", skip_header=1, filling_values=np.nan))
    return header, rows


def check_equal_to_convert(cli, path, tmp_path, expected_format=None, **options):
    recording = poise.read(path, **options)
    header, rows = converted(cli, path, tmp_path, **options)
    assert recording.column_names() == header
    assert len(recording) == rows.shape[0] > 0
    assert np.array_equal(recording.to_numpy(), rows, equal_nan=True)
    if expected_format is not None:
        assert recording.format == expected_format
    return recording


@pytest.mark.parametrize("path,expected", BUNDLED, ids=[os.path.basename(p) for p, _ in BUNDLED])
def test_bundled_formats_equal_poise_convert(cli, tmp_path, path, expected):
    check_equal_to_convert(cli, path, tmp_path, expected)


@needs_formats
@pytest.mark.parametrize("name,expected,options", SHARED, ids=[name.split("/")[-1] for name, _, _ in SHARED])
def test_shared_formats_equal_poise_convert(cli, tmp_path, name, expected, options):
    check_equal_to_convert(cli, os.path.join(FORMATS, name), tmp_path, expected, **options)


@needs_formats
def test_a_zipped_session_reads_as_its_folder(cli, tmp_path):
    folder = os.path.join(FORMATS, "sensor_logger_ios_iphone12")
    archive = tmp_path / "session.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(os.listdir(folder)):
            z.write(os.path.join(folder, name), name)
    zipped = check_equal_to_convert(cli, str(archive), tmp_path)
    plain = poise.read(folder)
    assert np.array_equal(zipped.to_numpy(), plain.to_numpy(), equal_nan=True)


def test_arrays_units_schema_and_rate(tmp_path):
    path = os.path.join(DATA, "walking.csv")
    recording = poise.read(path)
    raw = np.loadtxt(path, delimiter=",", skiprows=1, usecols=range(10))
    assert np.array_equal(recording.times, raw[:, 0])
    assert np.array_equal(recording.acc, raw[:, 1:4]) and np.array_equal(recording.gyr, raw[:, 4:7])
    assert np.array_equal(recording.mag, raw[:, 7:10])
    assert recording.units == {"times": "s", "acc": "g", "gyr": "rad/s", "mag": "uT"}
    assert recording.columns[0]["meaning"] == "time" and recording.columns[1]["meaning"] == "acceleration[0]"
    assert recording.rate == pytest.approx(100.0, rel=0.01) and recording.rate == poise.nominal_rate(recording.times)
    # The file has a few gaps: kept, and reported as the CLI reports them.
    assert recording.rows_dropped == 0 and recording.issues
    assert all(issue.startswith(path + ":") and issue.endswith("[gap, kept]") for issue in recording.issues)
    # What read() gives goes straight into fuse() (keywords, the rate from the times).
    fused = poise.fuse(acc=recording.acc, gyr=recording.gyr, mag=recording.mag, times=recording.times)
    assert fused.quaternion.shape == (len(recording), 4)


def test_to_pandas_has_the_columns_of_poise_convert():
    pandas = pytest.importorskip("pandas")
    recording = poise.read(os.path.join(DATA, "walking.csv"))
    frame = recording.to_pandas()
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame.columns) == recording.column_names()
    assert np.array_equal(frame.to_numpy(dtype=np.float64), recording.to_numpy(), equal_nan=True)


def test_options_reach_the_reader(tmp_path):
    path = tmp_path / "no-time.csv"
    path.write_text("ax;ay;az\n0,1;0;1\n0;0,2;1\n0;0;1\n")
    recording = poise.read(path, rate=50, columns="acc=ax,ay,az:g")
    assert np.array_equal(recording.times, [0.0, 0.02, 0.04])
    assert np.array_equal(recording.acc[:, 1], [0.0, 0.2, 0.0]) and recording.gyr is None and recording.mag is None
    mounted = poise.read(path, rate=50, columns="acc=ax,ay,az:g", mount="x=-y,y=x,z=z")
    assert np.array_equal(mounted.acc[:, 0], -recording.acc[:, 1])


def test_bad_input_is_an_error_naming_what_is_wrong(tmp_path):
    with pytest.raises(poise.PoiseError, match="nonexistent"):
        poise.read(tmp_path / "nonexistent.csv")
    bad = tmp_path / "bad.csv"
    bad.write_text("t_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n0.01,zero,0,1\n0.02,0,0,1\n")
    lenient = poise.read(bad)
    assert len(lenient) == 2 and lenient.rows_dropped == 1 and any("bad.csv:3" in issue for issue in lenient.issues)
    with pytest.raises(poise.PoiseError, match="bad.csv:3"):
        poise.read(bad, strict=True)
    good = os.path.join(DATA, "walking.csv")
    cases = [
        (lambda: poise.read(good, rate=1e12), poise.PoiseError, "sample_rate must be"),
        (lambda: poise.read(good, time_unit="fortnights"), poise.PoiseError, "time_unit must be one of"),
        (lambda: poise.read(good, delimiter="pipe"), poise.PoiseError, "delimiter must be one of"),
        (lambda: poise.read(good, mount="x=-q"), poise.PoiseError, "mount"),
        (lambda: poise.read(good, columns="acc=1,2"), poise.PoiseError, "columns"),
        (lambda: poise.read(good, skip_lines=-1), ValueError, "skip_lines"),
        (lambda: poise.read(good, strict="yes"), TypeError, "strict must be a bool"),
        (lambda: poise.read(good, topic="/imu\0x"), ValueError, "topic must not contain a NUL"),
        (lambda: poise.read(good + "\0.csv"), ValueError, "path must not contain a NUL"),
        (lambda: poise.read(3), TypeError, "path must be"),
        (lambda: poise.read(good, block=0), ValueError, "block"),
    ]
    for call, kind, message in cases:
        with pytest.raises(kind, match=message):
            call()


def test_blocks_of_any_size_give_the_same_arrays():
    path = os.path.join(DATA, "walking.csv")
    whole = poise.read(path).to_numpy()
    for block in (1, 7, 1000):
        assert np.array_equal(poise.read(path, block=block).to_numpy(), whole, equal_nan=True)
