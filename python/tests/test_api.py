"""The Python API itself: arrays in and out, streaming, state bytes, errors, threads."""

import json
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import poise
from conftest import DATA, load


@pytest.fixture(scope="module")
def walking():
    return load("walking.csv")


def test_filter_buffer_equals_chunks_and_float32_keeps_its_dtype(walking):
    _, acc, _, _ = walking
    whole = poise.Filter("adaptive", 100.0).process(acc)
    f = poise.Filter("adaptive", 100.0)
    chunks = np.vstack([f.process(acc[:777]), f.process(acc[777:])])
    assert np.array_equal(whole, chunks)
    assert not np.array_equal(whole, acc)
    smooth = poise.Filter("lowpass:cutoff=2", 100.0).process(acc)
    assert np.std(np.diff(smooth[:, 2])) < 0.8 * np.std(np.diff(acc[:, 2]))
    single = poise.Filter("adaptive", 100.0)
    assert np.array_equal(single.process(acc[0]), acc[0])   # a first sample passes through
    f32 = poise.Filter("lowpass:cutoff=5", 100.0).process(acc.astype(np.float32))
    assert f32.dtype == np.float32
    f64 = poise.Filter("lowpass:cutoff=5", 100.0).process(acc.astype(np.float32).astype(np.float64))
    assert np.array_equal(f32, f64.astype(np.float32))


@pytest.mark.parametrize("spec", ["lowpass:cutoff=5", "adaptive"])
def test_filter_leaves_its_input_alone_and_equals_per_sample_calls(walking, spec):
    _, acc, _, _ = walking
    for data in (acc, acc.astype(np.float32)):
        kept = data.copy()
        out = poise.Filter(spec, 100.0).process(data)
        assert np.array_equal(data, kept)           # a new array; the input is not written
        assert out.dtype == data.dtype and out.shape == data.shape
        one = poise.Filter(spec, 100.0)
        rows = np.array([one.process(np.ascontiguousarray(row, dtype=np.float64)) for row in data[:300]])
        assert np.array_equal(out[:300], rows.astype(data.dtype))
    # A non-finite value late in a long buffer: an error, and the state as before the call.
    f, g = poise.Filter(spec, 100.0), poise.Filter(spec, 100.0)
    f.process(acc[:50]), g.process(acc[:50])
    bad = acc[50:].copy()
    bad[len(bad) - 3, 2] = np.inf
    with pytest.raises(poise.PoiseError, match=f"row {len(bad) - 3}, column 2"):
        f.process(bad)
    assert np.array_equal(f.process(acc[50:]), g.process(acc[50:]))


def test_filter_copies_non_contiguous_and_integer_input(walking):
    _, acc, _, _ = walking
    wide = np.hstack([acc, acc])[:, ::2]          # not contiguous
    assert not wide.flags["C_CONTIGUOUS"]
    expected = poise.Filter("lowpass:cutoff=2", 100.0).process(np.ascontiguousarray(wide))
    assert np.array_equal(poise.Filter("lowpass:cutoff=2", 100.0).process(wide), expected)
    ints = np.ones((10, 3), dtype=np.int16)
    assert np.array_equal(poise.Filter("lowpass:cutoff=2", 100.0).process(ints), np.ones((10, 3)))


def test_filter_errors_are_clear():
    with pytest.raises(poise.PoiseError, match="column 9") as caught:
        poise.Filter("lowpass:cutof=5", 100.0)
    assert caught.value.status == "POISE_ERROR_PARSE"
    with pytest.raises(ValueError, match="sample_rate"):
        poise.Filter("adaptive", float("nan"))
    f = poise.Filter("adaptive", 100.0)
    with pytest.raises(ValueError, match=r"shape \(3,\) or \(N, 3\)"):
        f.process(np.zeros((4, 2)))
    with pytest.raises(TypeError, match="real numbers"):
        f.process(np.array([["a", "b", "c"]]))
    before = f.process(np.array([[0.0, 0.0, 1.0]]))
    bad = np.array([[0.0, 0.0, 1.0], [0.0, np.nan, 1.0]])
    with pytest.raises(poise.PoiseError, match="row 1"):
        f.process(bad)
    g = poise.Filter("adaptive", 100.0)
    g.process(np.array([[0.0, 0.0, 1.0]]))
    assert np.array_equal(f.process(np.array([[0.1, 0.2, 0.9]])), g.process(np.array([[0.1, 0.2, 0.9]])))
    assert before.shape == (1, 3)
    f.close()
    with pytest.raises(ValueError, match="closed"):
        f.process(np.zeros((1, 3)))
    assert g.spec.startswith("adaptive:cutoff=")


