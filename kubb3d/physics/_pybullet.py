"""Import PyBullet without its start-up banner ("pybullet build time: …").

The banner is printed by the C extension through C's stdio (so it may only
reach the terminal when the process exits), which would spoil ``--json``
output and one-line error messages. Both descriptors are pointed at /dev/null
while the module loads and C's buffers are flushed there before they are
restored.
"""

from __future__ import annotations

import os
import sys


def _flush_c_stdio() -> None:
    try:
        import ctypes

        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):
        pass


def _quiet_import():
    if "pybullet" in sys.modules:
        return sys.modules["pybullet"]
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    saved = []
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        for fd in (1, 2):
            saved.append((fd, os.dup(fd)))
            os.dup2(devnull, fd)
        os.close(devnull)
    except OSError:
        saved = []
    try:
        import pybullet

        _flush_c_stdio()  # the banner sits in C's stdio buffer: flush it into /dev/null
    finally:
        for fd, copy in saved:
            os.dup2(copy, fd)
            os.close(copy)
    return pybullet


pb = _quiet_import()
