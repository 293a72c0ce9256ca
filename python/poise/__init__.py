"""Poise for Python: motion-sensor filters, VQF device-motion fusion, tilt input, gyro aiming,
metrics and readers for every recording format the `poise` tool reads; numpy in and numpy out,
over Poise's C libraries (libpoise for the processing, libpoise-readers for `read`), each loaded
when first needed (importing poise, or poise.batch, loads nothing).

Units everywhere: time s, acceleration g (specific force, +1 g up at rest), rotation rate
rad/s, magnetic field µT, device frame (+x right, +y top edge, +z out of the screen);
quaternions w, x, y, z rotating device vectors into the earth frame (ENU by default).

Arrays: (N, 3) rows of x, y, z. Inputs of another real dtype or not C-contiguous are copied
(converted to float64); a wrong shape raises ValueError, a non-numeric dtype TypeError, each
naming the argument. Sensor arrays are keyword-only (``fuse(acc=..., gyr=..., mag=...)``), so
they cannot be swapped by position. Results are new arrays. Library errors raise PoiseError (a
ValueError) with the C message. Every call runs on the calling thread unless it is given
``threads=2``.
"""

from typing import Any

from ._library import PoiseError
from .calibration import Calibration
from .filter import Filter
from .fusion import FLAGS, Fusion, FusionConfig, FusionResult, fuse
from .games import Flick, Gyro
from .metrics import jitter, latency90, nominal_rate
from .orientation import Tilt, remap, remap_attitudes
from .recording import Recording, read

__all__ = ["Calibration", "Filter", "Flick", "Fusion", "FusionConfig", "FusionResult", "FLAGS", "Gyro", "PoiseError",
           "Recording", "Tilt", "fuse", "jitter", "latency90", "nominal_rate", "read", "remap", "remap_attitudes",
           "__version__"]


def __getattr__(name: str) -> Any:
    # __version__ is the loaded C library's (poise_version()), read when first asked for.
    if name == "__version__":
        from ._library import lib
        return lib.poise_version().decode()
    raise AttributeError(f"module 'poise' has no attribute {name!r}")
