"""Store calls off the event loop, in order per game.

Every Flet session of the process shares one asyncio loop: a store call made on it (a write, a
replay of a long log, a slow database) would freeze every other table's screen meanwhile. So
screens hand their store calls to `run(game_id, fn, ...)`: the call runs on a worker thread and
the screen awaits its result. Calls for one game run one at a time, in the order they were
made (a tap's write is never overtaken by the reload after it); calls for different games run
side by side, so a slow game A never delays game B.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
WORKERS = 8  # games written at the same moment; more wait for a free worker, each in its order
NEW_GAMES = "new games"  # the lane of games being created or imported (they have no id yet)

Job = tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class Lanes:
    """A FIFO lane per key on a shared pool of threads: at most one job of a key runs at a time."""

    def __init__(self, workers: int = WORKERS) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="store")
        self._lock = threading.Lock()
        self._waiting: dict[str, deque[Job]] = {}  # a key is present while one of its jobs runs

    def submit(self, key: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        self._queue(key, (future, fn, args, kwargs))
        return future

    def read(self, key: str, fn: Callable[..., T], *args: Any) -> Future[T]:
        """`submit` for a read: callers asking the same read while it waits in its lane share it.

        A read that has not started sees every write queued before it, so each of the screens
        that heard one piece of news gets a table at least that new from one read.
        """
        with self._lock:
            lane = self._waiting.get(key)
            if lane:
                future, last_fn, last_args, last_kwargs = lane[-1]
                if last_fn == fn and last_args == args and not last_kwargs:
                    return future
        return self.submit(key, fn, *args)

    def _queue(self, key: str, job: Job) -> None:
        with self._lock:
            lane = self._waiting.get(key)
            if lane is not None:
                lane.append(job)
                return
            self._waiting[key] = deque()
        self._pool.submit(self._run, key, job)

    def _run(self, key: str, job: Job) -> None:
        future, fn, args, kwargs = job
        if future.set_running_or_notify_cancel():
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as error:  # handed to the awaiting screen, which words it
                future.set_exception(error)
        with self._lock:
            lane = self._waiting[key]
            following = lane.popleft() if lane else None
            if following is None:
                del self._waiting[key]
        if following is not None:  # back to the pool, so a busy game takes turns with the others
            self._pool.submit(self._run, key, following)

    def busy(self, key: str) -> bool:
        with self._lock:
            return key in self._waiting


LANES = Lanes()


async def run(key: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run `fn(*args, **kwargs)` off the loop, after the calls already made for `key` (a game id)."""
    return await asyncio.wrap_future(LANES.submit(key, fn, *args, **kwargs))


async def read(key: str, fn: Callable[..., T], *args: Any) -> T:
    """`run` for a read whose result callers may share (`Lanes.read`): treat it as read-only.
    A caller that stops waiting (its screen closed) leaves the read to the others."""
    return await asyncio.shield(asyncio.wrap_future(LANES.read(key, fn, *args)))
