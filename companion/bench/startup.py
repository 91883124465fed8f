"""The `startup` benchmark suite (`dyo-companion bench startup`): launch to the first HTTP answer.

The command as a player starts it (`dyo-companion --no-browser`, on a SQLite file of its own,
with nothing set in its environment, so it decides its allocator itself) and a bare Flet app
(one line of text served by `flet_web.fastapi` under uvicorn, as the Flet docs show) are each
timed from the moment their process is started to the first answer to an HTTP request on
loopback. They run in turns, `PAIRS` of each, which one goes first alternating, so a load that
comes and goes falls on both; a first run of each, not counted, warms the disk cache. One more
run of the command counts how many times it started an interpreter and imported Flet
(`-X importtime`): the allocator is decided before the app is imported
(companion/app/host/start.py), so Flet is imported once. Each launch's CPU time at its first
answer is shown too: the machine's load moves it much less than the time.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from companion.bench import stop_process

PAIRS = 4
TARGET_RATIO = 1.5
BARE_FLET = """
import sys

import flet as ft
import flet_web.fastapi as flet_fastapi
import uvicorn


def main(page: ft.Page) -> None:
    page.add(ft.Text("Hello"))


uvicorn.run(flet_fastapi.app(main, no_cdn=True), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def answered(port: int) -> bool:
    """Whether the server on `port` answers an HTTP request (any status)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall(b"GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            return conn.recv(5) == b"HTTP/"
    except OSError:
        return False


def command(folder: Path, port: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "companion",
        "--no-browser",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{folder / 'games.sqlite3'}",
    ]


def bare_flet(folder: Path, port: int) -> list[str]:
    return [sys.executable, "-c", BARE_FLET, str(port)]


def environment(folder: Path, **extra: str) -> dict[str, str]:
    """This environment without what would make the command skip a decision of its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONMALLOC", "PYTHONPROFILEIMPORTTIME")}
    return dict(env, COMPANION_SETTINGS=str(folder / "settings.json"), **extra)


class Launch(NamedTuple):
    seconds: float  # from starting the process to its first HTTP answer
    cpu: float  # the CPU seconds it had used by then (less moved by the machine's load; NaN off Linux)


def cpu_seconds(pid: int) -> float:
    """The CPU time process `pid` has used, its `exec`s included (Linux's /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def launch(argv: Callable[[Path, int], list[str]], folder: Path, cwd: Path | None = None) -> Launch:
    """Start `argv` and time it to its first HTTP answer; the process is then stopped."""
    port = free_port()
    started = time.perf_counter()
    proc = subprocess.Popen(
        argv(folder, port), env=environment(folder), cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        while not answered(port):
            if proc.poll() is not None:
                raise RuntimeError(f"{argv.__name__} stopped before answering (exit code {proc.returncode})")
            if time.perf_counter() - started > 120:
                raise RuntimeError(f"{argv.__name__} did not answer within 120 s")
            time.sleep(0.005)
        return Launch(time.perf_counter() - started, cpu_seconds(proc.pid))
    finally:
        stop_process(proc)


def interleaved(folder: Path, pairs: int = PAIRS, cwd: Path | None = None) -> dict[str, list[Launch]]:
    """`pairs` launches of the command and of the bare Flet app, in turns (after one of each not counted)."""
    times: dict[str, list[Launch]] = {"command": [], "bare": []}
    runs = {"command": command, "bare": bare_flet}
    for argv in runs.values():
        launch(argv, folder, cwd)
    for n in range(pairs):
        order = ["command", "bare"] if n % 2 == 0 else ["bare", "command"]
        for name in order:
            times[name].append(launch(runs[name], folder, cwd))
    return times


def imports(folder: Path, cwd: Path | None = None) -> tuple[int, int]:
    """How many interpreters one launch of the command started, and how many imported Flet."""
    port = free_port()
    with tempfile.TemporaryFile("w+") as log:  # a file: a pipe would fill up and stop the command
        proc = subprocess.Popen(
            command(folder, port),
            env=environment(folder, PYTHONPROFILEIMPORTTIME="1"),
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        try:
            deadline = time.monotonic() + 120
            while not answered(port) and time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.05)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        log.seek(0)
        lines = log.read().splitlines()
    modules = [line.rsplit("|", 1)[-1].strip() for line in lines if line.startswith("import time:")]
    return modules.count("companion.cli"), modules.count("flet")


def _spread(launches: list[Launch]) -> str:
    seconds = [run.seconds for run in launches]
    cpu = statistics.median(run.cpu for run in launches)
    return f"{statistics.median(seconds):.2f} s (median; {', '.join(f'{s:.2f}' for s in seconds)}; CPU {cpu:.2f} s)"


def _ratio(times: dict[str, list[Launch]], field: str) -> float:
    def median(name: str) -> float:
        return statistics.median(run.seconds if field == "seconds" else run.cpu for run in times[name])

    return median("command") / median("bare")


def startup_suite() -> list[tuple[str, str, str]]:
    """Issue 38: the command starts once, and answers within 1.5x a bare Flet app's time."""
    with tempfile.TemporaryDirectory() as folder:
        times = interleaved(Path(folder))
        starts, flets = imports(Path(folder))
    return [
        (
            f"startup: dyo-companion --no-browser (SQLite), launch to the first HTTP answer ({PAIRS} runs)",
            _spread(times["command"]),
            f"<= {TARGET_RATIO}x the bare Flet app",
        ),
        (
            f"startup: a bare Flet app (flet_web.fastapi under uvicorn), the same ({PAIRS} runs, in turns)",
            _spread(times["bare"]),
            "(yardstick)",
        ),
        (
            "startup: the command against the bare Flet app (medians; of CPU time)",
            f"{_ratio(times, 'seconds'):.2f}x ({_ratio(times, 'cpu'):.2f}x)",
            f"<= {TARGET_RATIO}x",
        ),
        (
            "startup: one launch of the command: interpreters started, of which importing Flet",
            f"{starts}, {flets}",
            "Flet imported once",
        ),
    ]
