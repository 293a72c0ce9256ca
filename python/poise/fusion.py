"""Device-motion fusion (VQF): `poise.fuse` for arrays, `poise.Fusion` for streams."""

import ctypes

import numpy as np

from . import _arrays
from ._handle import Handle
from ._library import FusionConfigStruct, FusionOutputs, Motion, c_double_p, c_uint32_p, call, create, lib

FRAMES = {"enu": 0, "ned": 1, "nwu": 2}
REFERENCES = {"arbitrary": 0, "arbitrary-corrected": 1, "magnetic-north": 2, "true-north": 3}
FLAGS = {"at_rest": 1, "magnetic_disturbance": 2, "acceleration_rejected": 4, "time_gap": 8, "invalid_input": 16,
         "time_not_increasing": 32}
_FIELDS = [name for name, _ in FusionConfigStruct._fields_]


class FusionConfig:
    """The settings of the fusion: the fields of the C `poise_fusion_config` (the Swift
    `DeviceMotionConfiguration`), e.g. `accelerometer_time_constant` (s), `bias_sigma_rest`
    (deg/s), `correction_rate` (Hz, 0 = every sample), `output_prediction` (s: the outputs are the
    attitude carried this far past each sample's time with its rate, for the gyroscope's delay;
    0 by default and in "vqf": the attitude at the sample's time).

    mode "9d" (magnetometer; reference "magnetic-north" unless given) or "6d"; frame "enu",
    "ned" or "nwu"; preset "poise" (Poise's defaults), "fast" (the speed preset: 5-Hz
    corrections where the defaults have 10 Hz, whatever the defaults become), "vqf" (VQF's
    published defaults: with them the outputs equal the `vqf` package's) or "offline" (the
    offline smoother's: Poise's defaults with magnetometer_time_constant 20 s and no
    field-direction test, magnetic_direction_threshold 0;
    `fuse(..., offline=True)` starts from it)."""

    def __init__(self, rate=100.0, mode="9d", reference=None, frame="enu", preset="poise", **settings):
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
        for name, value in settings.items():
            if name not in _FIELDS or name in ("sample_rate", "reference", "earth_frame"):
                raise TypeError(f"unknown fusion setting {name!r}; settings are {', '.join(_FIELDS[3:])}")
            _arrays.set_setting(struct, name, value)
        self._struct = struct
        self.mode = mode

    def __getattr__(self, name):
        if name in _FIELDS:
            return getattr(self._struct, name)
        raise AttributeError(name)

    def as_dict(self):
        return {name: getattr(self._struct, name) for name in _FIELDS}

    def __repr__(self):
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
    """Arrays of one fused run, one row per sample: quaternion (N, 4) w, x, y, z device ->
    earth; gravity (N, 3) up in the device frame, unit (g); user_acceleration (N, 3) g, device
    frame; rotation_rate and bias (N, 3) rad/s, device frame; heading (N,) degrees clockwise
    from north (NaN in 6D); flags (N,) uint32 bits (see poise.FLAGS)."""

    SHAPES = {"quaternion": 4, "gravity": 3, "user_acceleration": 3, "rotation_rate": 3, "bias": 3,
              "heading": None, "flags": None}

    def __init__(self, count, outputs=None):
        """Arrays for `outputs` (names of SHAPES; default all); the others are None and are
        not computed."""
        names = tuple(self.SHAPES) if outputs is None else tuple(outputs)
        unknown = [name for name in names if name not in self.SHAPES]
        if unknown:
            raise ValueError(f"unknown fusion outputs {unknown}; choose from {list(self.SHAPES)}")
        for name, width in self.SHAPES.items():
            if name not in names:
                array = None
            elif name == "flags":
                array = np.empty(count, dtype=np.uint32)
            else:
                array = np.empty(count if width is None else (count, width))
            setattr(self, name, array)

    def outputs(self):
        def p(array, kind=c_double_p):
            return None if array is None else _arrays.pointer(array, kind)
        return FusionOutputs(p(self.quaternion), p(self.gravity), p(self.user_acceleration), p(self.rotation_rate),
                             p(self.bias), p(self.heading), p(self.flags, c_uint32_p))

    def flag(self, name):
        """Boolean (N,) array of one flag ("at_rest", "magnetic_disturbance", …)."""
        return (self.flags & FLAGS[name]) != 0


