"""Device-motion fusion (VQF's method with Poise's schedule): `fuse` for whole recordings,
`Fusion` for streams, `FusionConfig` for the settings.

Units everywhere: time s; acc g (specific force, +1 g up at rest); gyr rad/s; mag µT (any unit
works: only its direction is used); device frame (+x right, +y top edge, +z out of the screen).
Quaternions are w, x, y, z and rotate device vectors into the earth frame (ENU by default).
"""

from __future__ import annotations

import ctypes
from typing import Any, Dict, Iterable, Optional, Union

import numpy as np
import numpy.typing as npt

from . import _arrays
from ._handle import Handle
from .metrics import nominal_rate
from ._library import FusionConfigStruct, FusionOutputs, Motion, c_double_p, c_uint32_p, call, create, lib

ArrayLike = npt.ArrayLike

FRAMES = {"enu": 0, "ned": 1, "nwu": 2}
REFERENCES = {"arbitrary": 0, "arbitrary-corrected": 1, "magnetic-north": 2, "true-north": 3}
FLAGS = {"at_rest": 1, "magnetic_disturbance": 2, "acceleration_rejected": 4, "time_gap": 8, "invalid_input": 16,
         "time_not_increasing": 32}
_FIELDS = [name for name, _ in FusionConfigStruct._fields_]


class FusionConfig:
    """The settings of the fusion: the fields of the C `poise_fusion_config` (the Swift
    `DeviceMotionConfiguration`).

    Parameters
    ----------
    rate : float
        Nominal sample rate, Hz (1 to 100000, the range ``poise --rate`` accepts).
    mode : {"9d", "6d"}
        "9d" uses the magnetometer (reference "magnetic-north" unless given); "6d" does not.
    reference : str, optional
        "arbitrary", "arbitrary-corrected", "magnetic-north" or "true-north".
    frame : {"enu", "ned", "nwu"}
        The earth frame of the quaternions.
    preset : {"poise", "fast", "vqf", "offline"}
        "poise": Poise's defaults; "fast": 5-Hz corrections where the defaults have 10 Hz;
        "vqf": VQF's published defaults (the outputs then equal the `vqf` package's);
        "offline": the offline smoother's (magnetometer_time_constant 20 s, no field-direction
        test).
    **settings
        Any field, e.g. ``accelerometer_time_constant`` (s), ``bias_sigma_rest`` (deg/s),
        ``correction_rate`` (Hz, 0 = every sample), ``output_prediction`` (s: the outputs are
        the attitude carried this far past each sample's time; 0 by default and in "vqf").
        ``saturation_bias_hold_off`` (s, 0 to 1e7; not a field of the C struct: the streaming
        estimator sets it with ``poise_fusion_set_saturation_bias_hold_off``): how long after a
        clipped gyroscope sample there is no in-motion bias measurement and no field-direction
        test; 0 = off (as VQF). Left out, it is 0 with ``fixed_time_step`` 1 ("vqf") and 9 s
        otherwise. The offline smoother takes it too (``poise_fusion_smooth_with``).

    Raises
    ------
    ValueError
        A mode, reference, frame or preset that does not exist, or a rate outside 1 to 100000
        Hz (a PoiseError naming ``sample_rate``).
    TypeError
        An unknown setting, or a value of the wrong type.
    """

    def __init__(self, rate: float, mode: str = "9d", reference: Optional[str] = None, frame: str = "enu",
                 preset: str = "poise", **settings: Any) -> None:
        if mode not in ("6d", "9d"):
            raise ValueError(f"mode must be '6d' or '9d', got {mode!r}")
        if reference is None:
            reference = "arbitrary" if mode == "6d" else "magnetic-north"
        if reference not in REFERENCES:
            raise ValueError(f"reference must be one of {sorted(REFERENCES)}, got {reference!r}")
        if (mode == "6d") != (reference == "arbitrary"):
            raise ValueError(f"reference {reference!r} does not fit mode {mode!r}")
        if frame not in FRAMES:
            raise ValueError(f"frame must be one of {sorted(FRAMES)}, got {frame!r}")
        struct = FusionConfigStruct()
        rate = _arrays.number("rate", rate)
        if preset == "vqf":
            call(lib.poise_fusion_config_vqf, ctypes.byref(struct), rate, REFERENCES[reference])
        elif preset == "fast":
            call(lib.poise_fusion_config_fast, ctypes.byref(struct), rate, REFERENCES[reference])
        elif preset == "offline":
            call(lib.poise_fusion_config_offline, ctypes.byref(struct), rate, REFERENCES[reference])
        elif preset == "poise":
            call(lib.poise_fusion_config_default, ctypes.byref(struct), rate)
            struct.reference = REFERENCES[reference]
        else:
            raise ValueError(f"preset must be 'poise', 'fast', 'vqf' or 'offline', got {preset!r}")
        struct.earth_frame = FRAMES[frame]
        hold_off = settings.pop("saturation_bias_hold_off", None)
        #: Seconds, or None for the C rule (0 with fixed_time_step 1, 9 s otherwise).
        self.saturation_bias_hold_off: Optional[float] = None if hold_off is None else _arrays.number(
            "saturation_bias_hold_off", hold_off)
        for name, value in settings.items():
            if name not in _FIELDS or name in ("sample_rate", "reference", "earth_frame"):
                raise TypeError(f"unknown fusion setting {name!r}; settings are {', '.join(_FIELDS[3:])}")
            _arrays.set_setting(struct, name, value)
        self._struct = struct
        self.mode = mode

    def __getattr__(self, name: str) -> Any:
        if name in _FIELDS:
            return getattr(self._struct, name)
        raise AttributeError(name)

    def as_dict(self) -> Dict[str, Any]:
        """Every field and its value, and ``saturation_bias_hold_off`` (None: the C rule)."""
        return {**{name: getattr(self._struct, name) for name in _FIELDS},
                "saturation_bias_hold_off": self.saturation_bias_hold_off}

    def __repr__(self) -> str:
        return f"FusionConfig({self.as_dict()})"


