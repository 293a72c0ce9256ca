"""Filter metrics: latency to 90 % of a step and jitter on still segments; a recording's rate."""

from __future__ import annotations

import ctypes
from typing import Dict, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _arrays
from ._library import JitterResult, c_double_p, call, lib

STEPS = {"tilt": 0, "shake": 1}


def nominal_rate(times: npt.ArrayLike) -> float:
    """The rate, Hz, Poise's commands set a recording with these `times` (s, row order) up for:
    1 / the median positive interval of the first 2048 rows (docs/conventions.md). Raises
    PoiseError when those rows have no increasing pair of times."""
    t = _arrays.column("times", times)
    rate = ctypes.c_double()
    call(lib.poise_nominal_rate, _arrays.pointer(t, c_double_p) if t.size else None, t.size, ctypes.byref(rate))
    return rate.value


def latency90(spec: str, rate: float, step: str = "tilt") -> float:
    """Milliseconds until a fresh filter of `spec` at `rate` Hz covers 90 % of a standard step
    ("tilt": gravity turns by 90 degrees; "shake": 1 g -> 1.5 g); NaN when never reached."""
    if step not in STEPS:
        raise ValueError(f"step must be 'tilt' or 'shake', got {step!r}")
    milliseconds = ctypes.c_double()
    text, rate = _arrays.text("spec", spec), _arrays.number("rate", rate)
    call(lib.poise_latency90, text, rate, STEPS[step],
         ctypes.byref(milliseconds), None)
    return milliseconds.value


def jitter(*, output: npt.ArrayLike, input: npt.ArrayLike, times: npt.ArrayLike,
           segments: Optional[Sequence[Tuple[int, int]]] = None, window: float = 1.0) -> Dict[str, Union[float, int]]:
    """Jitter (every argument keyword-only: output and input cannot be swapped by position) of `output` against `input` ((N, 3) each) over still `segments` (a sequence of
    (start, end) row ranges; None = all rows): RMS of |y - centred moving mean| in the input's
    unit. Returns a dict: jitter, raw_jitter, attenuation, still_seconds, evaluated_samples,
    segment_count."""
    y = _arrays.rows("output", output, 3)
    x = _arrays.rows("input", input, 3)
    if x.shape != y.shape:
        raise ValueError(f"output {y.shape} and input {x.shape} differ in shape")
    t = _arrays.column("times", times, y.shape[0])
    pairs = None
    count = 0
    if segments is not None:
        flat = np.ascontiguousarray(np.asarray(segments, dtype=np.int64).reshape(-1, 2))
        count = flat.shape[0]
        pairs = flat.ctypes.data_as(ctypes.POINTER(ctypes.c_int64)) if count else None
    result = JitterResult()
    call(lib.poise_jitter, _arrays.pointer(y, c_double_p), _arrays.pointer(x, c_double_p),
         _arrays.pointer(t, c_double_p), y.shape[0], pairs, count, _arrays.number("window", window), ctypes.byref(result))
    return {name: getattr(result, name) for name, _ in JitterResult._fields_}
