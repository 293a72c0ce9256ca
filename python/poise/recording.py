"""`poise.read`: any recording the `poise` tool reads, as numpy arrays in the core's units.

Formats: Poise's CSV and its dialects (BROAD, x-io Fusion, phyphox, EuRoC, Xsens MT Manager,
CoreMotion, x-IMU3 files, any CSV with `columns=`), Sensor Logger and phyphox folders and zips,
x-IMU3 sessions, ROS 1 bags and MCAP files with ROS 2 IMU messages. The reading goes through
Poise's readers library (libpoise-readers, include/poise_readers.h), loaded on first use.

Units: time s (origin as in the file); acc g (specific force, +1 g up at rest); gyr rad/s; mag
µT ("au" when the file's unit is unknown); truth quaternions w, x, y, z device -> earth; device
frame (+x right, +y top edge, +z out of the screen).
"""

from __future__ import annotations

import ctypes
import os
from typing import Any, Dict, List, Optional, Union

import numpy as np

from . import _arrays
from ._library import PoiseError, ReadOptionsStruct, ReaderColumn, ReaderInfo, c_double_p, call, create, readers

_HAS = {"time": 1, "acc": 2, "gyr": 4, "mag": 8, "truth": 16, "movement": 32, "mag_arbitrary": 64}
_BUFFER_TOO_SMALL = 7


class Recording:
    """A recording read whole by `poise.read`.

    Attributes
    ----------
    path : str
    format : str
        The format's identifier ("poise", "xsens", "sensorLogger", "ROS 1 bag", "MCAP", …).
    format_name : str
        The format in words.
    times : ndarray, shape (N,)
        Seconds, as the file gives them (row / rate for a file without a time column).
    acc, gyr, mag : ndarray, shape (N, 3), or None
        g, rad/s, µT (see `units`), device frame; None when the recording does not have the
        sensor. A sample without a value the recording has elsewhere holds NaN.
    truth : ndarray, shape (N, 4), or None
        The file's reference attitude, w, x, y, z device -> earth (NaN where a row has none).
    movement : ndarray of bool, shape (N,), or None
        The file's moving/still mask.
    units : dict
        The unit of each array: times "s", acc "g", gyr "rad/s", mag "uT" or "au".
    columns : list of dict
        The file's columns as read: name, unit (in the file) and meaning ("time",
        "acceleration[0]", …).
    rate : float or None
        The nominal sample rate, Hz: 1 / the median positive interval of `times` (None with
        fewer than two distinct times).
    issues : list of str
        Problems met and repaired (lenient reading), "file:line:column: what [kind, action]".
    rows_dropped, rows_repaired : int
    """

    path: str
    format: str
    format_name: str
    times: np.ndarray
    acc: Optional[np.ndarray]
    gyr: Optional[np.ndarray]
    mag: Optional[np.ndarray]
    truth: Optional[np.ndarray]
    movement: Optional[np.ndarray]
    units: Dict[str, str]
    columns: List[Dict[str, str]]
    rate: Optional[float]
    issues: List[str]
    rows_dropped: int
    rows_repaired: int

    def __len__(self) -> int:
        return int(self.times.shape[0])

    def __repr__(self) -> str:
        sensors = [name for name in ("acc", "gyr", "mag", "truth", "movement") if getattr(self, name) is not None]
        rate = "unknown rate" if self.rate is None else f"{self.rate:.6g} Hz"
        return f"<poise.Recording {self.path!r}: {len(self)} samples, {self.format_name}, {rate}, {', '.join(sensors)}>"

    def column_names(self) -> List[str]:
        """The column names of `poise convert`'s output for this recording (t_s, acc_x_g, …)."""
        names = ["t_s"]
        if self.acc is not None:
            names += ["acc_x_g", "acc_y_g", "acc_z_g"]
        if self.gyr is not None:
            names += ["gyr_x_radps", "gyr_y_radps", "gyr_z_radps"]
        if self.mag is not None:
            unit = self.units["mag"]
            names += [f"mag_x_{unit}", f"mag_y_{unit}", f"mag_z_{unit}"]
        if self.truth is not None:
            names += ["gt_qw", "gt_qx", "gt_qy", "gt_qz"]
        if self.movement is not None:
            names.append("movement")
        return names

    def to_numpy(self) -> np.ndarray:
        """One (N, columns) float64 array in the order of `column_names()` (movement as 1/0)."""
        parts = [self.times[:, None]]
        for name in ("acc", "gyr", "mag", "truth"):
            array = getattr(self, name)
            if array is not None:
                parts.append(array)
        if self.movement is not None:
            parts.append(self.movement.astype(np.float64)[:, None])
        return np.hstack(parts)

    def to_pandas(self) -> Any:
        """A pandas DataFrame with the columns of `column_names()` (movement as bool).

        Raises
        ------
        ImportError
            pandas is not installed.
        """
        try:
            import pandas
        except ImportError:
            raise ImportError("Recording.to_pandas needs pandas (pip install pandas)") from None
        data: Dict[str, Any] = {"t_s": self.times}
        names = self.column_names()[1:]
        index = 0
        for name, width in (("acc", 3), ("gyr", 3), ("mag", 3), ("truth", 4)):
            array = getattr(self, name)
            if array is not None:
                for k in range(width):
                    data[names[index]] = array[:, k]
                    index += 1
        if self.movement is not None:
            data["movement"] = self.movement
        return pandas.DataFrame(data)


