"""Checking and converting arguments (one place for the rules the docs state)."""

import ctypes
import numbers

import numpy as np

from ._library import call


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
        expected = f"({width},) or (N, {width})" if allow_single else f"(N, {width})"
        raise ValueError(f"{name} must have shape {expected}, got {array.shape}")
    return np.ascontiguousarray(array, dtype=dtype)


def number(name, value):
    """`value`, a real number (a Python or numpy scalar, or a 0-d array), as a float; else
    TypeError naming the argument (a str is not taken for a number)."""
    if isinstance(value, numbers.Real):
        return float(value)
    if not isinstance(value, (str, bytes)):
        array = np.asarray(value)
        if array.ndim == 0 and array.dtype.kind in "fiu":
            return float(array)
    raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r:.40}")


def text(name, value):
    """`value`, a str, as the UTF-8 bytes of a C string; else TypeError naming the argument."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    if "\0" in value:
        raise ValueError(f"{name} must not contain a NUL character (at index {value.index(chr(0))}): "
                         f"C would read only the text before it")
    return value.encode("utf-8")


def fill(struct, default, settings, what):
    """`struct` from the C defaults function `default`, then the keyword `settings` (unknown
    names are a TypeError listing the known ones); returns it."""
    call(default, ctypes.byref(struct))
    names = [name for name, _ in type(struct)._fields_]
    for name, value in settings.items():
        if name not in names:
            raise TypeError(f"unknown {what} setting {name!r}; settings are {', '.join(names)}")
        set_setting(struct, name, value)
    return struct


def set_setting(struct, name, value):
    """Sets field `name` of a settings struct: a bool as 0 or 1; a value of the wrong type is a
    TypeError naming the setting."""
    integer = dict(type(struct)._fields_)[name] in (ctypes.c_int32, ctypes.c_uint32, ctypes.c_int64)
    try:
        setattr(struct, name, int(value) if isinstance(value, bool) else value)
    except TypeError:
        kind = "an integer" if integer else "a real number"
        raise TypeError(f"setting {name} must be {kind}, got {type(value).__name__} {value!r:.40}") from None


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
