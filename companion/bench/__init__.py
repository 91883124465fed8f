"""`dyo-companion bench [SUITE...]`: the performance figures the issues ask for, measured.

Each suite prints its figures with the machine they were measured on; docs/performance.md quotes
them. Every suite lives in this package and is listed here by import path.
"""

from __future__ import annotations

import importlib
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from . import checkout

if TYPE_CHECKING:  # each suite imports what it measures when it runs
    from companion.rules import GameState

SUITES: dict[str, str] = {
    "engine": "companion.bench:engine_suite",
    "storage": "companion.bench.storage:storage_suite",
    "ui": "companion.bench.ui:ui_suite",
    "sync": "companion.bench.sync:sync_suite",
    "storm": "companion.bench.storm:storm_suite",
    "tables": "companion.bench.tables:tables_suite",
    "phones": "companion.bench.phones:phones_suite",
    "startup": "companion.bench.startup:startup_suite",
}


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def rss_mb(pid: int | str = "self") -> float:
    """A process's resident memory in MB (Linux's /proc; NaN elsewhere)."""
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def stop_process(proc: subprocess.Popen[Any], timeout: float = 20.0) -> None:
    """Stop a server the suite started: asked first, killed if it will not go."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def sample_states(games: int, players: int, modules: str = "base", every: int = 7) -> list[GameState]:
    """States met during random games, for per-call timings."""
    from companion.rules import new_game, step
    from companion.simulate import RandomTable, random_config

    states = []
    for seed in range(games):
        config = random_config(random.Random(seed), players, seed, modules)
        state = new_game(config)
        table = RandomTable(random.Random(seed), state)
        while state.winner is None:
            for action in table.choices(state):
                if step(state, action).accepted:
                    break
            if state.step % every == 0:
                states.append(state.copy())
    return states


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _engine_rows(label: str, players: int, modules: str) -> list[tuple[str, str, str]]:
    import io

    from companion.rules import check, legal_actions
    from companion.rules.options import candidates
    from companion.simulate import simulate

    overall, engine = [], []
    for run in range(3):
        totals = simulate(games=30, players=players, seed=run + 1, modules=modules, out=io.StringIO())
        overall.append(totals.actions / totals.seconds)
        engine.append(totals.actions / totals.engine_seconds)
    rows = [
        (
            f"{label}: simulate, validated-and-applied actions/s inside the engine (median of 3 runs of 30 games)",
            f"{statistics.median(engine):,.0f} actions/s",
            ">= 20,000",
        ),
        (
            f"{label}: simulate, whole run incl. random players and invariant checks after every action",
            f"{statistics.median(overall):,.0f} actions/s",
            "none: the simulator's own verification, not refereeing",
        ),
    ]
    states = sample_states(games=5, players=players, modules=modules)
    check_times, legal_times = [], []
    for state in states:
        for action in candidates(state)[:40]:
            check_times.append(timed(partial(check, state, action)))
        legal_times.append(timed(partial(legal_actions, state)))
    rows.append(
        (
            f"{label}: check, one action ({len(check_times)} calls)",
            f"p50 {percentile(check_times, 50) * 1e3:.3f} ms, p99 {percentile(check_times, 99) * 1e3:.3f} ms",
            "p99 < 1 ms",
        )
    )
    rows.append(
        (
            f"{label}: legal_actions ({len(legal_times)} states)",
            f"p50 {percentile(legal_times, 50) * 1e3:.3f} ms, p99 {percentile(legal_times, 99) * 1e3:.3f} ms",
            "p99 < 2 ms",
        )
    )
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    kept = max(states, key=lambda s: s.step).copy()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    size = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    rows.append((f"{label}: memory of one game state", f"{size / 1024:.1f} KiB", "< 1 MB"))
    del kept
    return rows


def engine_playout(players: int, modules: str, cap: int = 300) -> Iterator[None]:
    """Random play through the public API, one action per step of the iterator: list
    `legal_actions`, pick one at random, `step` it (a new seeded game every `cap` actions or win)."""
    from companion.rules import legal_actions, new_game, step
    from companion.simulate import random_config

    seed = 0
    while True:
        seed += 1
        rng = random.Random(seed)
        state = new_game(random_config(random.Random(seed), players, seed, modules))
        for _ in range(cap):
            if state.winner is not None:
                break
            step(state, rng.choice(legal_actions(state)))
            yield


def chess_playout(cap: int = 300) -> Iterator[None] | None:
    """python-chess doing the same: list `board.legal_moves`, pick one at random, `board.push` it."""
    try:
        import chess  # a benchmark-only yardstick, never needed by the app
    except ImportError:
        return None

    def play() -> Iterator[None]:
        rng = random.Random(1)
        while True:
            board = chess.Board()
            for _ in range(cap):
                legal = list(board.legal_moves)
                if not legal:
                    break
                board.push(rng.choice(legal))
                yield

    return play()


def playout_rates(playouts: dict[str, Iterator[None]], seconds: float, slices: int = 12) -> dict[str, float]:
    """Moves per second of each playout, run in turns of `seconds / slices` each.

    Taking turns, the yardstick and the engine share whatever else the machine is doing: a
    load that comes and goes during the run moves their ratio much less than when each runs
    its whole time in one go.
    """
    moves = dict.fromkeys(playouts, 0)
    spent = dict.fromkeys(playouts, 0.0)
    turn = seconds / slices
    for _ in range(slices):
        for name, playout in playouts.items():
            n, start = 0, time.perf_counter()
            while time.perf_counter() - start < turn:
                next(playout)
                n += 1
            moves[name] += n
            spent[name] += time.perf_counter() - start
    return {name: moves[name] / spent[name] for name in playouts}


def _playout_rows(seconds: float = 3.0) -> list[tuple[str, str, str]]:
    """Issue 15: the engine's random playout against python-chess's, measured in the same run."""
    from companion.rules.compiled import is_compiled

    series = (("base game, 4 players", 4, "base"), ("every module, 6 players", 6, "full"))
    playouts = {label: engine_playout(players, modules) for label, players, modules in series}
    chess = chess_playout()
    if chess is not None:
        playouts["chess"] = chess
    rates = playout_rates(playouts, seconds)
    chess_rate = rates.get("chess")
    rows = [
        (
            "the engine measured",
            "compiled (dyo-companion compile-engine)" if is_compiled() else "interpreted (its Python sources)",
            "(either)",
        ),
        (
            "python-chess random playout (legal_moves listed, one pushed; in turns with the rows below)",
            "not measured: pip install chess" if chess_rate is None else f"{chess_rate:,.0f} moves/s",
            "(yardstick)",
        ),
    ]
    for label, _, _ in series:
        ratio = "" if chess_rate is None else f", {rates[label] / chess_rate:.2f}x python-chess"
        rows.append(
            (
                f"{label}: random playout (legal_actions listed, one stepped)",
                f"{rates[label]:,.0f} actions/s{ratio}",
                ">= python-chess",
            )
        )
    return rows


def engine_suite() -> list[tuple[str, str, str]]:
    """Issues 2, 3 and 15: simulate throughput, check and legal_actions latency, state memory, playouts."""
    return (
        _playout_rows()
        + _engine_rows("base game, 4 players, Michel and Michelle", 4, "base")
        + _engine_rows("Warden, all six Dig In Places, 6 players", 6, "full")
    )


def resolve(names: list[str]) -> dict[str, Callable[[], list[tuple[str, str, str]]]] | str:
    """Each suite asked for (all when none is), imported before any runs; else why one cannot run."""
    unknown = [n for n in names if n not in SUITES]
    if unknown:
        return f"unknown benchmark suite {unknown[0]!r}; have: {', '.join(SUITES)}"
    checkout.find_drivers()
    suites = {}
    for name in names or list(SUITES):
        module, function = SUITES[name].split(":")
        try:
            suites[name] = getattr(importlib.import_module(module), function)
        except ModuleNotFoundError as error:
            if not checkout.needs_checkout(error):
                raise
            return checkout.message(name)
    return suites


def run(names: list[str]) -> int:
    suites = resolve(names)
    if isinstance(suites, str):
        print(suites, file=sys.stderr)
        return 2
    print(f"Machine: {machine()}")
    for name, suite in suites.items():
        rows = suite()
        print(f"\n[{name}]")
        for what, measured, target in rows:
            print(f"  {what}: {measured}   (target {target})")
    return 0
