"""`dyo-companion bench [SUITE...]`: the performance figures the issues ask for, measured.

Each suite prints its figures with the machine they were measured on; the README quotes them.
Suites live next to the code they measure and are listed here by import path.
"""

from __future__ import annotations

import importlib
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from typing import Callable

SUITES: dict[str, str] = {
    "engine": "companion.bench:engine_suite",
}


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def sample_states(games: int, players: int, every: int = 7):
    """States met during random games (4 players, Michel and Michelle), for per-call timings."""
    from companion.rules import new_game, step
    from companion.simulate import RandomTable, random_config
    states = []
    for seed in range(games):
        config = random_config(random.Random(seed), players, seed, "base")
        state = new_game(config)
        table = RandomTable(random.Random(seed), state)
        while state.winner is None:
            for action in table.choices(state):
                if step(state, action).accepted:
                    break
            if state.step % every == 0:
                states.append(state.copy())
    return states


def timed(fn: Callable[[], object], repeat: int = 1) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def engine_suite() -> list[tuple[str, str, str]]:
    """Issue 2's figures: simulate throughput, check and legal_actions latency, state memory."""
    import io

    from companion.rules import check, legal_actions, new_game
    from companion.rules.options import candidates
    from companion.simulate import simulate

    rows = []
    rates = []
    for run in range(3):
        totals = simulate(games=40, players=4, seed=run + 1, modules="base", out=io.StringIO())
        rates.append(totals.actions / totals.seconds)
    rows.append(("simulate, 4 players, neutrals on (median of 3 runs of 40 games)",
                 f"{statistics.median(rates):,.0f} actions/s", ">= 20,000"))
    states = sample_states(games=6, players=4)
    check_times, legal_times = [], []
    for state in states:
        for action in candidates(state)[:40]:
            check_times.append(timed(lambda: check(state, action)))
        legal_times.append(timed(lambda: legal_actions(state)))
    rows.append((f"check, one action ({len(check_times)} calls)",
                 f"p50 {percentile(check_times, 50) * 1e3:.3f} ms, p99 {percentile(check_times, 99) * 1e3:.3f} ms",
                 "p99 < 1 ms"))
    rows.append((f"legal_actions ({len(legal_times)} states)",
                 f"p50 {percentile(legal_times, 50) * 1e3:.3f} ms, p99 {percentile(legal_times, 99) * 1e3:.3f} ms",
                 "p99 < 2 ms"))
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    biggest = max(states, key=lambda s: s.step)
    kept = biggest.copy()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    size = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    rows.append(("memory of one game state (a copy of a late state)", f"{size / 1024:.1f} KiB", "< 1 MB"))
    del kept
    _ = new_game
    return rows


def run(names: list[str]) -> int:
    unknown = [n for n in names if n not in SUITES]
    if unknown:
        print(f"unknown benchmark suite {unknown[0]!r}; have: {', '.join(SUITES)}", file=sys.stderr)
        return 2
    print(f"Machine: {machine()}")
    for name in names or list(SUITES):
        module, function = SUITES[name].split(":")
        rows = getattr(importlib.import_module(module), function)()
        print(f"\n[{name}]")
        for what, measured, target in rows:
            print(f"  {what}: {measured}   (target {target})")
    return 0