def _batch_arrays(acc, gyr, mag, times, rate):
    """The checked C-ordered arrays of a batch: (count, acc, gyr, mag or None, times); times
    default to row / rate."""
    a = _arrays.rows("acc", acc, 3)
    count = a.shape[0]
    g = _arrays.rows("gyr", gyr, 3)
    if g.shape[0] != count:
        raise ValueError(f"gyr has {g.shape[0]} rows, acc has {count}")
    m = None
    if mag is not None:
        m = _arrays.rows("mag", mag, 3)
        if m.shape[0] != count:
            raise ValueError(f"mag has {m.shape[0]} rows, acc has {count}")
    t = np.arange(count, dtype=np.float64) / rate if times is None else _arrays.column("times", times, count)
    return count, a, g, m, t


class FusionResult:
    """Arrays of one fused run, one row per sample.

    Attributes
    ----------
    times : ndarray, shape (N,)
        Seconds (as given, or row / rate).
    quaternion : ndarray, shape (N, 4)
        w, x, y, z, rotating device vectors into the earth frame.
    gravity : ndarray, shape (N, 3)
        Up in the device frame, unit length (g).
    user_acceleration : ndarray, shape (N, 3)
        Acceleration less gravity, g, device frame.
    rotation_rate, bias : ndarray, shape (N, 3)
        rad/s, device frame (the rate with the bias removed; the gyroscope's bias).
    heading : ndarray, shape (N,)
        Degrees clockwise from north (NaN in 6D).
    flags : ndarray of uint32, shape (N,)
        Bits of `poise.FLAGS`.

    An output not asked for (``outputs=``) is None.
    """

    SHAPES = {"quaternion": 4, "gravity": 3, "user_acceleration": 3, "rotation_rate": 3, "bias": 3,
              "heading": None, "flags": None}

    times: np.ndarray
    quaternion: Optional[np.ndarray]
    gravity: Optional[np.ndarray]
    user_acceleration: Optional[np.ndarray]
    rotation_rate: Optional[np.ndarray]
    bias: Optional[np.ndarray]
    heading: Optional[np.ndarray]
    flags: Optional[np.ndarray]

    def __init__(self, count: int, outputs: Optional[Iterable[str]] = None) -> None:
        names = tuple(self.SHAPES) if outputs is None else tuple(outputs)
        unknown = [name for name in names if name not in self.SHAPES]
        if unknown:
            raise ValueError(f"outputs: unknown fusion outputs {unknown}; choose from {list(self.SHAPES)}")
        for name, width in self.SHAPES.items():
            if name not in names:
                array = None
            elif name == "flags":
                array = np.empty(count, dtype=np.uint32)
            else:
                array = np.empty(count if width is None else (count, width))
            setattr(self, name, array)

    def outputs(self) -> FusionOutputs:
        """The C struct of pointers to the arrays (NULL for those not computed)."""
        def p(array, kind=c_double_p):
            return None if array is None else _arrays.pointer(array, kind)
        return FusionOutputs(p(self.quaternion), p(self.gravity), p(self.user_acceleration), p(self.rotation_rate),
                             p(self.bias), p(self.heading), p(self.flags, c_uint32_p))

    def flag(self, name: str) -> np.ndarray:
        """Boolean (N,) array of one flag ("at_rest", "magnetic_disturbance", …)."""
        if self.flags is None:
            raise ValueError("flags were not computed; include 'flags' in outputs")
        return (self.flags & FLAGS[name]) != 0


