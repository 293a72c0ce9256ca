"""Axis remapping and the tilt controller (thumbstick from tilt, with a home pose)."""

from __future__ import annotations

import ctypes
from typing import Any, Dict, Optional

import numpy as np
import numpy.typing as npt

from . import _arrays
from ._handle import Handle
from ._library import Alignment, TiltOutput, TiltSettingsStruct, c_double_p, call, create, lib


def _alignment(text, allow_reflection):
    alignment = Alignment()
    call(lib.poise_alignment_parse, _arrays.text("alignment", text), 1 if allow_reflection else 0, ctypes.byref(alignment))
    return alignment


def remap(vectors: npt.ArrayLike, alignment: str, allow_reflection: bool = False) -> np.ndarray:
    """Vectors (N, 3) remapped by "+A+B+C" notation ("+Y-X+Z": new x = +y, new y = -x,
    new z = +z); returns a new float64 array."""
    data = np.array(_arrays.rows("vectors", vectors, 3), copy=True)
    call(lib.poise_alignment_apply, ctypes.byref(_alignment(alignment, allow_reflection)),
         _arrays.pointer(data, c_double_p), data.shape[0])
    return data


def remap_attitudes(quaternions: npt.ArrayLike, alignment: str) -> np.ndarray:
    """Attitudes (N, 4) w, x, y, z (device -> earth) of the remapped body frame: q * r^-1."""
    data = np.array(_arrays.rows("quaternions", quaternions, 4), copy=True)
    call(lib.poise_alignment_apply_attitudes, ctypes.byref(_alignment(alignment, False)),
         _arrays.pointer(data, c_double_p), data.shape[0])
    return data


class Tilt(Handle):
    """Tilt -> thumbstick with home calibration. Settings (keyword arguments) as the C
    `poise_tilt_settings`: dead_zone and saturation (degrees), curve_exponent,
    gravity_time_constant (s), dynamic_recalibration, recalibration_angle (degrees), …"""

    _kind = "Tilt"
    EVENTS = {0: None, 1: "initial", 2: "requested", 3: "dynamic"}

    def __init__(self, **settings: Any) -> None:
        struct = _arrays.fill(TiltSettingsStruct(), lib.poise_tilt_settings_default, settings, "tilt")
        super().__init__(create(lib.poise_tilt_create, ctypes.byref(struct)), lib.poise_tilt_destroy)

    def _result(self, output):
        return {"time": output.time, "stick": (output.stick_x, output.stick_y), "pitch": output.pitch,
                "roll": output.roll, "event": self.EVENTS.get(output.event)}

    def update(self, time: float, *, acc: Optional[npt.ArrayLike] = None, attitude: Optional[npt.ArrayLike] = None,
               gyr: Optional[npt.ArrayLike] = None) -> Dict[str, Any]:
        """One sample (sensors keyword-only): either acc (3,) in g (gravity path) or attitude (4,) w, x, y, z from a
        fusion; gyr (3,) rad/s or None. Returns time, stick (x, y) in [-1, 1], pitch and roll
        (rad) from home, and the home event."""
        if (acc is None) == (attitude is None):
            raise ValueError("pass exactly one of acc and attitude")
        g = None if gyr is None else _arrays.rows("gyr", gyr, 3, allow_single=True)
        output = TiltOutput()
        with self._lock:
            handle = self._live()
            gp = None if g is None else _arrays.pointer(g, c_double_p)
            if acc is not None:
                a = _arrays.rows("acc", acc, 3, allow_single=True)
                call(lib.poise_tilt_process_sample, handle, _arrays.number("time", time), _arrays.pointer(a, c_double_p), gp,
                     ctypes.byref(output))
            else:
                q = _arrays.rows("attitude", attitude, 4, allow_single=True)
                call(lib.poise_tilt_process_attitude, handle, _arrays.number("time", time), _arrays.pointer(q, c_double_p), gp,
                     ctypes.byref(output))
        return self._result(output)

    def recalibrate(self) -> None:
        """Makes the next sample home."""
        with self._lock:
            call(lib.poise_tilt_recalibrate, self._live())

    def reset(self) -> None:
        with self._lock:
            call(lib.poise_tilt_reset, self._live())