class Fusion(Handle):
    """A streaming estimator: `update` one sample at a time, or `update_batch` arrays; the state
    carries over. Units: time s; acc g (specific force, +1 g up at rest); gyr rad/s; mag any
    unit (µT); device frame. Non-finite samples are skipped and flagged, never raised."""

    _kind = "Fusion"

    def __init__(self, rate=100.0, mode="9d", config=None, **settings):
        self.config = config if config is not None else FusionConfig(rate, mode, **settings)
        handle = create(lib.poise_fusion_create, ctypes.byref(self.config._struct))
        super().__init__(handle, lib.poise_fusion_destroy)

    def update(self, time, acc, gyr, mag=None):
        """One sample; returns a dict with time, quaternion, gravity, user_acceleration,
        rotation_rate, bias (numpy arrays), heading and flags."""
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

    def update_batch(self, acc, gyr, mag=None, times=None, outputs=None):
        """Arrays (N, 3) (mag may be None); times (N,) s, default row / rate continuing from 0.
        Returns a FusionResult with the arrays named in `outputs` (default all; the others are
        None and cost nothing). One C call for the whole batch; from 32,768 samples it uses a
        second thread during the call when a processor is free, with the same results
        (POISE_FUSION_THREADS=1 in the environment keeps it on one; docs/embedding.md
        "Threads")."""
        count, a, g, m, t = _batch_arrays(acc, gyr, mag, times, self.config.sample_rate)
        result = FusionResult(count, outputs)
        pointers = result.outputs()
        with self._lock:
            call(lib.poise_fusion_update_buffer, self._live(), count, _arrays.pointer(t, c_double_p),
                 _arrays.pointer(a, c_double_p), _arrays.pointer(g, c_double_p),
                 None if m is None else _arrays.pointer(m, c_double_p), ctypes.byref(pointers))
        result.times = t
        return result

    def save_state(self):
        """The complete state as bytes (same library build and configuration only)."""
        size = lib.poise_fusion_state_size()
        buffer = ctypes.create_string_buffer(size)
        with self._lock:
            call(lib.poise_fusion_save_state, self._live(), buffer, size, None)
        return buffer.raw

    def restore_state(self, state):
        """Continues from bytes of save_state; PoiseError (state unchanged) when they do not fit."""
        if not isinstance(state, (bytes, bytearray)):
            raise TypeError(f"state must be bytes, got {type(state).__name__}")
        data = bytes(state)
        with self._lock:
            call(lib.poise_fusion_restore_state, self._live(), data, len(data))

    def reset(self):
        with self._lock:
            call(lib.poise_fusion_reset, self._live())


def fuse(acc, gyr, mag=None, rate=100.0, mode="9d", times=None, config=None, outputs=None, calibration=None,
         offline=False, **settings):
    """Fuses whole recordings: acc (N, 3) g, gyr (N, 3) rad/s, mag (N, 3) µT (needed for "9d"),
    times (N,) s (default row / rate). Returns a FusionResult (quaternion, gravity,
    user_acceleration, rotation_rate, bias, heading, flags); `outputs` names the ones to
    compute (e.g. ("quaternion",); default all, the others are None). `settings` override
    FusionConfig fields, e.g. preset="vqf" or correction_rate=0. `calibration` (a
    poise.Calibration, or a path or JSON text for Calibration.load) is applied to the samples
    first, as `poise fuse --calibration`. `offline=True`: the offline smoother (each sample's
    attitude from the whole recording: the gyroscope's scale and axis errors fitted to it, then
    forward and backward passes, then a zero-phase inclination; `poise fuse --offline`),
    starting from preset "offline" unless a preset or config is given; one C call
    (poise_fusion_smooth) keeping 240 bytes per sample while it runs."""
    if offline and config is None:
        settings.setdefault("preset", "offline")
    cfg = config if config is not None else FusionConfig(rate, mode, **settings)
    if cfg.mode == "9d" and mag is None:
        raise ValueError("mode '9d' needs mag; pass mode='6d' without a magnetometer")
    if calibration is not None:
        from .calibration import Calibration
        loaded = calibration if isinstance(calibration, Calibration) else Calibration.load(calibration)
        acc, gyr, mag = loaded.apply(acc, gyr, mag)
    if offline:
        return _smooth(cfg, acc, gyr, mag if cfg.mode == "9d" else None, times, outputs)
    with Fusion(config=cfg) as fusion:
        return fusion.update_batch(acc, gyr, mag if cfg.mode == "9d" else None, times, outputs)


def _smooth(cfg, acc, gyr, mag, times, outputs):
    """poise_fusion_smooth over whole arrays."""
    count, a, g, m, t = _batch_arrays(acc, gyr, mag, times, cfg.sample_rate)
    result = FusionResult(count, outputs)
    pointers = result.outputs()
    call(lib.poise_fusion_smooth, ctypes.byref(cfg._struct), count, _arrays.pointer(t, c_double_p),
         _arrays.pointer(a, c_double_p), _arrays.pointer(g, c_double_p),
         None if m is None else _arrays.pointer(m, c_double_p), ctypes.byref(pointers))
    result.times = t
    return result
