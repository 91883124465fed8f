"""The `tables` benchmark suite (`dyo-companion bench tables`): how many tables two instances hold.

Two instances of the real command on one PostgreSQL database, behind the example nginx
configuration (proxy.py), on this machine. Each table is seven websocket sessions through the
proxy (load.py): the referee's console and six seated phones; nginx spreads them over both
instances. Every 10 seconds per table, one action of random legal play is written and announced
as an instance announces its own (news.py), so every screen of the table hears of it through
PostgreSQL. The time from the write to the first frame each screen receives after it is the
news-to-every-screen figure, told per instance; tables are added in steps, and a step is held
while both instances' p95 stays under 250 ms. The generator's own CPU is reported too: it runs
on the same cores as the instances, and what it takes they lack.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from companion.bench import percentile, rss_mb

from .load import Load
from .postgres import URL_VARIABLES, database_url, throwaway_schemas

STEP_TABLES = 5
MAX_TABLES = 120
GIVE_UP_MS = 1000.0  # the steps go on past the target until this, so the curve is seen
STEP_SECONDS = 40.0
TARGET_MS = 250.0


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (Linux's /proc; NaN elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def _pg_writes(url: str) -> tuple[int, int]:
    """The database's commits and rows written so far (PostgreSQL's statistics, all clients)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            row = conn.execute(
                text(
                    "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted FROM "
                    "pg_stat_database WHERE datname = current_database()"
                )
            ).one()
            return int(row[0]), int(row[1])
    finally:
        engine.dispose()


def _by_instance(load: Load, ports: list[int]) -> dict[str, list[float]]:
    """Each instance's news-to-screen samples, named by the instance's port."""
    out: dict[str, list[float]] = {str(port): [] for port in ports}
    for table in load.tables:
        for screen in table.screens:
            out.setdefault(screen.instance.rsplit(":", 1)[-1] or "?", []).extend(screen.latencies)
    return out


def _step(
    load: Load, samples: dict[str, list[float]], seconds: float, before: dict[str, Any], after: dict[str, Any]
) -> dict[str, Any]:
    """One step's figures, from its samples and what was read before and after it."""
    every = [ms for values in samples.values() for ms in values]
    tables = len(load.tables)
    return {
        "tables": tables,
        "p95": {name: percentile(values, 95) if values else float("inf") for name, values in samples.items()},
        "samples": {name: len(values) for name, values in samples.items()},
        "p50": percentile(every, 50) if every else float("inf"),
        "per_table": (after["rss"] - before["base_rss"]) / tables,
        "commits": (after["pg"][0] - before["pg"][0]) / seconds,
        "rows": (after["pg"][1] - before["pg"][1]) / seconds,
        "actions": (load.writes - before["writes"]) / seconds,
        "write": percentile(load.write_ms, 95) if load.write_ms else float("nan"),
        "cpu_ms": 1000 * (after["cpu"] - before["cpu"]) / max(1, len(every)),
        "generator": 100 * (after["own_cpu"] - before["own_cpu"]) / seconds / tables,
    }


async def _measure(url: str, folder: Path) -> dict[str, Any]:
    from . import stop_process
    from .proxy import Proxy, start_instance

    procs = [start_instance(url, folder) for _ in range(2)]
    ports = [port for _, port in procs]
    proxy = Proxy(folder, ports)
    load = Load(url, folder, proxy.ws, proxy.tls)
    steps: list[dict[str, Any]] = []

    def read() -> dict[str, Any]:
        return {
            "pg": _pg_writes(url),
            "writes": load.writes,
            "cpu": sum(cpu_seconds(proc.pid) for proc, _ in procs),
            "own_cpu": time.process_time(),
            "rss": sum(rss_mb(proc.pid) for proc, _ in procs),
        }

    try:
        base_rss = read()["rss"]
        while len(load.tables) < MAX_TABLES:
            for _ in range(STEP_TABLES):
                await load.add_table()
            load.write_ms.clear()
            before, started = dict(read(), base_rss=base_rss), time.monotonic()
            await load.run_for(STEP_SECONDS)
            seconds = time.monotonic() - started
            steps.append(_step(load, _by_instance(load, ports), seconds, before, read()))
            print(f"  ... {_line(steps[-1])}", flush=True)
            if max(steps[-1]["p95"].values()) >= GIVE_UP_MS:
                break
    finally:
        await load.close()
        proxy.stop()
        for proc, _ in procs:
            stop_process(proc)
    return {"steps": steps}


def _instances(step: dict[str, Any]) -> str:
    return ", ".join(
        f"port {name}: p95 {p95:.0f} ms ({step['samples'][name]} updates)" for name, p95 in step["p95"].items()
    )


def _line(step: dict[str, Any]) -> str:
    return (
        f"{step['tables']} tables: {_instances(step)}; p50 {step['p50']:.0f} ms, {step['per_table']:.1f} MB per "
        f"table, {step['cpu_ms']:.1f} ms of instance CPU per screen update, writes p95 {step['write']:.0f} ms, "
        f"load generator {step['generator']:.2f}% of a core per table"
    )


def _held(step: dict[str, Any]) -> bool:
    """Held: every instance served screens, and each one's p95 is under the target."""
    return len(step["p95"]) >= 2 and all(p95 < TARGET_MS for p95 in step["p95"].values())


def _run(coroutine: Coroutine[Any, Any, dict[str, Any]]) -> dict[str, Any]:
    """Run the load on uvloop when installed: its compiled TLS and sockets leave the CPU to the instances."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coroutine)


def tables_suite() -> list[tuple[str, str, str]]:
    from .proxy import nginx_binary

    base = database_url()
    if base is None or nginx_binary() is None:
        why = f"set {URL_VARIABLES[0]} to a PostgreSQL server" if base is None else "install nginx"
        return [("tables: tables held by two instances behind nginx", f"not measured: {why}", ">= 60")]
    with throwaway_schemas(base) as fresh, tempfile.TemporaryDirectory() as folder:
        steps = _run(_measure(fresh(), Path(folder)))["steps"]
    failed = next((n for n, s in enumerate(steps) if not _held(s)), len(steps))
    best = steps[failed - 1] if failed else None
    rows = [
        (
            "tables: tables held by 2 instances behind nginx (7 screens each, an action every 10 s per table), "
            "p95 news-to-every-screen < 250 ms on each instance",
            str(best["tables"]) if best else "0",
            ">= 60",
        )
    ]
    for s in steps:
        rows.append((f"tables: ... at {s['tables']} tables, per instance", _instances(s), "< 250 ms each"))
    shown = best or (steps[0] if steps else None)
    if shown:
        rows += [
            (
                f"tables: memory per table (both instances' resident memory / tables, at {shown['tables']})",
                f"{shown['per_table']:.1f} MB",
                "-",
            ),
            ("tables: an action's write acknowledged (before the news starts), p95", f"{shown['write']:.0f} ms", "-"),
            (
                "tables: PostgreSQL writes per second (rows inserted/updated/deleted; commits of every "
                "transaction, reads included)",
                f"{shown['rows']:.0f} rows/s, {shown['commits']:.0f} commits/s at {shown['actions']:.1f} actions/s",
                "-",
            ),
            (
                "tables: instances' CPU time per screen update (both processes, whole step / updates)",
                f"{shown['cpu_ms']:.1f} ms",
                "-",
            ),
            (
                "tables: the load generator's own CPU per table (7 sockets, one action per 10 s)",
                f"{shown['generator']:.2f}% of a core",
                "-",
            ),
        ]
    if failed < len(steps):
        rows.append(("tables: first step over the target", _line(steps[failed]), "-"))
    return rows
