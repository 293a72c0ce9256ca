"""poise.fuse over the C API against the Swift CLI (`poise fuse`) on the same recording: the
same doubles, bit for bit."""

import io
import os
import subprocess

import numpy as np
import pytest

import poise
from conftest import BROAD, DATA, load


def cli_fuse(cli, name, mode, preset=None):
    extra = [] if preset is None else ["--preset", preset]
    out = subprocess.run([cli, "fuse", os.path.join(DATA, name), "--sample-rate", "100", "--mode", mode, "--out", "-"] + extra,
                         check=True, capture_output=True, text=True).stdout
    header = out.splitlines()[0].split(",")
    table = np.genfromtxt(io.StringIO(out), delimiter=",", skip_header=1)
    return {column: table[:, i] for i, column in enumerate(header)}


@pytest.mark.parametrize("name,mode", [("walking.csv", "9d"), ("walking.csv", "6d"), ("phone-tilt-steer-100hz.csv", "9d")])
def test_fuse_equals_the_cli(cli, name, mode):
    t, acc, gyr, mag = load(name)
    result = poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0, mode=mode, times=t)
    swift = cli_fuse(cli, name, mode)
    assert len(swift["t_s"]) == len(t) > 1000
    pairs = {
        "q": (result.quaternion, ["att_qw", "att_qx", "att_qy", "att_qz"]),
        "gravity": (result.gravity, ["grav_x_g", "grav_y_g", "grav_z_g"]),
        "user": (result.user_acceleration, ["uacc_x_g", "uacc_y_g", "uacc_z_g"]),
        "rotation": (result.rotation_rate, ["gyr_x_radps", "gyr_y_radps", "gyr_z_radps"]),
        "bias": (result.bias, ["bias_x_radps", "bias_y_radps", "bias_z_radps"]),
    }
    for label, (ours, columns) in pairs.items():
        theirs = np.column_stack([swift[c] for c in columns])
        # The CLI prints shortest round-trip decimals, so equal doubles read back bit for bit.
        assert np.array_equal(ours, theirs), f"{label}: differs from the CLI by {np.max(np.abs(ours - theirs))}"
    if mode == "9d":
        assert np.array_equal(result.heading, swift["heading_deg"])
    else:
        assert np.all(np.isnan(result.heading)) and np.all(np.isnan(swift["heading_deg"]))
    assert np.array_equal(result.flag("at_rest"), swift["at_rest"] == 1)
    assert np.array_equal(result.flag("magnetic_disturbance"), swift["mag_disturbance"] == 1)
    assert np.array_equal(result.flag("time_gap"), swift["time_gap"] == 1)
    assert result.flag("at_rest").any()


@pytest.mark.parametrize("preset", ["fast", "vqf"])
def test_presets_equal_the_clis(cli, preset):
    t, acc, gyr, mag = load("walking.csv")
    result = poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0, times=t, preset=preset)
    swift = cli_fuse(cli, "walking.csv", "9d", preset)
    theirs = np.column_stack([swift[c] for c in ["att_qw", "att_qx", "att_qy", "att_qz"]])
    assert np.array_equal(result.quaternion, theirs)
    assert np.array_equal(result.heading, swift["heading_deg"])


@pytest.mark.parametrize("mode", ["9d", "6d"])
def test_offline_fuse_equals_the_clis_on_a_broad_trial(cli, mode):
    # The CLI reads BROAD's acc in m/s² and divides by 9.80665 (to g); the same here. Equal to
    # 1e-12 (both run DeviceMotionSmoother on the same doubles; the CLI's printed decimals
    # round-trip exactly, so in practice they are bit-identical).
    path = os.path.join(BROAD, "05_undisturbed_slow_rotation_with_breaks_B.csv")
    if not os.path.exists(path):
        pytest.skip("BROAD trials are not present")
    a = np.loadtxt(path, delimiter=",", skiprows=1, usecols=range(10))
    t, acc, gyr, mag = a[:, 0], a[:, 1:4] / 9.80665, a[:, 4:7], a[:, 7:10]
    rate = 1 / np.median(np.diff(t))
    out = subprocess.run([cli, "fuse", path, "--offline", "--mode", mode, "--out", "-"],
                         check=True, capture_output=True, text=True).stdout
    header = out.splitlines()[0].split(",")
    table = np.genfromtxt(io.StringIO(out), delimiter=",", skip_header=1)
    swift = {column: table[:, i] for i, column in enumerate(header)}
    result = poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=swift_rate(cli, path), mode=mode, times=t, offline=True)
    assert len(swift["t_s"]) == len(t) > 50000 and abs(rate - 285.714) < 0.01
    for ours, columns in [(result.quaternion, ["att_qw", "att_qx", "att_qy", "att_qz"]),
                          (result.gravity, ["grav_x_g", "grav_y_g", "grav_z_g"]),
                          (result.bias, ["bias_x_radps", "bias_y_radps", "bias_z_radps"])]:
        theirs = np.column_stack([swift[c] for c in columns])
        assert np.max(np.abs(ours - theirs)) <= 1e-12, columns[0]
    # Offline differs from the causal estimate (it is not the online run by another name).
    online = poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=swift_rate(cli, path), mode=mode, times=t)
    assert np.max(np.abs(online.quaternion - result.quaternion)) > 1e-3


