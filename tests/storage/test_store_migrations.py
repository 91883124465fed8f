"""Schema versions: every older version migrates forward (with a backup first); newer ones are refused."""

import hashlib
import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from chance_support import GAMES, simulated, use_other_generator, without_rng
from sqlalchemy import inspect, text
from sqlmodel import SQLModel
from storage_helpers import config, find_roll, play, short_finished_game, snap, unresolved

from companion.rules import Game, parse_config
from storage import NewerSchema, StorageError, Store, migrations
from storage.database import Database
from storage.migrations import CURRENT_VERSION, prepare


def _write_v1(db: Database) -> dict:
    """Games as version 1 stored them: a finished game, and an unfinished one with an undo."""
    finished_cfg, finished_actions = short_finished_game(8)
    active_cfg = config(seed=11)
    active_actions = play(active_cfg, 12)
    games = {"f1": (finished_cfg, finished_actions, False), "a1": (active_cfg, active_actions, True)}
    write_old_games(db, games)
    return games


def write_old_games(db: Database, games: dict) -> None:
    """Entries as versions 1 to 3 wrote them: each action as submitted (its outcomes left to the
    seed) and the configuration without the setup's draws. {id: (config, actions, undo_last)}."""
    now = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)
    at = now.isoformat(" ") if db.is_sqlite else now
    with db.engine.begin() as conn:
        for game_id, (cfg, actions, undo_last) in games.items():
            game = Game(cfg)
            answers = [game.submit(a).to_json() for a in actions]
            state = Game.replay(cfg, actions[:-1] if undo_last else actions).state
            version = len(actions) + (1 if undo_last else 0)
            winner = None if state.winner is None else state.players[state.winner].name
            conn.execute(
                text(
                    "INSERT INTO games (id, created, updated, finished, status, ruleset, seed, config, version, "
                    "winner) VALUES (:id, :now, :now, :fin, :status, 'official', :seed, :config, :version, :winner)"
                ),
                {
                    "id": game_id,
                    "now": at,
                    "fin": at if winner else None,
                    "status": "finished" if winner else "active",
                    "seed": cfg["seed"],
                    "config": json.dumps(parse_config(cfg).normalised),
                    "version": version,
                    "winner": winner,
                },
            )
            for p in game.state.players:
                conn.execute(
                    text("INSERT INTO seats (game_id, seat, name, colour, team) VALUES (:g, :s, :n, :c, :t)"),
                    {"g": game_id, "s": p.seat, "n": p.name, "c": p.color, "t": p.team},
                )
            rows = [
                {
                    "seq": i + 1,
                    "kind": "action",
                    "action": json.dumps(a),
                    "answer": json.dumps(answers[i]),
                    "target": None,
                    "undone": undo_last and i == len(actions) - 1,
                }
                for i, a in enumerate(actions)
            ]
            if undo_last:
                rows.append(
                    {
                        "seq": len(actions) + 1,
                        "kind": "undo",
                        "action": json.dumps({"type": "undo", "target": len(actions)}),
                        "answer": json.dumps({"accepted": True, "step": len(actions) - 1, "undone": len(actions)}),
                        "target": len(actions),
                        "undone": False,
                    }
                )
            for row in rows:
                conn.execute(
                    text(
                        "INSERT INTO events (game_id, seq, kind, action, answer, target, submitted_by, at, undone, "
                        "idempotency_key) VALUES (:g, :seq, :kind, :action, :answer, :target, 'v1', :at, :undone, NULL)"
                    ),
                    {"g": game_id, "at": at, **row},
                )


def _write_v2(db: Database) -> dict:
    """Version 2 kept the same games, with statistics written on the seats of finished games."""
    games = _write_v1(db)
    with db.engine.begin() as conn:
        migrations._backfill_statistics(conn)  # what version 2 wrote when each game finished
    return games


def _write_v3(db: Database) -> dict:
    """Version 3 kept the same games (its new tables are for phones)."""
    return _write_v2(db)


def _write_v4(db: Database) -> dict:
    """Version 4 kept the same games, their logs in the resolved form (what its upgrade wrote)."""
    games = _write_v3(db)
    with db.engine.begin() as conn:
        migrations._resolve_logs(conn)
    return games


def _write_v5(db: Database) -> dict:
    """Version 5 kept the same games (its new table holds the server's own secrets)."""
    return _write_v4(db)


# Data written by each older version, in that version's own schema. A new schema version must
# add its writer here, so the test always migrates from every version to the current one.
OLD_VERSIONS = {1: _write_v1, 2: _write_v2, 3: _write_v3, 4: _write_v4, 5: _write_v5}