def test_scalar_and_text_arguments_of_the_wrong_type_name_the_argument():
    # Each is a TypeError that says which argument, not float()'s or ctypes' anonymous one.
    f = poise.Fusion(100.0)
    cases = [
        (lambda: poise.Filter("adaptive", None), "rate must be a real number, got NoneType"),
        (lambda: poise.Filter("adaptive", "100"), "rate must be a real number, got str"),
        (lambda: poise.Filter(None, 100.0), "spec must be a str"),
        (lambda: poise.latency90(None, 100.0), "spec must be a str"),
        (lambda: poise.latency90("adaptive", [100.0]), "rate must be a real number, got list"),
        (lambda: poise.fuse(acc=np.zeros((3, 3)), gyr=np.zeros((3, 3)), rate="fast", mode="6d"), "rate must be a real number"),
        (lambda: poise.FusionConfig(100.0, correction_rate="x"), "setting correction_rate must be a real number, got str"),
        (lambda: poise.FusionConfig(100.0, motion_bias_estimation=2.5), "setting motion_bias_estimation must be an integer"),
        (lambda: poise.Tilt(dead_zone=None), "setting dead_zone must be a real number"),
        (lambda: poise.Gyro(sensitivity="high"), "setting sensitivity must be a real number"),
        (lambda: f.update("x", acc=[0, 0, 1], gyr=[0, 0, 0]), "time must be a real number, got str"),
        (lambda: poise.Flick().update(1.0, None, 0.016), "stick_y must be a real number"),
        (lambda: poise.jitter(output=np.zeros((5, 3)), input=np.zeros((5, 3)), times=np.arange(5.0), window="1"), "window must be a real number"),
        (lambda: poise.remap(np.zeros((2, 3)), 5), "alignment must be a str"),
    ]
    for call, message in cases:
        with pytest.raises(TypeError, match=message):
            call()
    # Numbers of any real kind still pass: numpy scalars and 0-d arrays.
    assert poise.Filter("adaptive", np.float32(100)).rate == 100.0
    assert f.update(np.array(0.0), acc=[0, 0, 1], gyr=[0, 0, 0])["time"] == 0.0
    assert poise.FusionConfig(100.0, correction_rate=np.float64(5)).correction_rate == 5.0


def test_a_single_sample_of_the_wrong_length_says_what_shapes_fit():
    with pytest.raises(ValueError, match=r"acc must have shape \(3,\) or \(N, 3\), got \(2,\)"):
        poise.Fusion(100.0).update(0.0, acc=[0, 0], gyr=[0, 0, 0])
    with pytest.raises(ValueError, match=r"samples must have shape \(3,\) or \(N, 3\)"):
        poise.Filter("adaptive", 100.0).process([1.0, 2.0])


