"""Bad places to keep games: a clear message, and the user's data never overwritten or truncated."""

import hashlib
import os
import shutil
import sqlite3
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import event, text
from storage_helpers import config, play, snap

from companion.rules import Game
from storage import (
    CorruptDatabase,
    DatabaseProblem,
    DiskFull,
    ForeignDatabase,
    ReadOnly,
    StaleState,
    Store,
    Unreachable,
)
from storage.database import Database, default_path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _store_with_games(path: Path, games: int = 3) -> None:
    with Store(str(path)) as store:
        cfg = config()
        for _ in range(games):
            game_id = store.create_game(cfg)
            for version, action in enumerate(play(cfg, 40)):
                store.submit(game_id, action, base_version=version)


@pytest.mark.parametrize(
    "content",
    [b"Hello, I am a spreadsheet,\n1,2,3\n" * 50, os.urandom(8192), b"SQLite format 2\x00" + bytes(100), b"\x00\x01"],
)
def test_a_file_that_is_not_a_database_is_refused_untouched(tmp_path, content):
    path = tmp_path / "games.sqlite3"
    path.write_bytes(content)
    with pytest.raises(CorruptDatabase, match="is not a SQLite database .* It was not changed"):
        Store(str(path))
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite3"]


def test_a_damaged_database_is_reported_and_left_as_it_is(tmp_path):
    path = tmp_path / "games.sqlite3"
    _store_with_games(path, games=20)
    data = path.read_bytes()
    assert len(data) > 64 * 1024
    damaged = bytearray(data[: len(data) // 2])
    damaged[40 * 1024 : 48 * 1024] = os.urandom(8 * 1024)  # scribbled-over pages in the middle, and the end lost
    path.write_bytes(bytes(damaged))
    before = _digest(path)
    # The schema may still read: the damage shows on reading the games.
    with (
        pytest.raises(CorruptDatabase, match="damaged or is not a database .* It was not changed"),
        Store(str(path)) as store,
    ):
        for info in store.list_games():
            store.load(info.id)
        store.statistics()
    assert _digest(path) == before


def test_another_programs_database_is_refused_untouched(tmp_path):
    path = tmp_path / "photos.db"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, caption TEXT)")
    other.execute("INSERT INTO photos (caption) VALUES ('holiday')")
    other.commit()
    other.close()
    before = _digest(path)
    with pytest.raises(ForeignDatabase, match="belongs to another program .*photos.* It was not changed"):
        Store(str(path))
    assert _digest(path) == before


def test_a_folder_is_not_a_database(tmp_path):
    with pytest.raises(ForeignDatabase, match="is a folder"):
        Store(str(tmp_path))


def test_an_empty_file_becomes_a_database(tmp_path):
    path = tmp_path / "new.sqlite3"
    path.touch()
    with Store(str(path)) as store:
        assert store.load(store.create_game(config())).version == 0


def test_the_default_database_is_one_wal_file_in_the_users_data_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    expected = tmp_path / "data" / "dyo-companion" / "games.sqlite3"
    assert default_path() == expected
    with Store() as store:
        store.create_game(config())
        assert store.location == str(expected)
        with store.db.engine.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
    assert expected.exists()
    monkeypatch.setenv("COMPANION_DATABASE_URL", f"sqlite:///{tmp_path / 'chosen.sqlite3'}")
    with Store() as store:
        assert store.location == str(tmp_path / "chosen.sqlite3") and store.list_games() == []


def test_a_full_disk_writes_nothing_and_says_so(tmp_path):
    path = tmp_path / "games.sqlite3"
    cfg = config()
    actions = play(cfg, 200)
    with Store(str(path)) as store:
        game_id = store.create_game(cfg)
        version = 0
        for action in actions[:20]:
            version = store.submit(game_id, action, base_version=version).version
        with store.db.engine.connect() as conn:
            pages = conn.execute(text("PRAGMA page_count")).scalar()

        def no_more_pages(dbapi_connection, _record):  # SQLite's own "disk full": the file may not grow
            dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

        event.listen(store.db.engine, "connect", no_more_pages)
        store.db.engine.dispose()
        full = None
        for action in actions[20:]:
            try:
                version = store.submit(game_id, action, base_version=version).version
            except DiskFull as error:
                full = error
                break
        assert full is not None, "the database never filled up"
        assert "is full; nothing was written and your games are as they were. Free some space" in full.message
        table = store.load(game_id)
        assert table.version == version
        assert snap(table.game.state) == snap(Game.replay(cfg, actions[:version]).state)
        event.remove(store.db.engine, "connect", no_more_pages)
        store.db.engine.dispose()
        with pytest.raises(StaleState):
            store.submit(game_id, actions[version], base_version=version - 1)
        after = store.submit(game_id, actions[version], base_version=version)  # space again: it goes on
        assert after.answer.accepted
        assert snap(after.table.game.state) == snap(Game.replay(cfg, actions[: version + 1]).state)
        assert store.verify(game_id) == []


@contextmanager
def read_only_folder(folder: Path):
    """Make a folder read-only, also for root (who ignores permissions but not the immutable flag)."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        undo = lambda: folder.chmod(0o755)  # noqa: E731
    else:
        if shutil.which("chattr") is None:
            pytest.fail(
                "running as root, this test makes a folder read-only with chattr +i: "
                "install e2fsprogs (apt-get install e2fsprogs)"
            )
        made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, text=True)
        if made.returncode:
            pytest.fail(
                f"running as root, this test needs chattr +i on {folder} (CAP_LINUX_IMMUTABLE and a "
                f"filesystem with the immutable flag, e.g. ext4): {made.stderr.strip()}"
            )
        undo = lambda: subprocess.run(["chattr", "-i", str(folder)], check=True)  # noqa: E731
    try:
        try:
            (folder / "probe").touch()
        except OSError:
            pass
        else:
            pytest.fail(f"could not make {folder} read-only")
        yield
    finally:
        undo()


def test_a_read_only_folder_is_reported_and_the_data_kept(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    path = folder / "games.sqlite3"
    _store_with_games(path, games=2)
    # WAL files are gone after a clean close; the marker stays (files.py)
    assert sorted(p.name for p in folder.iterdir()) == ["games.sqlite3", "games.sqlite3.kept"]
    before = _digest(path)
    with read_only_folder(folder):
        with pytest.raises(ReadOnly, match=f"its folder {folder} is read-only"), Store(str(path)) as store:
            store.list_games()
        with pytest.raises(ReadOnly, match="read-only"):
            Store(str(folder / "new.sqlite3"))
        with pytest.raises(ReadOnly, match=f"cannot create the folder {folder / 'sub'}"):
            Store(str(folder / "sub" / "games.sqlite3"))
    assert _digest(path) == before
    with Store(str(path)) as store:
        assert len(store.list_games()) == 2


def test_an_unreachable_server_is_named():
    with pytest.raises(
        Unreachable,
        match=r"cannot reach the database server postgresql\+psycopg2://nobody:\*\*\*@"
        r"127.0.0.1:9/games: .*Connection refused",
    ) as refused:
        Store("postgresql+psycopg2://nobody:secret@127.0.0.1:9/games")
    assert "secret" not in refused.value.message and "\n" not in refused.value.message


@pytest.mark.parametrize(
    "written", ["postgresql://me@db/games", "postgresql+psycopg2://me@db/games", "postgresql+psycopg://me@db/games"]
)
def test_a_postgresql_url_however_written_opens_with_psycopg_3(written):
    """One driver for the store and the notifications between instances; the older spellings still
    work, and messages name the database as the user wrote it."""
    db = Database(written)  # the engine connects on first use: no server needed here
    try:
        assert (db.engine.dialect.name, db.engine.dialect.driver) == ("postgresql", "psycopg")
        assert db.url.drivername == "postgresql+psycopg" and not db.is_sqlite
        assert db.label == written
    finally:
        db.dispose()


def test_a_missing_postgresql_driver_says_what_to_install(monkeypatch):
    import builtins

    real = builtins.__import__

    def without_psycopg(name, *args, **kwargs):
        if name.split(".")[0] == "psycopg":
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_psycopg)
    with pytest.raises(DatabaseProblem, match=r"postgresql://me@db/games .*pip install 'psycopg\[binary\]'"):
        Database("postgresql://me@db/games")


def test_bad_urls_and_missing_drivers_are_named():
    with pytest.raises(DatabaseProblem, match="is not a database URL"):
        Store("sqlite+::nonsense://")
    with pytest.raises(DatabaseProblem, match="no SQLAlchemy driver .* install it"):
        Store("nosuchdb://host/games")
