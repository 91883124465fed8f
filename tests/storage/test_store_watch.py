"""The SQLite file is watched: deleted, moved or replaced under a running store, nothing more is
acknowledged; a start that finds no database where games were kept says so; the lock is the path's."""

import os
import shutil
import sqlite3

import pytest
from storage_helpers import config, play

from companion.app.host import instances
from companion.app.services.session import TableSession
from storage import DatabaseGone, DatabaseMissing, Store
from storage.files import hold_lock, kept_path, lock_path


def _played(path, actions: int = 5) -> tuple[Store, str, list[dict], int]:
    store = Store(str(path))
    cfg = config()
    moves = play(cfg, actions + 40)
    game_id = store.create_game(cfg)
    version = 0
    for action in moves[:actions]:
        version = store.submit(game_id, action, base_version=version).version
    return store, game_id, moves, version


def test_a_deleted_file_takes_no_more_writes_and_is_not_created_again(tmp_path):
    path = tmp_path / "games.sqlite3"
    store, game_id, moves, version = _played(path)
    try:
        path.unlink()
        for action in moves[version : version + 30]:  # the 30 writes: none acknowledged
            with pytest.raises(DatabaseGone, match=f"{path} was deleted or moved away while the app was running"):
                store.submit(game_id, action, base_version=version)
        with pytest.raises(DatabaseGone):
            store.create_game(config())
        with pytest.raises(DatabaseGone):
            store.load(game_id)  # a read would open a new connection: it is refused too
        with pytest.raises(DatabaseGone):
            store.devices.secret(game_id)
        assert not path.exists()  # nothing made an empty database at the path behind the app's back
    finally:
        store.close()
    assert not path.exists()


def test_the_app_shows_the_message_and_keeps_its_table(tmp_path):
    path = tmp_path / "games.sqlite3"
    store, game_id, moves, version = _played(path)
    try:
        session = TableSession(store, game_id)
        path.unlink()
        outcome = session.submit(moves[version])
        assert not outcome.accepted and outcome.error is not None
        assert "was deleted or moved away" in outcome.error and str(path) in outcome.error
        assert session.version == version
    finally:
        store.close()


def test_a_replaced_file_is_refused_and_a_file_moved_back_is_taken_again(tmp_path):
    path = tmp_path / "games.sqlite3"
    other = tmp_path / "other.sqlite3"
    Store(str(other)).close()
    store, game_id, moves, version = _played(path)
    try:
        moved = tmp_path / "moved.sqlite3"
        os.replace(path, moved)
        shutil.copy(other, path)  # another database at the path: never written through old connections
        with pytest.raises(DatabaseGone, match="was replaced by another file"):
            store.submit(game_id, moves[version], base_version=version)
        os.replace(moved, path)  # the very file back: the store goes on
        version = store.submit(game_id, moves[version], base_version=version).version
        assert store.load(game_id).version == version
    finally:
        store.close()
    with Store(str(path)) as again:
        assert again.load(game_id).version == version


def test_a_write_committed_into_a_lost_file_is_not_acknowledged(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    store, game_id, moves, version = _played(path)
    try:
        real = store.db.check_file

        def deleted_during_commit(*, committed: bool = False) -> None:
            if committed:
                path.unlink(missing_ok=True)  # the file goes between the first check and COMMIT
            real(committed=committed)

        monkeypatch.setattr(store.db, "check_file", deleted_during_commit)
        with pytest.raises(DatabaseGone, match="the last change went into the lost file"):
            store.submit(game_id, moves[version], base_version=version)
    finally:
        store.close()


def test_a_start_that_finds_no_database_where_games_were_kept_says_so(tmp_path):
    path = tmp_path / "games.sqlite3"
    Store(str(path)).close()
    assert not kept_path(path).exists()  # no game yet: nothing to miss
    store, game_id, _, _ = _played(path)
    store.close()
    assert kept_path(path).exists()
    path.unlink()
    with pytest.raises(DatabaseMissing) as refused:
        Store(str(path))
    message = refused.value.message
    assert f"no database at {path}, where games were kept" in message and "\n" not in message
    assert f"dyo-companion games restore BACKUP --db {path}" in message and f"delete {kept_path(path)}" in message
    assert not path.exists()
    path.touch()  # an empty file is no database either
    with pytest.raises(DatabaseMissing):
        Store(str(path))
    with Store(str(path), missing_ok=True) as restoring:  # what a restore opens
        assert restoring.list_games() == []
    kept_path(path).unlink()  # the user's way to start afresh on purpose
    with Store(str(path)) as fresh:
        assert fresh.list_games() == []


def test_an_existing_database_with_games_is_marked_when_opened(tmp_path):
    path = tmp_path / "games.sqlite3"
    store, _, _, _ = _played(path)
    store.close()
    kept_path(path).unlink()  # a database kept by a version before the marker
    Store(str(path)).close()
    assert kept_path(path).exists()


def test_the_lock_belongs_to_the_path_even_after_the_file_was_replaced(tmp_path):
    path = tmp_path / "g.sqlite3"
    first = Store(str(path))
    try:
        instances.claim(first)
        assert lock_path(path).exists()
        path.unlink()
        sqlite3.connect(path).close()  # a new file at the path: the old lock was on the old file
        second = Store(str(path))
        try:
            with pytest.raises(instances.AlreadyServed, match="another companion is already serving"):
                instances.claim(second)
        finally:
            second.close()
    finally:
        for handle in instances._claims:
            handle.close()
        instances._claims.clear()
        first.close()
    handle = hold_lock(path)  # released with the server
    assert handle is not None
    handle.close()