def test_a_missing_library_says_where_it_was_looked_for_and_how_to_point_at_it(tmp_path):
    missing = str(tmp_path / "libpoise.so.0")
    env = dict(os.environ, POISE_LIBRARY=missing)
    done = subprocess.run([sys.executable, "-c", "import poise; poise.Filter('adaptive', 100)"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "ImportError" in done.stderr and missing in done.stderr
    assert "PKG_CONFIG_PATH" in done.stderr and "POISE_LIBRARY" in done.stderr


def test_nominal_rate_is_the_commands_rule():
    """The median interval of the first 2048 rows (docs/conventions.md), as `poise info` says."""
    t = np.arange(5000, dtype=np.float64) / 128
    t[2048:] = t[2047] + np.arange(1, 5000 - 2047) / 32
    assert poise.nominal_rate(t) == 128
    intervals = np.diff(t[:2048])
    assert poise.nominal_rate(t) == 1 / np.sort(intervals)[len(intervals) // 2]
    assert poise.nominal_rate([0.0, 0.5, 0.75]) == 2
    with pytest.raises(poise.PoiseError, match="increase"):
        poise.nominal_rate([1.0, 1.0, 0.5])
    with pytest.raises(ValueError):
        poise.nominal_rate([[0.0, 1.0]])


def test_nominal_rate_equals_info(cli):
    t, _, _, _ = load("phone-tilt-steer-100hz.csv")
    info = json.loads(subprocess.run([cli, "info", os.path.join(DATA, "phone-tilt-steer-100hz.csv"), "--json"],
                                     capture_output=True, text=True, check=True, timeout=120).stdout)
    assert poise.nominal_rate(t) == info["nominal_rate_hz"]


def test_latency90_matches_a_step_through_the_filter():
    rate = 100.0
    ms = poise.latency90("lowpass:cutoff=5", rate)
    f = poise.Filter("lowpass:cutoff=5", rate)
    f.process(np.tile([0.0, 0.0, 1.0], (2000, 1)))
    after = f.process(np.tile([0.0, 1.0, 0.0], (200, 1)))
    progress = (after @ np.array([0.0, 1.0, -1.0]) + 1) / 2
    k = int(np.argmax(progress >= 0.9)) + 1
    assert ms == pytest.approx(k / rate * 1000)
    assert poise.latency90("lowpass:cutoff=10", rate) < ms
    with pytest.raises(ValueError):
        poise.latency90("lowpass:cutoff=5", rate, step="jump")


def test_streaming_equals_batch_and_state_bytes_resume(walking):
    t, acc, gyr, mag = walking
    batch = poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0, times=t)
    stream = poise.Fusion(100.0)
    for i in range(300):
        motion = stream.update(t[i], acc=acc[i], gyr=gyr[i], mag=mag[i])
    assert np.array_equal(motion["quaternion"], batch.quaternion[299])
    assert motion["flags"] == batch.flags[299]
    first = poise.Fusion(100.0)
    first.update_batch(acc=acc[:1000], gyr=gyr[:1000], mag=mag[:1000], times=t[:1000])
    state = first.save_state()
    second = poise.Fusion(100.0)
    second.restore_state(state)
    rest = second.update_batch(acc=acc[1000:], gyr=gyr[1000:], mag=mag[1000:], times=t[1000:])
    assert np.array_equal(rest.quaternion, batch.quaternion[1000:])
    other = poise.Fusion(100.0, accelerometer_time_constant=2.0)
    with pytest.raises(poise.PoiseError, match="configuration") as caught:
        other.restore_state(state)
    assert caught.value.status == "POISE_ERROR_STATE"
    with pytest.raises(poise.PoiseError, match="checksum"):
        second.restore_state(state[:50] + bytes([state[50] ^ 1]) + state[51:])


def test_a_long_batch_on_two_threads_equals_one_thread_and_short_batches(walking):
    # threads=2 lets one call of 32,768 samples or more use a second thread (docs/embedding.md
    # "Threads"); the default, one thread, and batches of 1,000 give the same bits, and the
    # same state afterwards.
    t, acc, gyr, mag = walking
    repeats = -(-40_000 // len(t))
    n = repeats * len(t)
    times = np.arange(n) / 100.0
    acc, gyr, mag = (np.tile(x, (repeats, 1)) for x in (acc, gyr, mag))
    two = poise.Fusion(100.0, threads=2)
    assert two.threads == 2 and poise.Fusion(100.0).threads == 1
    long = two.update_batch(acc=acc, gyr=gyr, mag=mag, times=times)
    one = poise.Fusion(100.0)
    single = one.update_batch(acc=acc, gyr=gyr, mag=mag, times=times)
    pieces = poise.Fusion(100.0)
    parts = [pieces.update_batch(acc=acc[i:i + 1000], gyr=gyr[i:i + 1000], mag=mag[i:i + 1000], times=times[i:i + 1000])
             for i in range(0, n, 1000)]
    fused = poise.fuse(acc=acc, gyr=gyr, mag=mag, times=times, rate=100.0, threads=2)
    for name in poise.FusionResult.SHAPES:
        joined = np.concatenate([getattr(part, name) for part in parts])
        for other in (joined, getattr(single, name), getattr(fused, name)):
            assert np.array_equal(getattr(long, name), other, equal_nan=True), name
    more = dict(acc=acc[:2000], gyr=gyr[:2000], mag=mag[:2000], times=times[:2000] + n / 100.0)
    after = [f.update_batch(**more) for f in (two, one, pieces)]
    for name in poise.FusionResult.SHAPES:
        assert np.array_equal(getattr(after[0], name), getattr(after[1], name), equal_nan=True), name
        assert np.array_equal(getattr(after[0], name), getattr(after[2], name), equal_nan=True), name
    for bad in (0, 3, 1.5, True, "2"):
        with pytest.raises(ValueError, match="threads must be 1 or 2"):
            poise.Fusion(100.0, threads=bad)
        with pytest.raises(ValueError, match="threads must be 1 or 2"):
            poise.fuse(acc=acc[:10], gyr=gyr[:10], mag=mag[:10], rate=100.0, threads=bad)


def test_sensor_arrays_are_keyword_only(walking):
    # A swap by position (vqf takes gyr first, Poise acc first) is a TypeError, never numbers.
    t, acc, gyr, mag = walking
    with pytest.raises(TypeError, match="positional"):
        poise.fuse(gyr, acc, mag, rate=100.0)
    with pytest.raises(TypeError, match="positional"):
        poise.Fusion(100.0).update_batch(acc, gyr, mag)
    with pytest.raises(TypeError, match="positional"):
        poise.Fusion(100.0).update(0.0, acc[0], gyr[0])
    with pytest.raises(TypeError, match="positional"):
        poise.jitter(acc, acc, t)
    with pytest.raises(TypeError, match="positional"):
        poise.Gyro().process(0.0, gyr[0])
    with pytest.raises(TypeError, match="positional"):
        poise.Tilt().update(0.0, acc[0])
    swapped = poise.fuse(gyr=acc, acc=gyr, mag=mag, rate=100.0, times=t)
    right = poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0, times=t)
    assert not np.array_equal(swapped.quaternion, right.quaternion)
    assert np.array_equal(poise.fuse(gyr=gyr, mag=mag, acc=acc, rate=100.0, times=t).quaternion, right.quaternion)


def test_rate_is_required_without_times(walking, cli):
    t, acc, gyr, mag = walking
    with pytest.raises(TypeError, match="needs rate="):
        poise.fuse(acc=acc, gyr=gyr, mag=mag)
    with pytest.raises(TypeError, match="needs rate="):
        poise.Fusion()
    with pytest.raises(TypeError):
        poise.FusionConfig()
    # With times, the rate defaults to their nominal rate (1 / the median positive interval of
    # the first 2048 rows), the rate `poise fuse` configures for the same file.
    from test_cli_equality import swift_rate
    d = np.diff(t[:2048])
    assert poise.nominal_rate(t) == 1 / np.sort(d[d > 0])[np.count_nonzero(d > 0) // 2]
    assert poise.nominal_rate(t) == pytest.approx(swift_rate(cli, os.path.join(DATA, "walking.csv")), rel=1e-3)
    given = poise.fuse(acc=acc, gyr=gyr, mag=mag, times=t, rate=poise.nominal_rate(t))
    derived = poise.fuse(acc=acc, gyr=gyr, mag=mag, times=t)
    assert np.array_equal(given.quaternion, derived.quaternion)
    with pytest.raises(ValueError, match="increase"):
        poise.fuse(acc=acc[:3], gyr=gyr[:3], mag=mag[:3], times=np.zeros(3))


def test_rates_outside_the_cli_range_are_refused_and_nul_in_a_spec_is_an_error():
    # The CLI's range (1 to 100000 Hz, poise --rate) is the C API's: a Butterworth filter at
    # 1e12 Hz would output inf/NaN; it is refused at construction, naming the argument.
    for rate in (1e12, 100_000.5, 0.5, 0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(poise.PoiseError, match="sample_rate must be a sample rate between 1 and 100000 Hz"):
            poise.Filter("butter:lowpass,order=4,cutoff=5", rate)
        with pytest.raises(poise.PoiseError, match="sample_rate must be"):
            poise.FusionConfig(rate)
        with pytest.raises(poise.PoiseError, match="sample_rate must be"):
            poise.latency90("lowpass:cutoff=5", rate)
        with pytest.raises(poise.PoiseError, match="sample_rate must be"):
            poise.Gyro(sample_rate=rate)
    assert poise.Filter("lowpass:cutoff=0.4", 1).rate == 1 and poise.Filter("lowpass:cutoff=5", 100_000).rate == 100_000
    with pytest.raises(poise.PoiseError, match="Nyquist"):
        poise.Filter("butter:lowpass,order=4,cutoff=60", 100)
    with pytest.raises(ValueError, match="spec must not contain a NUL character"):
        poise.Filter("lowpass:cutoff=5\0garbage", 100)
    with pytest.raises(ValueError, match="spec must not contain a NUL"):
        poise.latency90("lowpass:cutoff=5\0", 100)
    with pytest.raises(ValueError, match="alignment must not contain a NUL"):
        poise.remap([[1, 2, 3]], "+Y-X+Z\0+X")
    with pytest.raises(ValueError, match="source must not contain a NUL"):
        poise.Calibration.load("{}\0")


def test_importing_poise_and_poise_batch_loads_no_library(tmp_path):
    # The libraries load on first use: import works without them, the first call says what
    # is missing.
    missing = str(tmp_path / "libpoise.so.0")
    env = dict(os.environ, POISE_LIBRARY=missing, POISE_READERS_LIBRARY=str(tmp_path / "libpoise-readers.so.0"))
    code = ("import sys, poise, poise.batch\n"
            "assert not any('libpoise' in line for line in open('/proc/self/maps')), 'loaded'\n"
            "try:\n    poise.Filter('adaptive', 100)\nexcept ImportError as e:\n    print('IMPORT-ERROR', e)\n")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "IMPORT-ERROR" in done.stdout and missing in done.stdout and "POISE_LIBRARY" in done.stdout


def test_fuse_computes_only_the_outputs_asked_for(walking):
    t, acc, gyr, mag = walking
    full = poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0, times=t)
    for names in [("quaternion",), ("heading", "flags"), ("gravity", "user_acceleration", "rotation_rate", "bias")]:
        part = poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0, times=t, outputs=names)
        for name in poise.FusionResult.SHAPES:
            if name in names:
                assert np.array_equal(getattr(part, name), getattr(full, name)), name
            else:
                assert getattr(part, name) is None, name
    with pytest.raises(ValueError, match="unknown fusion outputs"):
        poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0, outputs=("attitude",))


def test_fuse_rejects_bad_arguments(walking):
    t, acc, gyr, mag = walking
    with pytest.raises(ValueError, match="needs mag"):
        poise.fuse(acc=acc, gyr=gyr, rate=100.0)
    with pytest.raises(ValueError, match="rows"):
        poise.fuse(acc=acc, gyr=gyr[:-1], mag=mag, rate=100.0)
    with pytest.raises(ValueError, match="shape"):
        poise.fuse(acc=acc[:, :2], gyr=gyr, mag=mag, rate=100.0)
    with pytest.raises(ValueError, match="times"):
        poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0, times=t[:-1])
    with pytest.raises(TypeError, match="unknown fusion setting"):
        poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0, acc_tau=3)
    with pytest.raises(poise.PoiseError, match="^sample_rate"):
        poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=-1.0)
    six = poise.fuse(acc=acc, gyr=gyr, rate=100.0, mode="6d", times=t)
    assert np.all(np.isnan(six.heading)) and six.quaternion.shape == (len(t), 4)
    junk = acc.copy()
    junk[5] = np.nan
    flagged = poise.fuse(acc=junk, gyr=gyr, mag=mag, rate=100.0, times=t)
    assert flagged.flag("invalid_input")[5] and np.all(np.isfinite(flagged.quaternion))
    stuck = t.copy()
    stuck[7] = stuck[6]        # repeated
    stuck[9] = stuck[8] - 0.5  # backward
    timed = poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0, times=stuck)
    assert np.flatnonzero(timed.flag("time_not_increasing")).tolist() == [7, 9]
    assert not timed.flag("invalid_input")[[7, 9]].any()


