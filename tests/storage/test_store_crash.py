"""Crash safety: a writer killed with SIGKILL at random moments never loses an acknowledged action.

Each life of the writer is a child process (forked, so it starts in milliseconds) that plays the
game through the store and reports on a pipe, one line per step: "try ..." before it asks the
store, "ok VERSION DIGEST" once the store has answered (the acknowledgement). The parent kills it
once it has acknowledged a random number of steps, at a random moment within the step after,
reopens the database like a restarted app, and checks: every acknowledged entry is there, at
most the one unacknowledged attempt was committed besides, and the replayed state is the state
the writer had (or that state plus that one attempt).

Each life is counted in steps acknowledged, not in time, so a slow or loaded machine does the
same work, only later: a fixed time window acknowledged far fewer steps at a load of 15.
"""

import json
import os
import random
import select
import signal
import sqlite3
import time

from storage_helpers import config, digest, next_action, unresolved

from companion.rules import Game
from storage import Store

LIVES = 24
STEPS = (3, 7)  # steps each life acknowledges before its kill, drawn at random (111 in all here)
ENOUGH = 100  # acknowledged steps in all: a test of fewer would have killed little but idle writers
JITTER = 0.02  # s: the kill lands this much at most after the last counted acknowledgement
LIFE_DEADLINE = 120.0  # s for one life's steps: a step takes milliseconds, seconds on a loaded machine


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


def _read_until(fd: int, data: bytes, enough, deadline: float) -> bytes:
    """What the writer said so far (`data`) and more, until `enough(lines)`, the pipe closes (the
    writer is gone), or the deadline passes (which fails: the writer is stuck)."""
    while not enough(_lines(data)):
        left = deadline - time.monotonic()
        assert left > 0, f"the writer is stuck: {_lines(data)[-3:]}"
        if not select.select([fd], [], [], left)[0]:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        data += chunk
    return data


def _lines(data: bytes) -> list[str]:
    """The complete lines (a line cut by the kill was never an acknowledgement)."""
    return data.decode().split("\n")[:-1]


def _acknowledged(count: int):
    """`enough` for `_read_until`: `count` steps acknowledged, or the writer stopped by itself."""
    return lambda lines: (
        sum(line.startswith("ok") for line in lines) >= count
        or any(line == "done" or line.startswith("error") for line in lines)
    )


def _life(fd: int, pid: int, steps: int, jitter: float) -> tuple[str, list[str]]:
    """Let the writer acknowledge `steps` steps, kill it `jitter` seconds later (anywhere in the
    step it is taking then), and return its "ready" line and every complete line after it."""
    deadline = time.monotonic() + LIFE_DEADLINE
    data = _read_until(fd, b"", _acknowledged(steps), deadline)
    time.sleep(jitter)  # where in its next step the kill lands, not a wait for anything
    os.kill(pid, signal.SIGKILL)
    lines = _lines(_read_until(fd, data, lambda lines: False, deadline))  # to the end: it is dead
    assert lines and lines[0].startswith("ready"), lines
    return lines[0], lines[1:]


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
        ready, lines = _life(fd, pid, rng.randint(*STEPS), rng.uniform(0.0, JITTER))
        os.close(fd)
        _, status = os.waitpid(pid, 0)
        assert not [line for line in lines if line.startswith("error")], lines
        if "done" in lines:
            break
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL

        attempt, version, state = None, int(ready.split()[1]), None
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
    assert acknowledged >= ENOUGH, f"only {acknowledged} acknowledged steps: the game ended early"
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