def swift_rate(cli, path):
    """The sample rate `poise fuse` configures for a file (its JSON summary's)."""
    import json
    out = subprocess.run([cli, "fuse", path, "--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)["sample_rate_hz"]


def test_saturation_hold_off_equals_the_clis_on_a_clipped_gyroscope(cli, tmp_path):
    # rotations-with-breaks.csv (turns up to 3.5 rad/s) with its gyroscope clipped at 1.5 rad/s
    # (a plateau counts as saturation from 1 rad/s): the hold-off after a clipped sample, set on
    # the streaming estimator (poise_fusion_set_saturation_bias_hold_off), equals `poise fuse
    # --set saturationBiasHoldOff=…`, and 0 against 9 s changes the output.
    t, acc, gyr, mag = load("rotations-with-breaks.csv")
    limit = 1.5
    clipped = np.clip(gyr, -limit, limit)
    path = tmp_path / "clipped.csv"
    np.savetxt(path, np.column_stack([t, acc, clipped, mag]), delimiter=",", fmt="%.17g",
               header="t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps,mag_x_uT,mag_y_uT,mag_z_uT",
               comments="")
    results = {}
    for hold_off in (0.0, 9.0, 2.5):
        ours = poise.fuse(acc=acc, gyr=clipped, mag=mag, rate=100.0, times=t, saturation_bias_hold_off=hold_off)
        out = subprocess.run([cli, "fuse", str(path), "--sample-rate", "100", "--mode", "9d", "--out", "-",
                              "--set", f"saturationBiasHoldOff={hold_off}"], check=True, capture_output=True, text=True).stdout
        table = np.genfromtxt(io.StringIO(out), delimiter=",", skip_header=1)
        header = out.splitlines()[0].split(",")
        theirs = table[:, [header.index(c) for c in ["att_qw", "att_qx", "att_qy", "att_qz"]]]
        assert np.array_equal(ours.quaternion, theirs), f"hold-off {hold_off} s"
        results[hold_off] = ours
    assert np.count_nonzero(results[0.0].flags & (1 << 7)) > 10
    assert not np.array_equal(results[0.0].quaternion, results[9.0].quaternion)
    default = poise.fuse(acc=acc, gyr=clipped, mag=mag, rate=100.0, times=t)
    assert np.array_equal(default.quaternion, results[9.0].quaternion)
    assert poise.FusionConfig(100.0, preset="vqf", saturation_bias_hold_off=1).as_dict()["saturation_bias_hold_off"] == 1.0
    with pytest.raises(poise.PoiseError, match="saturation_bias_hold_off must be"):
        poise.Fusion(100.0, saturation_bias_hold_off=-1.0)
    # The offline smoother takes it too (poise_fusion_smooth_with): `--offline --set …`.
    smoothed = {}
    for hold_off in (0.0, 9.0):
        ours = poise.fuse(acc=acc, gyr=clipped, mag=mag, rate=100.0, times=t, offline=True,
                          saturation_bias_hold_off=hold_off)
        out = subprocess.run([cli, "fuse", str(path), "--sample-rate", "100", "--mode", "9d", "--out", "-", "--offline",
                              "--set", f"saturationBiasHoldOff={hold_off}"], check=True, capture_output=True, text=True).stdout
        table = np.genfromtxt(io.StringIO(out), delimiter=",", skip_header=1)
        header = out.splitlines()[0].split(",")
        theirs = table[:, [header.index(c) for c in ["att_qw", "att_qx", "att_qy", "att_qz"]]]
        assert np.array_equal(ours.quaternion, theirs), f"offline, hold-off {hold_off} s"
        smoothed[hold_off] = ours.quaternion
    assert not np.array_equal(smoothed[0.0], smoothed[9.0])
    rule = poise.fuse(acc=acc, gyr=clipped, mag=mag, rate=100.0, times=t, offline=True)
    assert np.array_equal(rule.quaternion, smoothed[9.0])
