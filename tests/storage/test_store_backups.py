"""`games backup` and `games restore`: every game, whole (logs with undo and redo entries, ids,
join links, phones at their seats, the host key), copied while a store writes, brought back."""

import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from storage_helpers import config, play

from companion.cli import main
from storage import Store
from storage.devices import token_hash
from storage.files import hold_lock, kept_path
from storage.migrations import CURRENT_VERSION

ROOT = Path(__file__).resolve().parents[2]


def companion(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def _seated_game_with_rewinds(store: Store) -> str:
    """A game with undo and redo entries in its log and two phones at seats, one spectator."""
    cfg = config(seed=21)
    game_id = store.create_game(cfg)
    version = 0
    for n, action in enumerate(play(cfg, 30)):
        version = store.submit(game_id, action, base_version=version, key=f"k{n}").version
        if n % 7 == 6:
            version = store.undo(game_id, base_version=version).version
            version = store.undo(game_id, base_version=version).version
            version = store.redo(game_id, base_version=version).version
            version = store.redo(game_id, base_version=version).version
    secret = store.devices.secret(game_id)
    for seat, label in ((0, "Carmen's phone"), (2, "Yellow's phone"), (None, "the TV")):
        store.devices.bind(game_id, secret=secret, token_hash=token_hash(label), seat=seat, label=label)
    return game_id


def _whole(store: Store, game_id: str) -> tuple:
    """Everything a game is: its log, its seats and phones, its link, its state."""
    table = store.load(game_id)
    devices = sorted((d.id, d.seat, d.label) for d in store.devices.devices(game_id))
    return store.events(game_id), devices, store.devices.secret(game_id), table.version, table.can_redo


class Writer(threading.Thread):
    """A table playing on through its own store while the backup runs."""

    def __init__(self, url: str, game_id: str, actions: list[dict]) -> None:
        super().__init__(daemon=True)
        self.url, self.game_id, self.actions = url, game_id, actions
        self.stop = threading.Event()
        self.acknowledged = 0
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with Store(self.url) as store:
                version = store.load(self.game_id).version
                for action in self.actions:
                    if self.stop.is_set():
                        break
                    version = store.submit(self.game_id, action, base_version=version).version
                    self.acknowledged = version
        except BaseException as error:
            self.error = error


def test_a_backup_taken_while_a_store_writes_restores_every_game_whole(tmp_path):
    live = str(tmp_path / "live.sqlite3")
    with Store(live) as store:
        quiet = _seated_game_with_rewinds(store)
        cfg = config(seed=5)
        busy = store.create_game(cfg)
        host_key = store.devices.server_secret("host")
        before = _whole(store, quiet)
    writer = Writer(live, busy, play(cfg, 400))
    writer.start()
    try:
        while writer.acknowledged < 20 and writer.is_alive():
            threading.Event().wait(0.01)
        started_at = writer.acknowledged
        done = companion("games", "backup", str(tmp_path / "backup.sqlite3"), "--db", live)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("backed up 2 games (") and "backup.sqlite3" in done.stdout
    finally:
        writer.stop.set()
        writer.join(60)
    assert writer.error is None and writer.acknowledged > started_at

    restored = str(tmp_path / "restored.sqlite3")
    done = companion("games", "restore", str(tmp_path / "backup.sqlite3"), "--db", restored)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("restored 2 games (") and restored in done.stdout
    with Store(restored) as copy, Store(live) as source:
        assert sorted(g.id for g in copy.list_games()) == sorted(g.id for g in source.list_games())
        assert _whole(copy, quiet) == before  # undo and redo entries, ids, phones at their seats
        kinds = {e.kind for e in copy.events(quiet)}
        assert kinds == {"action", "undo", "redo"}
        phone = copy.devices.find(token_hash("Carmen's phone"))
        assert phone is not None and phone.seat == 0  # the phone comes back to its seat
        assert copy.devices.server_secret("host") == host_key  # the host link still works
        copied = copy.events(busy)
        assert started_at <= len(copied) <= writer.acknowledged
        assert copied == source.events(busy)[: len(copied)]  # one consistent moment of the log
        assert copy.verify(quiet) == [] and copy.verify(busy) == []
        assert copy.prepared.version == CURRENT_VERSION


def test_a_backup_holds_what_is_still_in_the_write_ahead_log(tmp_path):
    """Copying the live file held 0 of 25 actions: they were in the -wal file beside it."""
    live = str(tmp_path / "live.sqlite3")
    store = Store(live)
    try:
        cfg = config()
        game_id = store.create_game(cfg)
        version = 0
        for action in play(cfg, 25):
            version = store.submit(game_id, action, base_version=version).version
        assert main(["games", "backup", str(tmp_path / "b.sqlite3"), "--db", live]) == 0
    finally:
        store.close()
    backup = sqlite3.connect(tmp_path / "b.sqlite3")
    try:
        assert backup.execute("SELECT count(*) FROM events").fetchone() == (25,)
        assert backup.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file, no -wal needed
    finally:
        backup.close()


def test_a_restore_into_a_database_with_games_is_refused_unless_replace(tmp_path, capsys):
    first, second = str(tmp_path / "first.sqlite3"), str(tmp_path / "second.sqlite3")
    with Store(first) as store:
        kept = store.create_game(config())
    with Store(second) as store:
        other = store.create_game(config(seed=9))
    backup = str(tmp_path / "first.backup")
    assert main(["games", "backup", backup, "--db", first]) == 0
    capsys.readouterr()
    assert main(["games", "restore", backup, "--db", second]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds 1 game(s)" in err and "--replace" in err
    with Store(second) as store:
        assert [g.id for g in store.list_games()] == [other]  # nothing changed
    assert main(["games", "restore", backup, "--db", second, "--replace"]) == 0
    out = capsys.readouterr().out
    assert "the games it held were copied first to" in out
    with Store(second) as store:
        assert [g.id for g in store.list_games()] == [kept]
    aside = next(tmp_path.glob("second.sqlite3.before-restore-*.backup"))
    with Store(str(aside)) as store:
        assert [g.id for g in store.list_games()] == [other]


def test_a_restore_while_a_server_serves_the_database_is_refused(tmp_path, capsys):
    live = tmp_path / "live.sqlite3"
    Store(str(live)).close()
    backup = str(tmp_path / "b.sqlite3")
    assert main(["games", "backup", backup, "--db", str(live)]) == 0
    lock = hold_lock(live)  # what a server holds for its life
    try:
        assert main(["games", "restore", backup, "--db", str(live)]) == 2
        assert "a companion is serving" in capsys.readouterr().err
    finally:
        assert lock is not None
        lock.close()


def test_a_lost_database_is_brought_back_by_restore(tmp_path, capsys):
    live = tmp_path / "games.sqlite3"
    with Store(str(live)) as store:
        game_id = store.create_game(config())
    assert main(["games", "backup", str(tmp_path / "b.sqlite3"), "--db", str(live)]) == 0
    live.unlink()
    assert kept_path(live).exists()
    assert main(["games", "list", "--db", str(live)]) == 1  # refused, and says how to restore
    assert f"dyo-companion games restore BACKUP --db {live}" in capsys.readouterr().err
    assert main(["games", "restore", str(tmp_path / "b.sqlite3"), "--db", str(live)]) == 0
    with Store(str(live)) as store:
        assert [g.id for g in store.list_games()] == [game_id]


@pytest.mark.parametrize("kind", ["text", "other sqlite", "newer"])
def test_a_file_that_is_no_backup_is_refused(tmp_path, capsys, kind):
    source = tmp_path / "source"
    if kind == "text":
        source.write_text("not a database\n")
    else:
        other = sqlite3.connect(source)
        other.execute("CREATE TABLE notes (x)")
        if kind == "newer":
            with Store(str(tmp_path / "g.sqlite3")):
                pass
            other.close()
            shutil.copy(tmp_path / "g.sqlite3", source)
            other = sqlite3.connect(source)
            other.execute("UPDATE companion_schema SET version = version + 1")
            other.commit()
        other.close()
    target = tmp_path / "target.sqlite3"
    assert main(["games", "restore", str(source), "--db", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nothing was changed" in err
    assert not target.exists()


def test_backup_and_restore_name_the_postgresql_tools(capsys):
    url = "postgresql+psycopg2://nobody@127.0.0.1:1/none"
    assert main(["games", "backup", "b.dump", "--db", url]) == 2
    assert "pg_dump" in capsys.readouterr().err
    assert main(["games", "restore", "b.dump", "--db", url]) == 2
    assert "pg_restore" in capsys.readouterr().err
