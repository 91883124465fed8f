"""`bench tables` plays each table at its own moment of the period, as independent tables do.

A table keeps the moment drawn when it was added: opening a step's new tables takes longer than
the period, and restarting every table's clock at the same instant would make all of them act
together, measuring a burst of every table at once rather than a club's evening.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

from companion.bench import load as load_module
from companion.bench.load import Load, Table


def test_each_table_acts_at_its_own_moment_of_every_period(monkeypatch):
    period = 1.0
    monkeypatch.setattr(load_module, "EVERY_S", period)
    phases = [0.1, 0.35, 0.6, 0.85]
    load = Load.__new__(Load)  # the schedule alone: no instance, no database
    load.tables = [Table(f"g{n}", [], None, 0, phase) for n, phase in enumerate(phases)]
    load.writer = ThreadPoolExecutor(1)
    acted: list[tuple[str, float]] = []
    started = time.monotonic()
    monkeypatch.setattr(Load, "act", lambda self, table: acted.append((table.game, time.monotonic() - started)))

    time.sleep(0.3)  # as if opening the tables took a while: their moments are kept, not lost
    started = time.monotonic()
    asyncio.run(load.run_for(2 * period))
    load.writer.shutdown()

    assert [game for game, _ in acted] == [f"g{n}" for n in range(4)] * 2  # in the order of their moments
    for n, phase in enumerate(phases):
        first, second = (t for game, t in acted if game == f"g{n}")
        assert phase - 0.02 <= first < phase + 0.2, (n, first)  # not before its moment, nor all at once
        assert abs(second - first - period) < 0.2, (n, first, second)  # and again a period later
