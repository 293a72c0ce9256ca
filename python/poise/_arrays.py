"""Checking and converting numpy arguments (one place for the rules the docs state)."""

import numpy as np


def rows(name, value, width, dtype=np.float64, allow_single=False):
    """`value` as a C-contiguous (N, width) array of `dtype`.

    Numbers of another dtype (integers, float32 where float64 is needed) and non-contiguous
    arrays are copied; a wrong shape raises ValueError and a non-numeric dtype TypeError.
    With allow_single, a (width,) vector is accepted and returned as (1, width)."""
    array = np.asarray(value)
    if array.dtype.kind not in "fiu":
        raise TypeError(f"{name} must hold real numbers, got dtype {array.dtype}")
    if allow_single and array.shape == (width,):
        array = array.reshape(1, width)
    if array.ndim != 2 or array.shape[1] != width:
        raise ValueError(f"{name} must have shape (N, {width}), got {array.shape}")
    return np.ascontiguousarray(array, dtype=dtype)


def column(name, value, count=None):
    """`value` as a C-contiguous float64 vector of `count` elements."""
    array = np.asarray(value)
    if array.dtype.kind not in "fiu":
        raise TypeError(f"{name} must hold real numbers, got dtype {array.dtype}")
    if array.ndim != 1 or (count is not None and array.shape[0] != count):
        expected = f"({count},)" if count is not None else "(N,)"
        raise ValueError(f"{name} must have shape {expected}, got {array.shape}")
    return np.ascontiguousarray(array, dtype=np.float64)


def pointer(array, ctype):
    return array.ctypes.data_as(ctype)
