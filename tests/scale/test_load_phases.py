"""`bench tables` plays each table at its own moment of the period, as independent tables do.

A table keeps the moment drawn when it was added: opening a step's new tables takes longer than
the period, and restarting every table's clock at the same instant would make all of them act
together, measuring a burst of every table at once rather than a club's evening.

The schedule runs on a clock of the test's own, whose sleeps pass at once: a busy machine
cannot move a table's moment (the real clock once put one 0.2 s late at a high load).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor, Future
from types import SimpleNamespace
from typing import Any

import pytest

from companion.bench import load as load_module
from companion.bench.load import Load, Table


class Clock:
    """The schedule's `time.monotonic` and `asyncio.sleep`: a sleep moves the clock on by what
    was asked and lets the loop take a turn."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(seconds, 0.0)
        await asyncio.sleep(0)


class AtOnce(Executor):
    """The writer's thread, run in the caller: each table acts at the moment it was sent off."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        done: Future[Any] = Future()
        done.set_result(fn(*args, **kwargs))
        return done


def test_each_table_acts_at_its_own_moment_of_every_period(monkeypatch):
    period = 1.0
    clock = Clock()
    monkeypatch.setattr(load_module, "EVERY_S", period)
    monkeypatch.setattr(load_module, "time", clock)
    monkeypatch.setattr(
        load_module,
        "asyncio",
        SimpleNamespace(sleep=clock.sleep, get_running_loop=asyncio.get_running_loop, gather=asyncio.gather),
    )
    phases = [0.1, 0.35, 0.6, 0.85]
    load = Load.__new__(Load)  # the schedule alone: no instance, no database
    load.tables = [Table(f"g{n}", [], None, 0, phase) for n, phase in enumerate(phases)]
    load.writer = AtOnce()
    acted: list[tuple[str, float]] = []
    monkeypatch.setattr(Load, "act", lambda self, table: acted.append((table.game, clock.now - started)))

    clock.now += 0.3  # as if opening the tables took a while: their moments are kept, not lost
    started = clock.now
    asyncio.run(load.run_for(2 * period))

    assert [game for game, _ in acted] == [f"g{n}" for n in range(4)] * 2  # in the order of their moments
    for n, phase in enumerate(phases):
        first, second = (t for game, t in acted if game == f"g{n}")
        assert first == pytest.approx(phase), n  # not before its moment, nor all at once
        assert second == pytest.approx(phase + period), n  # and again a period later
