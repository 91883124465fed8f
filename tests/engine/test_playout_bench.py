"""`dyo-companion bench engine` measures the engine's playout against python-chess's in turns,
so a load that comes and goes during the run falls on both."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from companion import bench


def test_playouts_take_turns_and_each_gets_its_own_rate() -> None:
    order: list[str] = []

    def playout(name: str) -> Iterator[None]:
        while True:
            if not order or order[-1] != name:
                order.append(name)
            yield

    rates = bench.playout_rates({"a": playout("a"), "b": playout("b")}, seconds=0.06, slices=3)
    assert order == ["a", "b", "a", "b", "a", "b"]
    assert set(rates) == {"a", "b"} and all(rate > 0 for rate in rates.values())


def test_the_engine_and_chess_playouts_play() -> None:
    engine = bench.engine_playout(4, "base", cap=5)
    list(itertools.islice(engine, 12))  # past a game's cap: a new seeded game starts
    chess = bench.chess_playout(cap=5)
    assert chess is not None, "pip install chess (the test extra)"
    list(itertools.islice(chess, 12))
