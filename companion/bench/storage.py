"""`dyo-companion bench storage`: issue #4's figures, measured on a temporary SQLite file on disk,
and on PostgreSQL too when a server is named (postgres.py), with the news between two instances.

The games are real: `companion.simulate`'s random table plays them through the engine. The
1,000 finished games for the statistics figure start with Tunnel head starts (a table tracking
games already under way, PROTOCOL.md) so that they end within a few hundred actions; the
statistics query reads seats, not logs, so the length of each log does not change that figure.

The long game is the one issue 38 opened in 9.7 s: 240,000 actions, two players ending turn
after turn (the longest game a valid file of the size limit holds is of this kind). Importing it
replays it once (about half a minute here); then it is opened by fresh stores, from its resume
point (storage/resume.py), and once by replaying its whole log, the reference. The suite takes
about a minute and a half.
"""

from __future__ import annotations

import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.bench import percentile
from companion.rules import new_game
from companion.simulate import random_actions, random_config
from storage.replays import replay
from storage.rows import read_head
from storage.store import Store

from . import postgres

NAMES = ["Carmen", "Nicholas", "Yellow", "Dana", "Eli", "Farah", "Gio", "Hana"]


def _game_of_at_least(count: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    for seed in range(1, 1000):
        config = random_config(random.Random(seed), 4, seed, "base")
        actions, _ = random_actions(config, seed, count)
        if len(actions) == count:
            return config, actions
    raise RuntimeError(f"no simulated game reached {count} actions")


def _short_finished_games(count: int, rng: random.Random) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    games: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    while len(games) < count:
        seed = rng.randrange(2**62)
        players = rng.choice((2, 3, 4, 5))
        config = random_config(random.Random(seed), players, seed, "base")
        target = new_game(config).target()
        for entry, name in zip(config["players"], rng.sample(NAMES, players), strict=True):
            entry.update(name=name, tunnel=rng.randint(target - 4, target - 1))
        actions, won = random_actions(config, seed, 400)
        if won:
            games.append((config, actions))
    return games


SQLITE = "SQLite WAL, synchronous=FULL, on disk"


def _on(where: str) -> str:
    """The prefix of a figure measured elsewhere than on the SQLite file."""
    return "" if where == SQLITE else f"{where}: "


def _append(url: str, where: str = SQLITE) -> tuple[str, str, str]:
    config, actions = _game_of_at_least(600)
    with Store(url) as store:
        game_id = store.create_game(config)
        version, times = 0, []
        for action in actions:
            start = time.perf_counter()
            version = store.submit(game_id, action, base_version=version).version
            times.append(time.perf_counter() - start)
    return (
        f"{_on(where)}append one action, committed ({SQLITE + '; ' if where == SQLITE else ''}{len(times)} "
        "actions of a simulated game)",
        f"p50 {percentile(times, 50) * 1e3:.2f} ms, p99 {percentile(times, 99) * 1e3:.2f} ms",
        "p50 < 5 ms",
    )


def _resume(url: str, where: str = SQLITE) -> tuple[str, str, str]:
    config, actions = _game_of_at_least(1000)
    with Store(url) as store:
        game_id = store.import_game({"config": config, "actions": actions})
    times = []
    for _ in range(7):
        with Store(url) as store:  # a fresh process: nothing cached, the log read and replayed
            start = time.perf_counter()
            table = store.load(game_id)
            times.append(time.perf_counter() - start)
        assert table.steps == 1000
    return (
        f"{_on(where)}resume a 1,000-action game (fresh store: read the log, replay it; median of 7)",
        f"{statistics.median(times) * 1e3:.1f} ms",
        "< 200 ms",
    )


def _statistics(url: str, where: str = SQLITE) -> tuple[str, str, str]:
    games = _short_finished_games(100, random.Random(4))
    with Store(url) as store:
        for _ in range(10):  # 1,000 finished games: each simulated game stored ten times
            for config, actions in games:
                store.import_game({"config": config, "actions": actions})
        times = []
        for _ in range(10):
            start = time.perf_counter()
            result = store.statistics()
            times.append(time.perf_counter() - start)
    entries = sum(len(actions) for _, actions in games) * 10
    assert len(result.games) == 1000
    return (
        f"{_on(where)}statistics over 1,000 finished games ({entries:,} log entries, {len(result.players)} "
        "players; median of 10)",
        f"{statistics.median(times) * 1e3:.1f} ms",
        "< 100 ms",
    )


def _long_game(folder: Path, count: int = 240_000) -> list[tuple[str, str, str]]:
    url = str(folder / "long.sqlite3")
    config: dict[str, Any] = {"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "seed": 38}
    first = new_game(config).active  # two players, no neutral: end_turn passes the turn on
    actions = [{"type": "end_turn", "player": (first + n) % 2} for n in range(count)]
    with Store(url) as store:
        game_id = store.import_game({"config": config, "actions": actions})
    times = []
    for _ in range(5):
        with Store(url) as store:  # a fresh process: nothing cached
            start = time.perf_counter()
            table = store.load(game_id)
            times.append(time.perf_counter() - start)
        assert table.steps == count
    with Store(url) as store, store.db.transaction() as conn:  # what opening it did before resume points
        start = time.perf_counter()
        assert len(replay(conn, read_head(conn, game_id)).game.log) == count
        replayed = time.perf_counter() - start
    return [
        (
            f"open a {count:,}-action game (fresh store: its resume point, then the entries after it; median of 5)",
            f"{statistics.median(times) * 1e3:.0f} ms",
            "< 1 s",
        ),
        (
            "the same game opened by replaying its whole log (the reference, once)",
            f"{replayed:.1f} s",
            "none: what the resume point spares",
        ),
    ]


def storage_suite() -> list[tuple[str, str, str]]:
    """Append latency, resume time, statistics time and a long game's opening, each on its own
    temporary database; then on PostgreSQL, each in a throwaway schema, with the news between two
    instances."""
    folder = Path(tempfile.mkdtemp(prefix="dyo-bench-storage-"))
    try:
        rows = [
            _append(str(folder / "append.sqlite3")),
            _resume(str(folder / "resume.sqlite3")),
            _statistics(str(folder / "statistics.sqlite3")),
            *_long_game(folder),
        ]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    base = postgres.database_url()
    if base is None:
        why = f"not measured: set {postgres.URL_VARIABLES[0]} to a PostgreSQL server"
        return [*rows, ("PostgreSQL: the same figures, and the news between two instances", why, "-")]
    with postgres.throwaway_schemas(base) as fresh:
        where = "PostgreSQL"
        rows += [_append(fresh(), where), _resume(fresh(), where), _statistics(fresh(), where)]
        rows += postgres.news_rows(fresh())
    return rows
