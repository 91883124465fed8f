"""Crash safety: a writer killed with SIGKILL at random moments never loses an acknowledged action.

Each life of the writer is a child process (forked, so it starts in milliseconds) that plays the
game through the store and reports on a pipe, one line per step: "try ..." before it asks the
store, "ok VERSION DIGEST" once the store has answered (the acknowledgement). The parent kills it
at a random moment, reopens the database like a restarted app, and checks: every acknowledged
entry is there, at most the one unacknowledged attempt was committed besides, and the replayed
state is the state the writer had (or that state plus that one attempt).
"""

import json
import os
import random
import signal
import sqlite3
import time

from storage_helpers import config, digest, next_action, unresolved

from companion.rules import Game
from storage import Store

LIVES = 24


def _writer(url: str, game_id: str, seed: int, out) -> None:
    """One life of the table: play on from the stored state until killed."""
    rng = random.Random(seed)
    store = Store(url)
    table = store.load(game_id)
    out.write(f"ready {table.version}\n")
    while True:
        roll = rng.random()
        if table.can_redo and roll < 0.5:
            out.write("try redo\n")
            table = store.redo(game_id, base_version=table.version)
        elif table.can_undo and roll < 0.1:
            out.write("try undo\n")
            table = store.undo(game_id, base_version=table.version)
        else:
            action = next_action(table.game.state, rng)
            if action is None or table.status == "finished":
                out.write("done\n")
                break
            out.write(f"try action {json.dumps(action)}\n")
            table = store.submit(game_id, action, base_version=table.version, key=f"{seed}/{table.version}").table
        out.write(f"ok {table.version} {digest(table.game.state)}\n")


def _start_writer(url: str, game_id: str, seed: int) -> tuple[int, int]:
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 0
        try:
            os.close(read_end)
            with os.fdopen(write_end, "w", buffering=1) as out:
                try:
                    _writer(url, game_id, seed, out)
                except BaseException as error:  # reported to the parent, which fails the test
                    out.write(f"error {type(error).__name__}: {error}\n")
                    code = 1
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end


def _read_lines(fd: int, until: str | None = None) -> list[str]:
    """Complete lines from the pipe (a line cut by the kill was never an acknowledgement)."""
    data = b""
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        data += chunk
        if until is not None and f"\n{until}".encode() in b"\n" + data:
            break
    return [line for line in data.decode().split("\n")[:-1]]


def test_a_killed_writer_loses_no_acknowledged_action(make_url):
    url = make_url()
    cfg = config(4, seed=2024)
    with Store(url) as store:
        game_id = store.create_game(cfg)
    in_effect: list[dict] = []  # what the acknowledgements say the game is
    redo: list[dict] = []
    rng = random.Random(7)
    acknowledged = 0
    for life in range(LIVES):
        pid, fd = _start_writer(url, game_id, seed=life)
        started = _read_lines(fd, until="ready")
        assert started and started[0].startswith("ready"), started
        time.sleep(rng.uniform(0.0, 0.12))
        os.kill(pid, signal.SIGKILL)
        lines = started[1:] + _read_lines(fd)
        os.close(fd)
        _, status = os.waitpid(pid, 0)
        assert not [line for line in lines if line.startswith("error")], lines
        if "done" in lines:
            break
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL

        attempt, version, state = None, int(started[0].split()[1]), None
        for line in lines:
            word, _, rest = line.partition(" ")
            if word == "try":
                attempt = rest
            elif word == "ok":
                _apply(attempt, in_effect, redo)
                version, state, attempt = int(rest.split()[0]), rest.split()[1], None
                acknowledged += 1
        with Store(url) as reopened:  # the app restarts
            table = reopened.load(game_id)
            exported = reopened.export_game(game_id)["actions"]
            assert reopened.verify(game_id) == []
        if table.version == version:
            assert state is None or digest(table.game.state) == state, "the state the writer acknowledged"
        else:
            assert attempt is not None and table.version == version + 1, (table.version, version, attempt)
            _apply(attempt, in_effect, redo)  # committed, killed before it could say so
        assert unresolved(exported) == in_effect, "every acknowledged action, nothing else but the last attempt"
        assert digest(table.game.state) == digest(Game.replay(cfg, in_effect).state)
    assert acknowledged >= 100, f"only {acknowledged} acknowledged steps: the writer hardly ran"
    if url.startswith("sqlite"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as check:
            assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def _apply(attempt: str, in_effect: list, redo: list) -> None:
    kind, _, action = attempt.partition(" ")
    if kind == "action":
        in_effect.append(json.loads(action))
        redo.clear()
    elif kind == "undo":
        redo.append(in_effect.pop())
    else:
        in_effect.append(redo.pop())
