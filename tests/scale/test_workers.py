"""`--workers N`: N processes of the real command on one port, PostgreSQL only."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from drivers.browser import free_port


def children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        out += [int(n) for n in (task / "children").read_text().split()]
    return out


def listeners(pid: int, port: int) -> bool:
    """Whether process `pid` holds a listening socket on `port` (the kernel's tables)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[3] == "0A" and int(fields[1].split(":")[1], 16) == port:
            inodes.add(fields[9])
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:[") and target[8:-1] in inodes:
            return True
    return False


def test_two_workers_serve_one_port(pg_url: str, tmp_path: Path) -> None:
    port = free_port()
    env = dict(os.environ, COMPANION_SETTINGS=str(tmp_path / "settings.json"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "--no-browser", "--port", str(port), "--workers", "2", "--db", pg_url],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        lines = []
        while time.monotonic() < deadline and not (lines and lines[-1].startswith("Press Ctrl+C")):
            lines.append(proc.stdout.readline())
        assert lines[-1].startswith("Press Ctrl+C"), lines
        workers = children(proc.pid)
        assert len(workers) == 2
        deadline = time.monotonic() + 30
        while not all(listeners(w, port) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert all(listeners(w, port) for w in workers)
        assert httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=10).json() == {"ok": True}
        assert sum("is running at" in line for line in lines) == 1  # the first worker speaks for both
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    assert all(not Path(f"/proc/{w}").exists() or "zombie" in Path(f"/proc/{w}/status").read_text() for w in workers)


def test_workers_refuse_sqlite(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "--no-browser",
            "--port",
            str(free_port()),
            "--workers",
            "2",
            "--db",
            str(tmp_path / "games.sqlite3"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, COMPANION_SETTINGS=str(tmp_path / "settings.json")),
    )
    assert done.returncode == 2 and "PostgreSQL" in done.stderr