def _option_text(name: str, value: Any) -> Optional[bytes]:
    return None if value is None else _arrays.text(name, value)


def read(path: Union[str, os.PathLike], *, rate: Optional[float] = None, time_unit: Optional[str] = None,
         delimiter: Optional[str] = None, decimal_comma: Optional[bool] = None, topic: Optional[str] = None,
         columns: Optional[str] = None, skip_lines: int = 0, comment: Optional[str] = None, mount: Optional[str] = None,
         apple_accelerometer_sign: bool = False, strict: bool = False, block: int = 65536) -> Recording:
    """Reads a whole recording, in any format the `poise` tool reads.

    Parameters
    ----------
    path : str or os.PathLike
        A file, a session folder (Sensor Logger, phyphox, x-IMU3) or a zip of one.
    rate : float, optional
        Hz (1 to 100000), for a file without a time column: row n is at n / rate s.
    time_unit : {"s", "ms", "us", "ns"}, optional
        The unit of the time column, overriding its header's.
    delimiter : {"comma", "semicolon", "tab"}, optional
        Default: detected from the header.
    decimal_comma : bool, optional
        Numbers use a decimal comma (9,81); default: detected.
    topic : str, optional
        ROS bag / MCAP: the IMU topic (default the first).
    columns : str, optional
        Explicit column mapping, as ``poise --columns`` (``"t=time:ns,acc=ax,ay,az:mps2"``).
    skip_lines : int
        Lines before a CSV header to skip (0 to 1000000).
    comment : str, optional
        Comment-line prefixes, comma-separated.
    mount : str, optional
        How the sensor is mounted, as ``poise --mount`` (``"x=-y,y=x,z=z"``).
    apple_accelerometer_sign : bool
        The file's accelerometer reads -1 g up at rest (Apple's raw sign); negate it.
    strict : bool
        Any bad row is an error (default: repaired or left out, and listed in `issues`).
    block : int
        Samples read per C call.

    Returns
    -------
    Recording

    Raises
    ------
    PoiseError
        A file that cannot be read (with the file, line or byte and what is wrong), or an
        option out of range (naming it).
    TypeError, ValueError
        An argument of the wrong type or value (naming it).
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    path = os.fspath(path)
    if isinstance(block, bool) or not isinstance(block, int) or not 1 <= block <= 1 << 24:
        raise ValueError(f"block must be an int from 1 to {1 << 24}, got {block!r}")
    if isinstance(skip_lines, bool) or not isinstance(skip_lines, int) or not 0 <= skip_lines <= 1_000_000:
        raise ValueError(f"skip_lines must be an int from 0 to 1000000, got {skip_lines!r}")
    options = ReadOptionsStruct()
    call(readers.poise_read_options_default, ctypes.byref(options))
    # The bytes must outlive the call: the struct holds pointers into them.
    texts = {name: _option_text(name, value) for name, value in
             (("time_unit", time_unit), ("delimiter", delimiter), ("topic", topic), ("columns", columns),
              ("comment", comment), ("mount", mount))}
    for name, value in texts.items():
        setattr(options, name, value)
    if rate is not None:
        options.sample_rate = _arrays.number("rate", rate)
    if decimal_comma is not None:
        options.decimal_comma = 1 if _flag("decimal_comma", decimal_comma) else 0
    options.skip_lines = skip_lines
    options.apple_accelerometer_sign = int(_flag("apple_accelerometer_sign", apple_accelerometer_sign))
    options.strict = int(_flag("strict", strict))
    handle = create(readers.poise_reader_open, _arrays.text("path", path), ctypes.byref(options))
    try:
        return _read_all(handle, path, block)
    finally:
        readers.poise_reader_destroy(handle, None)


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__}")
    return bool(value)


def _read_all(handle: int, path: str, block: int) -> Recording:
    info = ReaderInfo()
    call(readers.poise_reader_get_info, handle, ctypes.byref(info))
    has = info.has
    wanted = {"acc": (has & _HAS["acc"], 3), "gyr": (has & _HAS["gyr"], 3), "mag": (has & _HAS["mag"], 3),
              "truth": (has & _HAS["truth"], 4)}
    chunks: Dict[str, List[np.ndarray]] = {name: [] for name in ("times", "acc", "gyr", "mag", "truth", "movement")}
    count = ctypes.c_size_t()
    while True:
        t = np.empty(block)
        arrays = {name: np.empty((block, width)) if present else None for name, (present, width) in wanted.items()}
        moving = np.empty(block, dtype=np.uint8) if has & _HAS["movement"] else None

        def p(array):
            return None if array is None else array.ctypes.data_as(c_double_p)
        call(readers.poise_reader_read, handle, block, p(t), p(arrays["acc"]), p(arrays["gyr"]), p(arrays["mag"]),
             p(arrays["truth"]), None if moving is None else moving.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8)),
             ctypes.byref(count))
        n = count.value
        if n == 0:
            break
        chunks["times"].append(t[:n])
        for name, array in arrays.items():
            if array is not None:
                chunks[name].append(array[:n])
        if moving is not None:
            chunks["movement"].append(moving[:n])
    call(readers.poise_reader_get_info, handle, ctypes.byref(info))

    def joined(name, shape):
        parts = chunks[name]
        return np.concatenate(parts) if parts else np.empty(shape)
    recording = Recording()
    recording.path = path
    recording.format = info.format.decode("utf-8", "replace")
    recording.format_name = info.format_name.decode("utf-8", "replace")
    recording.times = joined("times", (0,))
    for name, (present, width) in wanted.items():
        setattr(recording, name, joined(name, (0, width)) if present else None)
    recording.movement = joined("movement", (0,)).astype(bool) if has & _HAS["movement"] else None
    recording.units = {"times": "s", "acc": "g", "gyr": "rad/s", "mag": "au" if has & _HAS["mag_arbitrary"] else "uT"}
    recording.columns = []
    column = ReaderColumn()
    for index in range(info.column_count):
        call(readers.poise_reader_get_column, handle, index, ctypes.byref(column))
        recording.columns.append({"name": column.name.decode("utf-8", "replace"), "unit": column.unit.decode("utf-8", "replace"),
                                  "meaning": column.meaning.decode("utf-8", "replace")})
    recording.issues = _issues(handle)
    recording.rows_dropped = info.rows_dropped
    recording.rows_repaired = info.rows_repaired
    from .metrics import nominal_rate
    try:
        recording.rate = nominal_rate(recording.times)
    except ValueError:
        recording.rate = None
    return recording


def _issues(handle: int) -> List[str]:
    needed = ctypes.c_size_t()
    readers.poise_reader_issues(handle, None, 0, ctypes.byref(needed), None)
    text = ctypes.create_string_buffer(max(needed.value, 1))
    call(readers.poise_reader_issues, handle, text, len(text), None)
    return [line for line in text.value.decode("utf-8", "replace").split("\n") if line]


__all__ = ["PoiseError", "Recording", "read"]
