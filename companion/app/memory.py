"""Giving the memory of closed sessions back to the system.

Each session holds its screens and Flet's copy of what its browser shows (about half a megabyte
for a seat). When sessions expire their objects are freed, but Python's small-object allocator
keeps an arena while any object in it lives, and the C allocator keeps freed pages until asked:
after a reconnect storm the process would stay at its peak. So the server runs with the C
allocator for Python objects (`PYTHONMALLOC=malloc`, set by the launcher) and, a moment after
sessions close, asks it to hand free pages back (`malloc_trim`, glibc only; elsewhere a no-op).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)
YOUNG_COLLECTION = 20_000  # allocations between two collections of new objects (Python's default: 700)
TRIM_DELAY = 2.0  # seconds: sessions expire in batches (Flet sweeps every 10 s); trim once per batch


def _load_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if not name:
        return None
    try:
        return ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None


_trim = _load_trim()
_pending: asyncio.TimerHandle | None = None


def settle_collector() -> None:
    """Keep the cyclic garbage collector's pauses short once the server has started.

    Every screen update builds and diffs thousands of short-lived objects; with Python's default
    threshold a collection runs in the middle of nearly every update and promotes what is alive
    at that instant, and the oldest generation, rescanned whole once it has grown by a quarter,
    is what stalls the event loop of every session (hundreds of milliseconds at a few dozen
    tables). A larger young threshold lets an update's objects die first; what is loaded at
    start (modules, the catalog, the engine's memos) lives as long as the process and is
    frozen out of every later collection.
    """
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, middle, oldest)


def release_now() -> None:
    global _pending
    _pending = None
    gc.collect()
    if _trim is not None:
        _trim(0)


def session_closed() -> None:
    """Called as a session is closed: release what it held once this batch has closed too."""
    global _pending
    if _pending is not None:
        return
    try:
        _pending = asyncio.get_running_loop().call_later(TRIM_DELAY, release_now)
    except RuntimeError:  # no loop (a session closed outside the server)
        release_now()
