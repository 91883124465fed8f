"""`--workers N`: uvicorn's own supervisor of N workers on the socket the command bound.

Each worker is a whole instance (instances.py): its own Flet sessions, its own store
connection, accepting on the one listening socket. A worker that dies, killed or crashed, is
replaced and the others keep serving; a session that lands on another worker after a reconnect
comes back to its seat by the device token kept in its browser. The supervisor gives up, and the
command exits non-zero so that a service manager restarts it, when workers cannot start: one
says so (uvicorn's start-up failure: its options, a database it cannot use), or several in a row
die before serving, or they keep dying.

Only the web server imports this module (uvicorn is not in the phone packages).
"""

from __future__ import annotations

import collections
import copy
import logging
import sys
import time
from socket import socket
from typing import Any

from uvicorn.config import LOGGING_CONFIG, STARTUP_FAILURE, Config
from uvicorn.supervisors.multiprocess import Multiprocess, Process

from .start import LOG_DATE_FORMAT, LOG_FORMAT

# How long the supervisor waits for a worker's answer to its ping (one that does not answer is
# hung, and replaced), and for a new worker to serve when it replaces them all (SIGHUP): a worker
# imports the whole app first, which takes seconds on a loaded machine (uvicorn's default: 5 s).
HEALTHCHECK_SECONDS = 30
FAILED_STARTS = 3  # workers in a row that die before serving: the next would too
RESTARTS_PER_MINUTE = 20  # deaths of serving workers; more is a crash loop, for the service manager to see
log = logging.getLogger(__name__)


def worker_logging(level: str) -> dict[str, Any]:
    """The logging set-up of each worker, as uvicorn applies it there: its own loggers' as ever,
    and the command's (companion/cli.py) for every other, at the command's level."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["line"] = {"format": LOG_FORMAT, "datefmt": LOG_DATE_FORMAT}
    config["handlers"]["line"] = {"class": "logging.StreamHandler", "formatter": "line", "stream": "ext://sys.stderr"}
    config["root"] = {"level": level, "handlers": ["line"]}
    return config


class Supervisor(Multiprocess):
    """uvicorn's supervisor of `config.workers` workers on `sockets`, which replaces a worker that
    dies; made to give up, and say why, when workers cannot start (`gave_up` then says so)."""

    def __init__(self, config: Config, sockets: list[socket]) -> None:
        super().__init__(config, sockets)
        self.gave_up: str | None = None
        self._served: set[int | None] = set()  # the workers (by pid) that have served
        self._failed_starts = 0
        self._deaths: collections.deque[float] = collections.deque(maxlen=RESTARTS_PER_MINUTE)

    def keep_subprocess_alive(self) -> None:
        for index, process in enumerate(self.processes):
            if self.should_exit.is_set() or self.signal_queue:  # stopping: let the workers go
                return
            if self._alive(process):
                continue
            process.kill()  # hung (no answer), or already gone
            process.join()
            reason = self._why_give_up(process)
            self._served.discard(process.pid)  # its number may come back, for another process
            if reason is not None:
                self.give_up(reason)
                return
            log.warning("worker %s stopped (exit code %s): starting another", process.pid, process.exitcode)
            replacement = Process(self.config, self.sockets)
            replacement.start()
            self.processes[index] = replacement

    def _alive(self, process: Process) -> bool:
        if process.pid not in self._served and process.is_ready(timeout=1):
            self._served.add(process.pid)
            self._failed_starts = 0
            return True
        return process.is_alive(timeout=self.config.timeout_worker_healthcheck)

    def _why_give_up(self, process: Process) -> str | None:
        code = process.exitcode
        if code == STARTUP_FAILURE:  # it said why (its options, the database): every other would too
            return f"a worker could not start (exit code {code})"
        if process.pid not in self._served:
            self._failed_starts += 1
            if self._failed_starts >= FAILED_STARTS:
                return f"{self._failed_starts} workers in a row stopped before serving (the last: exit code {code})"
        now = time.monotonic()
        self._deaths.append(now)
        if len(self._deaths) == RESTARTS_PER_MINUTE and now - self._deaths[0] < 60:
            return f"{RESTARTS_PER_MINUTE} workers stopped within a minute"
        return None

    def give_up(self, reason: str) -> None:
        """Stop every worker; the command then exits non-zero (a service manager restarts it)."""
        self.gave_up = reason
        print(f"dyo-companion: {reason}; stopping every worker", file=sys.stderr, flush=True)
        self.should_exit.set()
