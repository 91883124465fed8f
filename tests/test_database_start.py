"""The real `dyo-companion` server and its SQLite file: a start that finds no database where games
were kept stops and says where it looked; a second server on a path is refused, even after the
file there was replaced (the lock is the path's, storage/files.py)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from storage import Store
from storage.files import kept_path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server(db: Path, tmp_path: Path) -> subprocess.Popen:
    env = dict(os.environ, COMPANION_SETTINGS=str(tmp_path / "settings.json"), PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "--no-browser", "--port", str(free_port()), "--db", str(db)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def until_line(proc: subprocess.Popen, words: str, timeout: float = 60) -> list[str]:
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if words in line:
            return lines
    raise AssertionError(f"no {words!r} from the server: {lines}")


def test_a_start_where_the_database_went_missing_stops_and_says_where(tmp_path):
    db = tmp_path / "games.sqlite3"
    with Store(str(db)) as store:
        store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})
    db.unlink()
    proc = server(db, tmp_path)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 2, out
    said = [line for line in out.splitlines() if line.startswith("dyo-companion:")]
    assert len(said) == 1 and f"no database at {db}, where games were kept" in said[0], out
    assert f"delete {kept_path(db)}" in said[0] and "Traceback" not in out
    assert not db.exists()  # it did not start empty


def test_a_second_server_on_the_path_is_refused_after_the_file_was_replaced(tmp_path):
    db = tmp_path / "games.sqlite3"
    Store(str(db)).close()
    first = server(db, tmp_path)
    try:
        until_line(first, "is running at")
        spare = tmp_path / "spare.sqlite3"
        shutil.copy(db, spare)
        os.replace(spare, db)  # another file at the path: the first server's lock stays the path's
        second = server(db, tmp_path)
        out, _ = second.communicate(timeout=120)
        assert second.returncode == 2, out
        assert f"another companion is already serving {db}" in out
    finally:
        first.send_signal(signal.SIGTERM)
        try:
            first.wait(timeout=20)
        except subprocess.TimeoutExpired:
            first.kill()
            first.wait()
