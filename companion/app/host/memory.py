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
YOUNG_COLLECTION = 5_000  # new objects between two collections of them (Python's default: 700)
SCREENS_PER_SWEEP = 100  # screens left between two collections of everything (each leaves ~3,000 objects in cycles)
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
_screens_left = 0


def settle_collector() -> None:
    """Keep the cyclic garbage collector's pauses short once the server has started.

    A screen update leaves no cycles behind (flet_costs.py), so what a young collection finds
    alive is mostly what the sessions keep (screens, controls, games), for as long as they live.
    Python would scan it again and again in older generations, in pauses that grow with the
    tables (300-460 ms at 45 tables, stalling every screen of the instance). So what survives a
    collection is frozen out of the later ones, and only new objects are scanned, in short pauses
    (p95 ~26 ms at 45 tables). What was frozen and has died in a cycle (a closed session, a screen
    navigated away from) waits for a collection of everything: when sessions close, and after
    `SCREENS_PER_SWEEP` screens were left. Never on a timer: such a collection stalls the whole
    instance (on a 10-minute timer, one step of `bench tables` at 65 tables had p95 0.7 and
    1.4 s). What is loaded at start is frozen first.
    """
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, middle, oldest)
    if _freeze_survivors not in gc.callbacks:
        gc.callbacks.append(_freeze_survivors)


def _freeze_survivors(phase: str, info: dict[str, int]) -> None:
    if phase == "stop":
        gc.freeze()


def release_now() -> None:
    """Collect everything, frozen or not (what closed sessions and left screens held), freeze
    what lives, and give the pages back to the system."""
    global _pending, _screens_left
    _pending = None
    _screens_left = 0
    settled = _freeze_survivors in gc.callbacks  # a server's collector, not a test's or a tool's
    if settled:
        gc.unfreeze()
    gc.collect()
    if settled:
        gc.freeze()
    if _trim is not None:
        _trim(0)


def screen_left() -> None:
    """Called as a screen is left: after enough of them, release what they held."""
    global _screens_left
    _screens_left += 1
    if _screens_left >= SCREENS_PER_SWEEP:
        _release_soon()


def session_closed() -> None:
    """Called as a session is closed: release what it held once this batch has closed too."""
    _release_soon()


def _release_soon() -> None:
    global _pending
    if _pending is not None:
        return
    try:
        _pending = asyncio.get_running_loop().call_later(TRIM_DELAY, release_now)
    except RuntimeError:  # no loop (outside the server)
        release_now()
