"""Sensor calibration made by `poise calibrate` (docs/calibration.md): for each sensor it
covers, calibrated = matrix @ (raw - offset)."""

from __future__ import annotations

import ctypes
import os
from typing import Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _arrays
from ._handle import Handle
from ._library import c_double_p, call, create, lib

SENSORS = {"accelerometer": 0, "gyroscope": 1, "magnetometer": 2}


class Calibration(Handle):
    """A loaded calibration. `Calibration.load(source)` takes a path (str or os.PathLike) or
    the JSON text itself; errors raise PoiseError with the line and column of a syntax error or
    the member that is wrong."""

    _kind = "Calibration"

    def __init__(self, handle: int) -> None:
        super().__init__(handle, lib.poise_calibration_destroy)

    @classmethod
    def load(cls, source: Union[str, "os.PathLike[str]"]) -> "Calibration":
        if not isinstance(source, (str, os.PathLike)):
            raise TypeError(f"source must be a path or JSON text (str), got {type(source).__name__}")
        return cls(create(lib.poise_calibration_load, _arrays.text("source", os.fspath(source))))

    def sensor(self, name: str) -> Optional[Tuple[np.ndarray, np.ndarray]]:
        """(offset (3,), matrix (3, 3)) of "accelerometer", "gyroscope" or "magnetometer", or
        None when the calibration does not cover it. Units: g, rad/s, µT (or a.u.)."""
        if name not in SENSORS:
            raise ValueError(f"sensor must be one of {', '.join(SENSORS)}, got {name!r}")
        present = ctypes.c_int32()
        offset = np.zeros(3)
        matrix = np.zeros(9)
        with self._lock:
            call(lib.poise_calibration_get, self._live(), SENSORS[name], ctypes.byref(present),
                 _arrays.pointer(offset, c_double_p), _arrays.pointer(matrix, c_double_p))
        return (offset, matrix.reshape(3, 3)) if present.value else None

    def apply(self, *, acc: Optional[npt.ArrayLike] = None, gyr: Optional[npt.ArrayLike] = None,
              mag: Optional[npt.ArrayLike] = None) -> Tuple[Optional[np.ndarray], Optional[np.ndarray], Optional[np.ndarray]]:
        """Calibrated copies (keyword-only) of acc (N, 3) g, gyr (N, 3) rad/s and mag (N, 3); pass None for a
        sensor you do not have (None comes back). A sensor the calibration does not cover is
        returned unchanged. Returns (acc, gyr, mag)."""
        given = [(name, value) for name, value in (("acc", acc), ("gyr", gyr), ("mag", mag)) if value is not None]
        if not given:
            return None, None, None
        arrays = {name: np.array(_arrays.rows(name, value, 3), copy=True) for name, value in given}
        counts = {array.shape[0] for array in arrays.values()}
        if len(counts) != 1:
            raise ValueError("acc, gyr and mag must have the same number of rows")
        pointers = [_arrays.pointer(arrays[name], c_double_p) if name in arrays else None for name in ("acc", "gyr", "mag")]
        with self._lock:
            call(lib.poise_calibration_apply, self._live(), *pointers, counts.pop())
        return arrays.get("acc"), arrays.get("gyr"), arrays.get("mag")