def _threads(threads: Any) -> int:
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads not in (1, 2):
        raise ValueError(f"threads must be 1 or 2, got {threads!r}")
    return int(threads)


class Fusion(Handle):
    """A streaming estimator: `update` one sample at a time, or `update_batch` arrays; the state
    carries over.

    Parameters
    ----------
    rate : float
        Nominal sample rate, Hz (1 to 100000). Required unless `config` is given.
    mode : {"9d", "6d"}
        With or without the magnetometer.
    config : FusionConfig, optional
        All settings (then `rate`, `mode` and `settings` are not used).
    threads : {1, 2}
        Threads `update_batch` may use: 1 (default) runs on the calling thread; 2 starts a
        second thread for a batch of 32768 samples or more (with outputs or a magnetometer),
        with the same results bit for bit.
    **settings
        FusionConfig settings.

    Notes
    -----
    Units: time s; acc g (specific force, +1 g up at rest); gyr rad/s; mag µT (any unit);
    device frame. Non-finite samples are skipped and flagged, never raised.
    """

    _kind = "Fusion"

    def __init__(self, rate: Optional[float] = None, mode: str = "9d", *, config: Optional[FusionConfig] = None,
                 threads: int = 1, **settings: Any) -> None:
        if config is None and rate is None:
            raise TypeError("Fusion() needs rate= (the sample rate, Hz) or config=")
        self.config = config if config is not None else FusionConfig(rate, mode, **settings)
        self.threads = _threads(threads)
        handle = create(lib.poise_fusion_create, ctypes.byref(self.config._struct))
        super().__init__(handle, lib.poise_fusion_destroy)
        call(lib.poise_fusion_set_threads, handle, self.threads)
        if self.config.saturation_bias_hold_off is not None:
            call(lib.poise_fusion_set_saturation_bias_hold_off, handle, self.config.saturation_bias_hold_off)

    def update(self, time: float, *, acc: ArrayLike, gyr: ArrayLike, mag: Optional[ArrayLike] = None) -> Dict[str, Any]:
        """One sample.

        Parameters
        ----------
        time : float
            Seconds.
        acc, gyr, mag : array_like, shape (3,)
            g, rad/s, µT (mag may be None), device frame; keyword-only.

        Returns
        -------
        dict
            time, quaternion, gravity, user_acceleration, rotation_rate, bias (numpy arrays),
            heading and flags.
        """
        a = _arrays.rows("acc", acc, 3, allow_single=True)
        g = _arrays.rows("gyr", gyr, 3, allow_single=True)
        m = None if mag is None else _arrays.rows("mag", mag, 3, allow_single=True)
        if a.shape[0] != 1 or g.shape[0] != 1 or (m is not None and m.shape[0] != 1):
            raise ValueError("update takes one sample of 3 values per sensor; use update_batch for arrays")
        motion = Motion()
        with self._lock:
            call(lib.poise_fusion_update, self._live(), _arrays.number("time", time), _arrays.pointer(a, c_double_p),
                 _arrays.pointer(g, c_double_p), None if m is None else _arrays.pointer(m, c_double_p),
                 ctypes.byref(motion))
        return {
            "time": motion.time, "quaternion": np.array(motion.attitude[:]), "gravity": np.array(motion.gravity[:]),
            "user_acceleration": np.array(motion.user_acceleration[:]),
            "rotation_rate": np.array(motion.rotation_rate[:]), "bias": np.array(motion.bias[:]),
            "heading": motion.heading, "flags": motion.flags,
        }

    def update_batch(self, *, acc: ArrayLike, gyr: ArrayLike, mag: Optional[ArrayLike] = None,
                     times: Optional[ArrayLike] = None, outputs: Optional[Iterable[str]] = None) -> FusionResult:
        """Many samples in one C call.

        Parameters
        ----------
        acc, gyr, mag : array_like, shape (N, 3)
            g, rad/s, µT (mag may be None), device frame; keyword-only.
        times : array_like, shape (N,), optional
            Seconds; default row / rate, from 0.
        outputs : iterable of str, optional
            The FusionResult arrays to compute (default all; the others are None and cost
            nothing).

        Returns
        -------
        FusionResult
        """
        count, a, g, m, t = _batch_arrays(acc, gyr, mag, times, self.config.sample_rate)
        result = FusionResult(count, outputs)
        pointers = result.outputs()
        with self._lock:
            call(lib.poise_fusion_update_buffer, self._live(), count, _arrays.pointer(t, c_double_p),
                 _arrays.pointer(a, c_double_p), _arrays.pointer(g, c_double_p),
                 None if m is None else _arrays.pointer(m, c_double_p), ctypes.byref(pointers))
        result.times = t
        return result

    def save_state(self) -> bytes:
        """The complete state as bytes (same library build and configuration only)."""
        size = lib.poise_fusion_state_size()
        buffer = ctypes.create_string_buffer(size)
        with self._lock:
            call(lib.poise_fusion_save_state, self._live(), buffer, size, None)
        return buffer.raw

    def restore_state(self, state: Union[bytes, bytearray]) -> None:
        """Continues from bytes of save_state; PoiseError (state unchanged) when they do not fit."""
        if not isinstance(state, (bytes, bytearray)):
            raise TypeError(f"state must be bytes, got {type(state).__name__}")
        data = bytes(state)
        with self._lock:
            call(lib.poise_fusion_restore_state, self._live(), data, len(data))

    def reset(self) -> None:
        """Starts again from the initial state (settings and threads kept)."""
        with self._lock:
            call(lib.poise_fusion_reset, self._live())


