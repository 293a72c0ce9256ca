"""Poise for Python: motion-sensor filters, VQF device-motion fusion, tilt input, gyro aiming and metrics,
numpy in and numpy out, over Poise's C library (libpoise).

Units everywhere: time s, acceleration g (specific force, +1 g up at rest), rotation rate
rad/s, magnetic field µT, device frame (+x right, +y top edge, +z out of the screen);
quaternions w, x, y, z rotating device vectors into the earth frame (ENU by default).

Arrays: (N, 3) rows of x, y, z. Inputs of another real dtype or not C-contiguous are copied
(converted to float64); a wrong shape raises ValueError, a non-numeric dtype TypeError.
Results are new arrays. Library errors raise PoiseError (a ValueError) with the C message.
"""

from ._library import PoiseError, lib as _lib
from .calibration import Calibration
from .filter import Filter
from .fusion import FLAGS, Fusion, FusionConfig, FusionResult, fuse
from .games import Flick, Gyro
from .metrics import jitter, latency90, nominal_rate
from .orientation import Tilt, remap, remap_attitudes

__version__ = _lib.poise_version().decode()

__all__ = ["Calibration", "Filter", "Flick", "Fusion", "FusionConfig", "FusionResult", "FLAGS", "Gyro", "PoiseError", "Tilt", "fuse",
           "jitter", "latency90", "nominal_rate", "remap", "remap_attitudes", "__version__"]