def test_distinct_handles_run_in_parallel_threads(walking):
    t, acc, gyr, mag = walking
    expected = poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0, times=t).quaternion
    results = [None] * 4

    def work(k):
        results[k] = poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0, times=t).quaternion

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(np.array_equal(r, expected) for r in results)


def test_tilt_remap_and_jitter():
    tilt = poise.Tilt(dead_zone=3, saturation=30)
    assert tilt.update(0.0, acc=[0, 0, 1])["event"] == "initial"
    half = np.radians(45) / 2
    out = tilt.update(0.1, attitude=[np.cos(half), np.sin(half), 0, 0])
    assert out["stick"] == (0.0, -1.0) and out["pitch"] == pytest.approx(np.radians(45))
    tilt.recalibrate()
    assert tilt.update(0.2, acc=[0, 0, 1])["event"] == "requested"
    with pytest.raises(ValueError, match="exactly one"):
        tilt.update(0.3)
    assert np.array_equal(poise.remap([[1, 2, 3]], "+Y-X+Z"), [[2, -1, 3]])
    with pytest.raises(poise.PoiseError, match="reflection"):
        poise.remap([[1, 2, 3]], "+X+Y-Z")
    rng = np.random.default_rng(1)
    noise = np.array([0, 0, 1]) + 0.01 * rng.standard_normal((1000, 3))
    smooth = poise.Filter("lowpass:cutoff=2", 100.0).process(noise)
    result = poise.jitter(output=smooth, input=noise, times=np.arange(1000) / 100.0, segments=[(0, 1000)])
    assert result["attenuation"] > 2 and result["segment_count"] == 1


