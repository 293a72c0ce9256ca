"""Gyro aiming (the camera turns with the device) and flick stick, over poise_gyro and
poise_flick. Camera angles in degrees: yaw positive = turn right, pitch positive = look up."""

from __future__ import annotations

import ctypes
from typing import Any, Dict, Optional

import numpy as np
import numpy.typing as npt

from . import _arrays
from ._handle import Handle
from ._library import (FlickSettingsStruct, GyroCalibrationStruct, GyroFrame, GyroOutput, GyroSettingsStruct,
                       c_double_p, call, create, lib)

SPACES = {"local": 0, "player": 1, "world": 2}
HOLDS = {"flat": 0, "upright": 1}
FLAGS = ["invalid", "time-not-increasing", "gap", "saturated", "limited", "no-gravity", "calibrating"]


def _flags(bits):
    return [name for i, name in enumerate(FLAGS) if bits & (1 << i)]


class Gyro(Handle):
    """Gyro aiming. Settings (keyword arguments) as the C `poise_gyro_settings`: space
    ("local", "player", "world"), hold ("flat", "upright"), sensitivity (camera degrees per device
    degree), smoothing_threshold (deg/s), smoothing_time_constant (s), continuous_calibration, …"""

    _kind = "Gyro"

    def __init__(self, **settings: Any) -> None:
        for name, names in (("space", SPACES), ("hold", HOLDS)):
            if name in settings:
                if settings[name] not in names:
                    raise ValueError(f"{name} must be one of {', '.join(map(repr, names))}, got {settings[name]!r}")
                settings[name] = names[settings[name]]
        struct = _arrays.fill(GyroSettingsStruct(), lib.poise_gyro_settings_default, settings, "gyro")
        super().__init__(create(lib.poise_gyro_create, ctypes.byref(struct)), lib.poise_gyro_destroy)

    def process(self, time: float, *, gyr: npt.ArrayLike, acc: Optional[npt.ArrayLike] = None,
                gravity: Optional[npt.ArrayLike] = None) -> Dict[str, Any]:
        """One sample (sensors keyword-only): gyr (3,) rad/s, acc (3,) g or None, gravity (3,) up direction or None.
        Returns time, yaw and pitch (camera degrees this sample) and the flags."""
        g = _arrays.rows("gyr", gyr, 3, allow_single=True)
        a = None if acc is None else _arrays.rows("acc", acc, 3, allow_single=True)
        u = None if gravity is None else _arrays.rows("gravity", gravity, 3, allow_single=True)
        out = GyroOutput()
        with self._lock:
            call(lib.poise_gyro_process, self._live(), _arrays.number("time", time), _arrays.pointer(g, c_double_p),
                 None if a is None else _arrays.pointer(a, c_double_p), None if u is None else _arrays.pointer(u, c_double_p),
                 ctypes.byref(out))
        return {"time": out.time, "yaw": out.yaw, "pitch": out.pitch, "flags": _flags(out.flags)}

    def take_frame(self) -> Dict[str, Any]:
        """The camera turn since the previous call: yaw, pitch (degrees), whole mouse counts
        (x right, y down), the sample count and the flags."""
        frame = GyroFrame()
        with self._lock:
            call(lib.poise_gyro_take_frame, self._live(), ctypes.byref(frame))
        return {"yaw": frame.yaw, "pitch": frame.pitch, "counts": (frame.counts_x, frame.counts_y),
                "samples": frame.samples, "flags": _flags(frame.flags)}

    @property
    def calibration(self):
        """The calibration state to save: bias (rad/s), uncertainty, time, calibrated."""
        c = GyroCalibrationStruct()
        with self._lock:
            call(lib.poise_gyro_get_calibration, self._live(), ctypes.byref(c))
        return {"bias": tuple(c.bias), "uncertainty": c.uncertainty, "time": c.time, "calibrated": bool(c.calibrated)}

    @calibration.setter
    def calibration(self, state):
        c = GyroCalibrationStruct((ctypes.c_double * 3)(*state["bias"]), state["uncertainty"], state["time"],
                                  1 if state["calibrated"] else 0)
        with self._lock:
            call(lib.poise_gyro_set_calibration, self._live(), ctypes.byref(c))

    def reset(self) -> None:
        with self._lock:
            call(lib.poise_gyro_reset, self._live())


class Flick(Handle):
    """Flick stick. Settings as the C `poise_flick_settings`: threshold, release_threshold,
    flick_time (s), rotation_smoothing_threshold (deg/s), rotation_smoothing_time_constant (s)."""

    _kind = "Flick"

    def __init__(self, **settings: Any) -> None:
        struct = _arrays.fill(FlickSettingsStruct(), lib.poise_flick_settings_default, settings, "flick")
        super().__init__(create(lib.poise_flick_create, ctypes.byref(struct)), lib.poise_flick_destroy)

    def update(self, stick_x: float, stick_y: float, dt: float) -> float:
        """One frame: the stick (x right, y forward, -1..1) and the frame's duration (s); returns
        the camera yaw turn in degrees (positive = right)."""
        yaw = ctypes.c_double()
        with self._lock:
            call(lib.poise_flick_update, self._live(), _arrays.number("stick_x", stick_x),
                 _arrays.number("stick_y", stick_y), _arrays.number("dt", dt), ctypes.byref(yaw))
        return yaw.value

    def reset(self) -> None:
        with self._lock:
            call(lib.poise_flick_reset, self._live())
