"""The Python side of an opaque C handle: ownership, closing, one thread at a time."""

import threading


class Handle:
    """Owns one C handle. Calls are serialised with a lock (the C rule: one thread at a time
    per handle); `close()` (or leaving a `with` block) destroys it, and later use raises
    ValueError."""

    _kind = "handle"

    def __init__(self, handle, destroy):
        self._handle = handle
        self._destroy = destroy
        self._lock = threading.Lock()

    def _live(self):
        if self._handle is None:
            raise ValueError(f"this {self._kind} is closed")
        return self._handle

    def close(self):
        with self._lock:
            if self._handle is not None:
                self._destroy(self._handle, None)
                self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may be gone
            pass
