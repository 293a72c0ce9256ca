"""`poise.Filter`: a 3-axis filter from a spec string."""

from __future__ import annotations

import ctypes

import numpy as np
import numpy.typing as npt

from . import _arrays
from ._handle import Handle
from ._library import c_double_p, c_float_p, call, create, lib


class Filter(Handle):
    """A 3-axis filter built from a spec string.

    Parameters
    ----------
    spec : str
        "adaptive", "lowpass:cutoff=5", "butter:lowpass,order=2,cutoff=5",
        "oneeuro:mincutoff=1,beta=0.007", … (cutoffs in Hz; see `poise --help`). A NUL
        character is an error.
    rate : float
        Sample rate, Hz, 1 to 100000 (the range ``poise --rate`` accepts).

    Raises
    ------
    PoiseError
        A spec that cannot be parsed (with the column of the bad token), a Butterworth cutoff
        at or above Nyquist, or a rate outside the range (naming ``sample_rate``).
    TypeError, ValueError
        A spec that is not a str or holds a NUL, a rate that is not a number.

    Notes
    -----
    The three columns are filtered independently, in double precision, one nominal period
    (1/rate) per row, in the input's unit. State carries over between calls; `reset()` starts
    again.
    """

    _kind = "Filter"

    def __init__(self, spec: str, rate: float) -> None:
        rate = _arrays.number("rate", rate)
        text = _arrays.text("spec", spec)
        handle = create(lib.poise_filter_create, text, rate)
        super().__init__(handle, lib.poise_filter_destroy)
        self.rate = rate

    @property
    def spec(self) -> str:
        """The normalized spec, e.g. "adaptive:cutoff=5,threshold=0.2"."""
        text = ctypes.create_string_buffer(512)
        with self._lock:
            call(lib.poise_filter_spec, self._live(), text, len(text))
        return text.value.decode("utf-8")

    def process(self, samples: npt.ArrayLike) -> np.ndarray:
        """Filters an (N, 3) array (or one (3,) sample) and returns a new array of the same
        shape. float32 input is filtered in double and returned as float32; other real dtypes
        are converted to float64. A non-finite value raises PoiseError (a ValueError) and
        leaves the filter's state unchanged."""
        array = np.asarray(samples)
        single = array.shape == (3,)
        dtype = np.float32 if array.dtype == np.float32 else np.float64
        source = _arrays.rows("samples", array, 3, dtype=dtype, allow_single=True)
        # One pass from the input to a new array (the library reads one and writes the other).
        data = np.empty(source.shape, dtype=dtype)
        with self._lock:
            handle = self._live()
            if dtype == np.float32:
                call(lib.poise_filter_process_into_f, handle, _arrays.pointer(source, c_float_p),
                     _arrays.pointer(data, c_float_p), data.shape[0])
            else:
                call(lib.poise_filter_process_into, handle, _arrays.pointer(source, c_double_p),
                     _arrays.pointer(data, c_double_p), data.shape[0])
        return data[0] if single else data

    def reset(self) -> None:
        """Starts again from the initial state."""
        with self._lock:
            call(lib.poise_filter_reset, self._live())