def test_gyro_aim_and_flick():
    gyro = poise.Gyro(space="player", smoothing_threshold=0, counts_per_degree=10)
    # 360 degrees to the right about the vertical in 4 s at 100 Hz, held flat.
    for k in range(401):
        gyro.process(k / 100, gyr=[0, 0, -np.pi / 2 if k > 0 else 0], acc=[0, 0, 1])
    frame = gyro.take_frame()
    assert frame["yaw"] == pytest.approx(360, rel=1e-9) and frame["samples"] == 401
    assert abs(frame["counts"][0] - 3600) <= 1
    bad = gyro.process(5.0, gyr=[np.nan, 0, 0])
    assert bad["yaw"] == 0 and "invalid" in bad["flags"]
    state = gyro.calibration
    gyro.calibration = {"bias": (0.01, 0, 0), "uncertainty": 0.0, "time": 5.0, "calibrated": True}
    assert gyro.calibration["bias"][0] == 0.01 and state["calibrated"] in (True, False)
    with pytest.raises(TypeError, match="unknown gyro setting"):
        poise.Gyro(speed=3)
    flick = poise.Flick(flick_time=0)
    assert flick.update(1, 0, 1 / 60) == pytest.approx(90)
    assert flick.update(0, 0, 1 / 60) == 0
