"""Loading libpoise and the ctypes declarations of include/poise.h."""

import ctypes
import ctypes.util
import os
import subprocess
import threading

c_double_p = ctypes.POINTER(ctypes.c_double)
c_float_p = ctypes.POINTER(ctypes.c_float)
c_uint32_p = ctypes.POINTER(ctypes.c_uint32)

STATUS_NAMES = {
    0: "POISE_OK", 1: "POISE_ERROR_NULL_ARGUMENT", 2: "POISE_ERROR_INVALID_ARGUMENT",
    3: "POISE_ERROR_NON_FINITE", 4: "POISE_ERROR_PARSE", 5: "POISE_ERROR_INVALID_HANDLE",
    6: "POISE_ERROR_STATE", 7: "POISE_ERROR_BUFFER_TOO_SMALL",
}
ERROR_INVALID_HANDLE = 5


class PoiseError(ValueError):
    """A call into libpoise failed; `code` is the poise_status, `status` its name."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.status = STATUS_NAMES.get(code, "POISE_ERROR_UNKNOWN")


class Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int32), ("message", ctypes.c_char * 256)]


class FusionConfigStruct(ctypes.Structure):
    _fields_ = [
        ("sample_rate", ctypes.c_double), ("earth_frame", ctypes.c_int32), ("reference", ctypes.c_int32),
        ("declination", ctypes.c_double), ("accelerometer_time_constant", ctypes.c_double),
        ("magnetometer_time_constant", ctypes.c_double), ("motion_bias_estimation", ctypes.c_int32),
        ("rest_bias_estimation", ctypes.c_int32), ("magnetic_disturbance_rejection", ctypes.c_int32),
        ("bias_sigma_initial", ctypes.c_double), ("bias_forgetting_time", ctypes.c_double),
        ("bias_clip", ctypes.c_double), ("bias_sigma_motion", ctypes.c_double),
        ("bias_vertical_forgetting_factor", ctypes.c_double), ("bias_sigma_rest", ctypes.c_double),
        ("rest_minimum_time", ctypes.c_double), ("rest_filter_time_constant", ctypes.c_double),
        ("rest_gyroscope_threshold", ctypes.c_double), ("rest_accelerometer_threshold", ctypes.c_double),
        ("magnetic_current_time_constant", ctypes.c_double), ("magnetic_reference_time_constant", ctypes.c_double),
        ("magnetic_norm_threshold", ctypes.c_double), ("magnetic_dip_threshold", ctypes.c_double),
        ("magnetic_new_field_time", ctypes.c_double), ("magnetic_new_first_field_time", ctypes.c_double),
        ("magnetic_new_field_minimum_rate", ctypes.c_double), ("magnetic_minimum_undisturbed_time", ctypes.c_double),
        ("magnetic_maximum_rejection_time", ctypes.c_double), ("magnetic_rejection_factor", ctypes.c_double),
        ("skip_held_magnetometer_samples", ctypes.c_int32), ("acceleration_rejection_threshold", ctypes.c_double),
        ("maximum_time_step", ctypes.c_double), ("correction_rate", ctypes.c_double),
        ("magnetic_offset_estimation", ctypes.c_int32), ("magnetic_offset_time_constant", ctypes.c_double),
        ("magnetic_offset_minimum_coverage", ctypes.c_double), ("magnetic_offset_maximum_residual", ctypes.c_double),
        ("magnetic_direction_threshold", ctypes.c_double), ("magnetic_direction_time_constant", ctypes.c_double),
        ("magnetic_direction_gain_factor", ctypes.c_double), ("output_prediction", ctypes.c_double),
        ("fixed_time_step", ctypes.c_int32),
    ]


class Motion(ctypes.Structure):
    _fields_ = [
        ("time", ctypes.c_double), ("attitude", ctypes.c_double * 4), ("gravity", ctypes.c_double * 3),
        ("user_acceleration", ctypes.c_double * 3), ("rotation_rate", ctypes.c_double * 3),
        ("bias", ctypes.c_double * 3), ("heading", ctypes.c_double), ("flags", ctypes.c_uint32),
    ]


class FusionOutputs(ctypes.Structure):
    _fields_ = [
        ("attitude", c_double_p), ("gravity", c_double_p), ("user_acceleration", c_double_p),
        ("rotation_rate", c_double_p), ("bias", c_double_p), ("heading", c_double_p), ("flags", c_uint32_p),
    ]


class TiltSettingsStruct(ctypes.Structure):
    _fields_ = [
        ("gravity_time_constant", ctypes.c_double), ("dynamic_recalibration", ctypes.c_int32),
        ("recalibration_angle", ctypes.c_double), ("stillness_rate", ctypes.c_double),
        ("stillness_angle", ctypes.c_double), ("hold_time", ctypes.c_double), ("dead_zone", ctypes.c_double),
        ("saturation", ctypes.c_double), ("curve_exponent", ctypes.c_double),
    ]


class TiltOutput(ctypes.Structure):
    _fields_ = [
        ("time", ctypes.c_double), ("stick_x", ctypes.c_double), ("stick_y", ctypes.c_double),
        ("pitch", ctypes.c_double), ("roll", ctypes.c_double), ("event", ctypes.c_int32),
    ]


class GyroSettingsStruct(ctypes.Structure):
    _fields_ = [
        ("space", ctypes.c_int32), ("hold", ctypes.c_int32), ("sensitivity", ctypes.c_double),
        ("high_sensitivity", ctypes.c_double), ("low_speed", ctypes.c_double), ("high_speed", ctypes.c_double),
        ("pitch_ratio", ctypes.c_double), ("invert_pitch", ctypes.c_int32), ("smoothing_threshold", ctypes.c_double),
        ("smoothing_time_constant", ctypes.c_double), ("continuous_calibration", ctypes.c_int32),
        ("sample_rate", ctypes.c_double), ("maximum_time_step", ctypes.c_double), ("gyroscope_range", ctypes.c_double),
        ("maximum_speed", ctypes.c_double), ("counts_per_degree", ctypes.c_double),
    ]


class GyroOutput(ctypes.Structure):
    _fields_ = [("time", ctypes.c_double), ("yaw", ctypes.c_double), ("pitch", ctypes.c_double), ("flags", ctypes.c_uint32)]


class GyroFrame(ctypes.Structure):
    _fields_ = [
        ("yaw", ctypes.c_double), ("pitch", ctypes.c_double), ("counts_x", ctypes.c_int64), ("counts_y", ctypes.c_int64),
        ("samples", ctypes.c_int64), ("flags", ctypes.c_uint32),
    ]


class GyroCalibrationStruct(ctypes.Structure):
    _fields_ = [("bias", ctypes.c_double * 3), ("uncertainty", ctypes.c_double), ("time", ctypes.c_double),
                ("calibrated", ctypes.c_int32)]


class FlickSettingsStruct(ctypes.Structure):
    _fields_ = [
        ("threshold", ctypes.c_double), ("release_threshold", ctypes.c_double), ("flick_time", ctypes.c_double),
        ("rotation_smoothing_threshold", ctypes.c_double), ("rotation_smoothing_time_constant", ctypes.c_double),
    ]


class JitterResult(ctypes.Structure):
    _fields_ = [
        ("jitter", ctypes.c_double), ("raw_jitter", ctypes.c_double), ("attenuation", ctypes.c_double),
        ("still_seconds", ctypes.c_double), ("evaluated_samples", ctypes.c_int64), ("segment_count", ctypes.c_int64),
    ]


class Alignment(ctypes.Structure):
    _fields_ = [("axis", ctypes.c_int32 * 3), ("sign", ctypes.c_int32 * 3)]


_P = ctypes.c_void_p
_E = ctypes.POINTER(Error)
_S = ctypes.c_size_t
_I = ctypes.c_int32
_D = ctypes.c_double


class ReadOptionsStruct(ctypes.Structure):
    _fields_ = [
        ("sample_rate", ctypes.c_double), ("time_unit", ctypes.c_char_p), ("delimiter", ctypes.c_char_p),
        ("decimal_comma", ctypes.c_int32), ("topic", ctypes.c_char_p), ("columns", ctypes.c_char_p),
        ("skip_lines", ctypes.c_int32), ("comment", ctypes.c_char_p), ("mount", ctypes.c_char_p),
        ("apple_accelerometer_sign", ctypes.c_int32), ("strict", ctypes.c_int32),
    ]


class ReaderInfo(ctypes.Structure):
    _fields_ = [
        ("has", ctypes.c_uint32), ("column_count", ctypes.c_int32), ("rows_delivered", ctypes.c_int64),
        ("rows_dropped", ctypes.c_int64), ("rows_repaired", ctypes.c_int64), ("format", ctypes.c_char * 32),
        ("format_name", ctypes.c_char * 96),
    ]


class ReaderColumn(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 128), ("unit", ctypes.c_char * 32), ("meaning", ctypes.c_char * 32)]


_CORE_FUNCTIONS = [
    ("poise_status_name", ctypes.c_char_p, [_I]),
    ("poise_version", ctypes.c_char_p, []),
    ("poise_api_version", _I, []),
    ("poise_filter_create", _P, [ctypes.c_char_p, _D, _E]),
    ("poise_filter_destroy", _I, [_P, _E]),
    ("poise_filter_reset", _I, [_P, _E]),
    ("poise_filter_process", _I, [_P, c_double_p, _E]),
    ("poise_filter_process_buffer", _I, [_P, c_double_p, _S, _E]),
    ("poise_filter_process_buffer_f", _I, [_P, c_float_p, _S, _E]),
    ("poise_filter_process_into", _I, [_P, c_double_p, c_double_p, _S, _E]),
    ("poise_filter_process_into_f", _I, [_P, c_float_p, c_float_p, _S, _E]),
    ("poise_filter_spec", _I, [_P, ctypes.c_char_p, _S, _E]),
    ("poise_fusion_config_default", _I, [ctypes.POINTER(FusionConfigStruct), _D, _E]),
    ("poise_fusion_config_vqf", _I, [ctypes.POINTER(FusionConfigStruct), _D, _I, _E]),
    ("poise_fusion_config_fast", _I, [ctypes.POINTER(FusionConfigStruct), _D, _I, _E]),
    ("poise_fusion_create", _P, [ctypes.POINTER(FusionConfigStruct), _E]),
    ("poise_fusion_destroy", _I, [_P, _E]),
    ("poise_fusion_reset", _I, [_P, _E]),
    ("poise_fusion_get_config", _I, [_P, ctypes.POINTER(FusionConfigStruct), _E]),
    ("poise_fusion_update", _I, [_P, _D, c_double_p, c_double_p, c_double_p, ctypes.POINTER(Motion), _E]),
    ("poise_fusion_get_motion", _I, [_P, ctypes.POINTER(Motion), _E]),
    ("poise_fusion_set_threads", _I, [_P, _I, _E]),
    ("poise_fusion_get_threads", _I, [_P, ctypes.POINTER(_I), _E]),
    ("poise_fusion_set_saturation_bias_hold_off", _I, [_P, _D, _E]),
    ("poise_fusion_get_saturation_bias_hold_off", _I, [_P, ctypes.POINTER(_D), _E]),
    ("poise_fusion_update_buffer", _I, [_P, _S, c_double_p, c_double_p, c_double_p, c_double_p,
                                        ctypes.POINTER(FusionOutputs), _E]),
    ("poise_fusion_config_offline", _I, [ctypes.POINTER(FusionConfigStruct), _D, _I, _E]),
    ("poise_fusion_smooth", _I, [ctypes.POINTER(FusionConfigStruct), _S, c_double_p, c_double_p, c_double_p, c_double_p,
                                 ctypes.POINTER(FusionOutputs), _E]),
    ("poise_fusion_smooth_with", _I, [_P, _S, c_double_p, c_double_p, c_double_p, c_double_p,
                                      ctypes.POINTER(FusionOutputs), _E]),
    ("poise_fusion_state_size", _S, []),
    ("poise_fusion_save_state", _I, [_P, ctypes.c_void_p, _S, ctypes.POINTER(_S), _E]),
    ("poise_fusion_restore_state", _I, [_P, ctypes.c_void_p, _S, _E]),
    ("poise_tilt_settings_default", _I, [ctypes.POINTER(TiltSettingsStruct), _E]),
    ("poise_tilt_create", _P, [ctypes.POINTER(TiltSettingsStruct), _E]),
    ("poise_tilt_destroy", _I, [_P, _E]),
    ("poise_tilt_reset", _I, [_P, _E]),
    ("poise_tilt_recalibrate", _I, [_P, _E]),
    ("poise_tilt_process_sample", _I, [_P, _D, c_double_p, c_double_p, ctypes.POINTER(TiltOutput), _E]),
    ("poise_tilt_process_attitude", _I, [_P, _D, c_double_p, c_double_p, ctypes.POINTER(TiltOutput), _E]),
    ("poise_gyro_settings_default", _I, [ctypes.POINTER(GyroSettingsStruct), _E]),
    ("poise_gyro_create", _P, [ctypes.POINTER(GyroSettingsStruct), _E]),
    ("poise_gyro_destroy", _I, [_P, _E]),
    ("poise_gyro_reset", _I, [_P, _E]),
    ("poise_gyro_process", _I, [_P, _D, c_double_p, c_double_p, c_double_p, ctypes.POINTER(GyroOutput), _E]),
    ("poise_gyro_take_frame", _I, [_P, ctypes.POINTER(GyroFrame), _E]),
    ("poise_gyro_calibration_begin", _I, [_P, _E]),
    ("poise_gyro_calibration_end", _I, [_P, _D, ctypes.POINTER(ctypes.c_int32), _E]),
    ("poise_gyro_get_calibration", _I, [_P, ctypes.POINTER(GyroCalibrationStruct), _E]),
    ("poise_gyro_set_calibration", _I, [_P, ctypes.POINTER(GyroCalibrationStruct), _E]),
    ("poise_flick_settings_default", _I, [ctypes.POINTER(FlickSettingsStruct), _E]),
    ("poise_flick_create", _P, [ctypes.POINTER(FlickSettingsStruct), _E]),
    ("poise_flick_destroy", _I, [_P, _E]),
    ("poise_flick_reset", _I, [_P, _E]),
    ("poise_flick_update", _I, [_P, _D, _D, _D, c_double_p, _E]),
    ("poise_nominal_rate", _I, [c_double_p, _S, c_double_p, _E]),
    ("poise_alignment_parse", _I, [ctypes.c_char_p, _I, ctypes.POINTER(Alignment), _E]),
    ("poise_alignment_apply", _I, [ctypes.POINTER(Alignment), c_double_p, _S, _E]),
    ("poise_alignment_apply_attitudes", _I, [ctypes.POINTER(Alignment), c_double_p, _S, _E]),
    ("poise_latency90", _I, [ctypes.c_char_p, _D, _I, c_double_p, ctypes.POINTER(ctypes.c_int64), _E]),
    ("poise_calibration_load", _P, [ctypes.c_char_p, _E]),
    ("poise_calibration_destroy", _I, [_P, _E]),
    ("poise_calibration_get", _I, [_P, _I, ctypes.POINTER(_I), c_double_p, c_double_p, _E]),
    ("poise_calibration_apply", _I, [_P, c_double_p, c_double_p, c_double_p, _S, _E]),
    ("poise_jitter", _I, [c_double_p, c_double_p, c_double_p, _S, ctypes.POINTER(ctypes.c_int64), _S, _D,
                          ctypes.POINTER(JitterResult), _E]),
]

_READER_FUNCTIONS = [
    ("poise_read_options_default", _I, [ctypes.POINTER(ReadOptionsStruct), _E]),
    ("poise_reader_open", _P, [ctypes.c_char_p, ctypes.POINTER(ReadOptionsStruct), _E]),
    ("poise_reader_destroy", _I, [_P, _E]),
    ("poise_reader_get_info", _I, [_P, ctypes.POINTER(ReaderInfo), _E]),
    ("poise_reader_get_column", _I, [_P, _I, ctypes.POINTER(ReaderColumn), _E]),
    ("poise_reader_read", _I, [_P, _S, c_double_p, c_double_p, c_double_p, c_double_p, c_double_p,
                               ctypes.POINTER(ctypes.c_uint8), ctypes.POINTER(_S), _E]),
    ("poise_reader_issues", _I, [_P, ctypes.c_char_p, _S, ctypes.POINTER(_S), _E]),
]

API_VERSION = 5  # include/poise.h's POISE_API_VERSION this package's structs follow


def _here():
    return os.path.dirname(os.path.abspath(__file__))


def _pkg_config_libdir():
    try:
        return subprocess.run(["pkg-config", "--variable=libdir", "poise"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _candidates(variable, soname, beside=None):
    """Paths to try for a library: the environment variable alone when it is set; else next to
    the package, next to `beside` (a library already loaded), pkg-config's libdir, the system's
    search, /usr/local and ~/.local."""
    env = os.environ.get(variable)
    if env:
        yield env
        return
    for name in (soname, soname[:-2]):
        yield os.path.join(_here(), name)
    if beside:
        yield os.path.join(os.path.dirname(beside), soname)
    libdir = _pkg_config_libdir()
    if libdir:
        yield os.path.join(libdir, soname)
    found = ctypes.util.find_library(soname[3:-5])
    if found:
        yield found
    yield soname
    for prefix in ("/usr/local", os.path.expanduser("~/.local")):
        yield os.path.join(prefix, "lib", soname)


def _open(variable, soname, functions, advice, beside=None):
    tried = []
    for path in _candidates(variable, soname, beside):
        if os.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            library = ctypes.CDLL(path)
        except OSError as error:
            tried.append(f"{path} ({error})")
            continue
        for name, restype, argtypes in functions:
            try:
                function = getattr(library, name)
            except AttributeError:
                raise ImportError(f"poise: {path} has no function {name}; it is older than this package. "
                                  f"Install the library built from the same source as the package") from None
            function.restype = restype
            function.argtypes = list(argtypes)
        library._poise_path = path
        return library
    raise ImportError(f"poise: {soname} not found; {advice}, or set {variable} to its path. Tried: " + "; ".join(tried))


def _load_core():
    library = _open("POISE_LIBRARY", f"libpoise.so.{API_VERSION}", _CORE_FUNCTIONS,
                    "install the C library (make install PREFIX=...) and set PKG_CONFIG_PATH=PREFIX/lib/pkgconfig "
                    "(a PREFIX other than /usr/local and ~/.local)")
    if library.poise_api_version() != API_VERSION:
        raise ImportError(f"poise: the loaded C library has API version {library.poise_api_version()}, this package "
                          f"needs {API_VERSION}; install the library built from the same source as the package")
    return library


def _load_readers():
    return _open("POISE_READERS_LIBRARY", "libpoise-readers.so.0", _READER_FUNCTIONS,
                 "install the readers library (make install PREFIX=...; it sits next to libpoise)",
                 beside=getattr(lib._get(), "_poise_path", None))


class _LazyLibrary:
    """A C library loaded on first use (an attribute lookup), once, under a lock: importing
    poise or poise.batch needs no library; the first call that needs one loads it, and a
    library that cannot be found raises ImportError with the paths tried."""

    def __init__(self, loader):
        self._loader = loader
        self._library = None
        self._lock = threading.Lock()

    def _get(self):
        if self._library is None:
            with self._lock:
                if self._library is None:
                    self._library = self._loader()
        return self._library

    def __getattr__(self, name):
        return getattr(self._get(), name)


lib = _LazyLibrary(_load_core)
readers = _LazyLibrary(_load_readers)


def call(function, *args):
    """Calls a status-returning function with a fresh poise_error; raises PoiseError on failure."""
    error = Error()
    status = function(*args, ctypes.byref(error))
    if status != 0:
        raise PoiseError(status, error.message.decode("utf-8", "replace"))


def create(function, *args):
    """Calls a handle-returning create function; raises PoiseError on NULL."""
    error = Error()
    handle = function(*args, ctypes.byref(error))
    if not handle:
        raise PoiseError(error.code, error.message.decode("utf-8", "replace"))
    return handle