def test_every_old_version_is_covered():
    assert sorted(OLD_VERSIONS) == list(range(1, CURRENT_VERSION))


def test_a_new_database_is_created_at_the_current_version(store):
    assert (store.prepared.found, store.prepared.version, store.prepared.backup) == (0, CURRENT_VERSION, None)
    with store.db.engine.connect() as conn:
        assert conn.execute(text("SELECT app, version FROM companion_schema")).one() == (
            "dyo-companion",
            CURRENT_VERSION,
        )


@pytest.mark.parametrize("version", sorted(OLD_VERSIONS))
def test_an_old_database_is_backed_up_then_migrated(db_url, make_url, version):
    old = Database(db_url)
    assert prepare(old, target=version).version == version
    games = OLD_VERSIONS[version](old)
    old.dispose()

    with Store(db_url) as store:
        assert (store.prepared.found, store.prepared.version) == (version, CURRENT_VERSION)
        backup = store.prepared.backup
        assert backup
        active_cfg, active_actions, _ = games["a1"]
        table = store.load("a1")
        assert snap(table.game.state) == snap(Game.replay(active_cfg, active_actions[:-1]).state)
        assert table.can_redo and store.redo("a1", base_version=table.version).steps == len(active_actions)
        stats = store.statistics()
        assert store.verify("f1") == [] and store.verify("a1") == []
        # Version 3: an old game gets a join link and phones on first use.
        secret = store.devices.secret("a1")
        phone = store.devices.bind("a1", secret=secret, token_hash="ab" * 32, seat=1, label="phone")
        assert store.devices.find("ab" * 32) == store.devices.get(phone.id) and phone.seat == 1
    finished_cfg, finished_actions, _ = games["f1"]
    with Store(make_url()) as fresh:  # the same game stored by the current version
        fresh.import_game({"config": finished_cfg, "actions": finished_actions})
        expected = fresh.statistics()
    assert [g.seats for g in stats.games] == [g.seats for g in expected.games]
    assert stats.players == expected.players

    if old.is_sqlite:
        copy = sqlite3.connect(backup)
        try:
            assert copy.execute("SELECT version FROM companion_schema").fetchone() == (version,)
            assert copy.execute("SELECT count(*) FROM events").fetchone() == (
                len(finished_actions) + len(active_actions) + 1,
            )
        finally:
            copy.close()
    else:
        with Database(db_url).engine.connect() as conn:
            tables = inspect(conn).get_table_names()
            copied = [t for t in tables if t.startswith(f"backup_v{version}_") and t.endswith("_events")]
            assert len(copied) == 1
            assert conn.execute(text(f"SELECT count(*) FROM {copied[0]}")).scalar() == (
                len(finished_actions) + len(active_actions) + 1
            )


def test_the_migrated_schema_is_the_models_schema(store):
    with store.db.engine.connect() as conn:
        found = inspect(conn)
        for table in SQLModel.metadata.sorted_tables:
            columns = {c["name"]: c["nullable"] for c in found.get_columns(table.name)}
            assert columns == {c.name: c.nullable for c in table.columns}, table.name
            assert found.get_pk_constraint(table.name)["constrained_columns"] == [
                c.name for c in table.primary_key.columns
            ]


def test_a_failed_migration_changes_nothing(db_url, monkeypatch):
    old = Database(db_url)
    prepare(old, target=1)
    _write_v1(old)
    old.dispose()

    def broken(conn):
        conn.execute(text("ALTER TABLE seats ADD COLUMN won BOOLEAN NOT NULL DEFAULT FALSE"))
        raise RuntimeError("power cut in the middle of the migration")

    monkeypatch.setitem(migrations.STEPS, 2, broken)
    with pytest.raises(RuntimeError):
        Store(db_url)
    monkeypatch.undo()
    check = Database(db_url)
    with check.engine.connect() as conn:
        assert conn.execute(text("SELECT version FROM companion_schema")).scalar() == 1
        assert "won" not in {c["name"] for c in inspect(conn).get_columns("seats")}
    check.dispose()
    with Store(db_url) as store:  # and a working version still migrates it
        assert store.prepared.found == 1 and store.load("a1").version == 13