def fuse(*, acc: ArrayLike, gyr: ArrayLike, mag: Optional[ArrayLike] = None, rate: Optional[float] = None,
         times: Optional[ArrayLike] = None, mode: str = "9d", config: Optional[FusionConfig] = None,
         outputs: Optional[Iterable[str]] = None, calibration: Any = None, offline: bool = False, threads: int = 1,
         **settings: Any) -> FusionResult:
    """Fuses a whole recording.

    Every argument is keyword-only, so the sensors cannot be swapped by position (vqf's
    ``VQF.updateBatch`` takes ``(gyr, acc)``, others ``(acc, gyr)``).

    Parameters
    ----------
    acc : array_like, shape (N, 3)
        Specific force, g (+1 g up at rest), device frame.
    gyr : array_like, shape (N, 3)
        Rotation rate, rad/s, device frame.
    mag : array_like, shape (N, 3), optional
        Magnetic field, µT (any unit), device frame; needed for mode "9d".
    rate : float, optional
        Nominal sample rate, Hz (1 to 100000). Required when `times` is not given (row n is
        then at n / rate s); with `times`, the default is their nominal rate (`nominal_rate`).
    times : array_like, shape (N,), optional
        Seconds.
    mode : {"9d", "6d"}
    config : FusionConfig, optional
        All settings (then rate, mode and settings are not used for them).
    outputs : iterable of str, optional
        The FusionResult arrays to compute, e.g. ``("quaternion",)``; default all.
    calibration : poise.Calibration, str or os.PathLike, optional
        Applied to the samples first, as ``poise fuse --calibration``.
    offline : bool
        The offline smoother (each attitude from the whole recording: the gyroscope's scale
        and axis errors fitted, forward and backward passes, a zero-phase inclination;
        ``poise fuse --offline``), from preset "offline" unless a preset or config is given.
    threads : {1, 2}
        1 (default): the calling thread only. 2: a second thread for 32768 samples or more,
        with the same results bit for bit.
    **settings
        FusionConfig settings, e.g. ``preset="vqf"`` or ``correction_rate=0``.

    Returns
    -------
    FusionResult

    Raises
    ------
    TypeError
        No rate and no times, or a sensor given by position.
    ValueError
        Arrays of the wrong shape, a rate outside 1 to 100000 Hz, mode "9d" without mag.
    """
    threads = _threads(threads)
    if config is None and rate is None:
        if times is None:
            raise TypeError("fuse() needs rate= (the sample rate, Hz) when no times= are given")
        rate = nominal_rate(times)
    if offline and config is None:
        settings.setdefault("preset", "offline")
    cfg = config if config is not None else FusionConfig(rate, mode, **settings)
    if cfg.mode == "9d" and mag is None:
        raise ValueError("mode '9d' needs mag; pass mode='6d' without a magnetometer")
    if calibration is not None:
        from .calibration import Calibration
        loaded = calibration if isinstance(calibration, Calibration) else Calibration.load(calibration)
        acc, gyr, mag = loaded.apply(acc=acc, gyr=gyr, mag=mag)
    if offline:
        return _smooth(cfg, acc, gyr, mag if cfg.mode == "9d" else None, times, outputs)
    with Fusion(config=cfg, threads=threads) as fusion:
        return fusion.update_batch(acc=acc, gyr=gyr, mag=mag if cfg.mode == "9d" else None, times=times, outputs=outputs)


def _smooth(cfg, acc, gyr, mag, times, outputs):
    """poise_fusion_smooth over whole arrays (poise_fusion_smooth_with a handle that holds the
    hold-off when `cfg` sets one)."""
    count, a, g, m, t = _batch_arrays(acc, gyr, mag, times, cfg.sample_rate)
    result = FusionResult(count, outputs)
    pointers = result.outputs()
    arrays = (count, _arrays.pointer(t, c_double_p), _arrays.pointer(a, c_double_p), _arrays.pointer(g, c_double_p),
              None if m is None else _arrays.pointer(m, c_double_p), ctypes.byref(pointers))
    if cfg.saturation_bias_hold_off is None:
        call(lib.poise_fusion_smooth, ctypes.byref(cfg._struct), *arrays)
    else:
        with Fusion(config=cfg) as settings:
            call(lib.poise_fusion_smooth_with, settings._live(), *arrays)
    result.times = t
    return result