def test_no_backup_no_migration(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    old = Database(str(path))
    prepare(old, target=1)
    _write_v1(old)
    old.dispose()
    before = _digest(path)
    monkeypatch.setattr(migrations, "_free_name", lambda p: tmp_path / "missing-folder" / "backup")
    with pytest.raises(StorageError, match="cannot back up .* before upgrading its schema from version 1"):
        Store(str(path))
    assert _digest(path) == before


def test_a_newer_schema_is_refused_untouched(db_url):
    Store(db_url).close()
    db = Database(db_url)
    with db.engine.begin() as conn:
        conn.execute(text("UPDATE companion_schema SET version = :v"), {"v": CURRENT_VERSION + 3})
    db.dispose()
    path = Path(db.path) if db.path else None
    before = _digest(path) if path else None
    with pytest.raises(
        NewerSchema,
        match=f"newer version of the companion \\(schema {CURRENT_VERSION + 3}; this "
        f"version reads up to {CURRENT_VERSION}\\)",
    ) as refused:
        Store(db_url)
    assert refused.value.found == CURRENT_VERSION + 3
    if path:
        assert _digest(path) == before


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_upgrade_writes_the_outcomes_into_games_in_progress(db_url, monkeypatch, caplog):
    """Schema 3 to 4: games in progress read back identically, now with their outcomes in the log
    (so another generator changes nothing); a game whose answers disagree with a replay is
    reported and left exactly as it was."""
    old = Database(db_url)
    prepare(old, target=3)
    games = {
        f"{modules}{seed}": (cfg, actions[:150], seed % 2 == 0)
        for modules, seed in GAMES[:4]
        for cfg, actions in [simulated(modules, seed)]
    }
    diverged_cfg = config(seed=11)
    diverged_actions = play(diverged_cfg, 40)
    games["diverged"] = (diverged_cfg, diverged_actions, False)
    write_old_games(old, games)
    roll_at = find_roll(diverged_cfg, diverged_actions) + 1
    with old.engine.begin() as conn:
        answer = json.loads(
            conn.execute(
                text("SELECT answer FROM events WHERE game_id = 'diverged' AND seq = :s"), {"s": roll_at}
            ).scalar()
        )
        for event in answer["events"]:
            if event["type"] == "roll":
                event["die"] = 7 - event["die"]  # not what the seed rolled: the log and the replay disagree
        conn.execute(
            text("UPDATE events SET answer = :a WHERE game_id = 'diverged' AND seq = :s"),
            {"a": json.dumps(answer), "s": roll_at},
        )
        before = _game_rows(conn, "diverged")
    old.dispose()
    expected = {
        game_id: without_rng(Game.replay(cfg, actions[:-1] if undo_last else actions).state)
        for game_id, (cfg, actions, undo_last) in games.items()
    }
    after_redo = {
        game_id: without_rng(Game.replay(cfg, actions).state)
        for game_id, (cfg, actions, undo_last) in games.items()
        if undo_last
    }

    with caplog.at_level("WARNING", logger="storage.migrations"), Store(db_url) as store:
        assert (store.prepared.found, store.prepared.version) == (3, CURRENT_VERSION)
        for game_id, (_, actions, undo_last) in games.items():
            if game_id == "diverged":
                continue
            assert without_rng(store.load(game_id).game.state) == expected[game_id], game_id
            assert store.verify(game_id) == [], game_id
            exported = store.export_game(game_id)
            assert unresolved(exported["actions"]) == (actions[:-1] if undo_last else actions)
            assert any("outcomes" in a for a in exported["actions"]) and "gang_piles" in exported["config"]["start"]
        with store.db.engine.connect() as conn:
            assert _game_rows(conn, "diverged") == before
        problems = store.verify("diverged")
        assert problems[0].startswith(
            "the upgrade to schema version 4 left this game's log as it was: "
            f"entry {roll_at} (action) replays differently"
        )
    assert any("game diverged" in r.getMessage() and "left it as it was" in r.getMessage() for r in caplog.records)

    use_other_generator(monkeypatch)
    with Store(db_url) as fresh:
        for game_id, (_, _, undo_last) in games.items():
            if game_id != "diverged":
                table = fresh.load(game_id)
                assert without_rng(table.game.state) == expected[game_id], game_id
                if undo_last:  # redo reads back the outcomes the undone action had
                    redone = fresh.redo(game_id, base_version=table.version)
                    assert without_rng(redone.game.state) == after_redo[game_id], game_id


def _game_rows(conn, game_id: str) -> tuple:
    """Everything stored of one game, to tell that an upgrade left it as it was."""
    config = conn.execute(text("SELECT config FROM games WHERE id = :g"), {"g": game_id}).scalar()
    events = conn.execute(
        text("SELECT seq, kind, action, answer, undone FROM events WHERE game_id = :g ORDER BY seq"), {"g": game_id}
    ).all()
    return config, [tuple(e) for e in events]
