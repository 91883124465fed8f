"""The store's contract with the UI: create, list, load, submit, optimistic concurrency, keys."""

import json

import pytest
from storage_helpers import config, play, snap, unresolved

from companion.rules import ConfigError, Game, MalformedAction
from storage import GameNotFound, InvalidArgument, KeyReused, StaleState, Store


def test_create_stores_seats_and_validates_through_the_engine(store):
    cfg = config(4, teams={"a": [0, 2], "b": [1, 3]}, modules={"team": True})
    game_id = store.create_game(cfg)
    (info,) = store.list_games()
    assert info.id == game_id and info.status == "active" and info.version == 0 and info.finished is None
    assert info.players == ("Carmen", "Nicholas", "Yellow", "Dana") and info.ruleset == "official"
    assert [(s.name, s.colour, s.team) for s in info.seats] == [
        ("Carmen", "red", "a"),
        ("Nicholas", "blue", "b"),
        ("Yellow", "yellow", "a"),
        ("Dana", "green", "b"),
    ]
    assert info.created.tzinfo is not None
    with pytest.raises(ConfigError):
        store.create_game({"players": [{"name": "Solo"}]})
    assert len(store.list_games()) == 1


def test_a_configuration_without_seed_gets_its_own_stored_seed(store):
    first = store.load(store.create_game({"players": [{"name": "A"}, {"name": "B"}]}))
    second = store.load(store.create_game({"players": [{"name": "A"}, {"name": "B"}]}))
    assert first.config["seed"] != second.config["seed"]
    assert store.load(first.game_id).config == first.config


def test_load_replays_the_log_to_the_same_state(store, db_url):
    cfg = config()
    actions = play(cfg, 60)
    game_id = store.create_game(cfg)
    version = 0
    for action in actions:
        sub = store.submit(game_id, action, base_version=version, submitted_by="Carmen's phone")
        assert sub.answer.accepted and not sub.duplicate
        assert sub.version == version + 1 == sub.table.version
        version = sub.version
    expected = snap(Game.replay(cfg, actions).state)
    assert snap(sub.table.game.state) == expected
    with Store(db_url) as fresh:  # another process: nothing cached, the log replayed
        table = fresh.load(game_id)
    assert table.version == len(actions) and table.steps == len(actions)
    assert snap(table.game.state) == expected
    assert table.status == "active" and table.can_undo and not table.can_redo
    assert unresolved(a.to_json() for a in table.game.log) == actions


def test_a_refused_action_writes_nothing(store):
    game_id = store.create_game(config())
    sub = store.submit(game_id, {"type": "dig", "player": 1, "tool": "spoon"}, base_version=0)
    assert not sub.answer.accepted and sub.answer.violations
    assert sub.version == 0 and sub.table.version == 0
    assert store.events(game_id) == [] and store.load(game_id).version == 0


def test_a_malformed_action_raises_and_writes_nothing(store):
    game_id = store.create_game(config())
    with pytest.raises(MalformedAction):
        store.submit(game_id, {"type": "teleport", "player": 0}, base_version=0)
    with pytest.raises(MalformedAction):
        store.submit(game_id, {"type": "search"}, base_version=0)
    assert store.events(game_id) == []


def test_a_stale_version_is_refused_and_writes_nothing(store):
    cfg = config()
    first, second = play(cfg, 2)
    game_id = store.create_game(cfg)
    store.submit(game_id, first, base_version=0)
    with pytest.raises(StaleState) as stale:
        store.submit(game_id, second, base_version=0)
    assert stale.value.current_version == 1 and stale.value.base_version == 0
    with pytest.raises(StaleState):
        store.submit(game_id, second, base_version=2)
    assert len(store.events(game_id)) == 1
    assert store.submit(game_id, second, base_version=1).version == 2


def test_a_retried_key_is_applied_once(store):
    cfg = config()
    first, second = play(cfg, 2)
    game_id = store.create_game(cfg)
    applied = store.submit(game_id, first, base_version=0, key="phone-1/1")
    store.submit(game_id, second, base_version=1, key="phone-1/2")
    # The acknowledgement of the first was lost: the phone retries with its old version.
    retry = store.submit(game_id, first, base_version=0, key="phone-1/1")
    assert retry.duplicate and retry.version == 2 and retry.table.version == 2
    assert retry.answer.to_json() == applied.answer.to_json()
    assert len(store.events(game_id)) == 2
    with pytest.raises(KeyReused):
        store.submit(game_id, second, base_version=2, key="phone-1/1")
    assert len(store.events(game_id)) == 2


def test_unknown_games_are_reported(store):
    for call in (
        lambda: store.load("nope"),
        lambda: store.events("nope"),
        lambda: store.export_game("nope"),
        lambda: store.submit("nope", {"type": "search", "player": 0}, base_version=0),
        lambda: store.undo("nope", base_version=0),
        lambda: store.redo("nope", base_version=0),
    ):
        with pytest.raises(GameNotFound, match="no game with id 'nope'"):
            call()


def test_the_log_records_answers_who_and_when(store):
    cfg = config()
    actions = play(cfg, 30)
    game_id = store.create_game(cfg)
    for version, action in enumerate(actions):
        store.submit(game_id, action, base_version=version, submitted_by=f"seat {version % 3}")
    log = store.events(game_id)
    assert [e.seq for e in log] == list(range(1, 31))
    assert unresolved(e.action for e in log) == actions
    assert all(e.kind == "action" and not e.undone and e.at.tzinfo is not None for e in log)
    assert log[4].submitted_by == "seat 1"
    replay = Game(cfg)
    for entry in log:
        assert json.loads(json.dumps(replay.submit(entry.action).to_json())) == entry.answer
    rolls = [e for entry in log for e in entry.answer["events"] if e["type"] == "roll"]
    assert rolls, "the recorded answers carry the dice"


def test_a_table_is_the_callers_copy(store):
    cfg = config()
    first, second = play(cfg, 2)
    game_id = store.create_game(cfg)
    table = store.load(game_id)
    table.game.submit(first)  # the UI plays with its copy...
    table.config["seed"] = 0
    fresh = store.load(game_id)  # ...the stored game did not move
    assert fresh.version == 0 and fresh.steps == 0 and fresh.config["seed"] == cfg["seed"]
    assert store.submit(game_id, first, base_version=0).answer.accepted


def test_list_games_filters_by_status_latest_first(store):
    cfg = config()
    older = store.create_game(cfg)
    newer = store.create_game(cfg)
    store.submit(older, play(cfg, 1)[0], base_version=0)  # played last: listed first
    assert [g.id for g in store.list_games()] == [older, newer]
    assert [g.id for g in store.list_games("active")] == [older, newer]
    assert store.list_games("finished") == []
    with pytest.raises(ValueError):
        store.list_games("paused")


def test_submitted_by_and_key_are_bounded(store):
    game_id = store.create_game(config())
    with pytest.raises(InvalidArgument):
        store.submit(game_id, {"type": "search", "player": 0}, base_version=0, key="k" * 201)
    with pytest.raises(InvalidArgument):
        store.undo(game_id, base_version=0, by="x" * 81)


def test_an_in_memory_database_works_for_quick_tests():
    cfg = config()
    with Store("sqlite://") as memory:
        game_id = memory.create_game(cfg)
        first = play(cfg, 1)[0]
        assert memory.submit(game_id, first, base_version=0).version == 1
        exported = memory.export_game(game_id)
        assert exported["config"] == Game(cfg).config and unresolved(exported["actions"]) == [first]


def test_another_process_s_actions_move_the_cached_game_on_without_a_replay(store, db_url, monkeypatch):
    """An instance that showed a game reads only the entries another one appended since; an undo
    among them takes a replay. Either way the state is the whole log's."""
    from storage import replays

    cfg = config()
    actions = play(cfg, 30)
    game_id = store.create_game(cfg)
    with Store(db_url) as other:
        other.load(game_id)  # cached at version 0
        replayed = []
        real_replay = replays.replay
        monkeypatch.setattr(
            replays, "replay", lambda conn, head: replayed.append(head.version) or real_replay(conn, head)
        )
        version = 0
        for n, action in enumerate(actions):
            version = store.submit(game_id, action, base_version=version).version
            if n % 4 == 3:  # sometimes several actions at once
                table = other.load(game_id)
                assert table.version == version and table.can_undo and not table.can_redo
                assert snap(table.game.state) == snap(Game.replay(cfg, actions[: n + 1]).state)
        assert replayed == []
        version = store.undo(game_id, base_version=version).version
        table = other.load(game_id)
        assert replayed == [version] and table.can_redo
        assert snap(table.game.state) == snap(Game.replay(cfg, actions[:-1]).state)
        nxt = other.submit(game_id, actions[-1], base_version=version)  # the writer's copy follows too
        assert nxt.answer.accepted and snap(store.load(game_id).game.state) == snap(nxt.table.game.state)


def test_a_deleted_game_is_gone_with_its_log_seats_and_devices(store, db_url):
    from sqlalchemy import func, select
    from sqlmodel import SQLModel

    from storage.devices import token_hash

    # rows only a long, finished or damaged game has
    OPTIONAL = {"snapshots", "log_problems", "resume_points", "resume_pages"}
    cfg = config()
    kept, deleted = store.create_game(cfg), store.create_game(cfg)
    for game_id in (kept, deleted):
        version = 0
        for action in play(cfg, 12):
            version = store.submit(game_id, action, base_version=version).version
        store.devices.bind(
            game_id, secret=store.devices.secret(game_id), token_hash=token_hash(game_id), seat=1, label=""
        )
    store.undo(deleted, base_version=12)
    store.delete_game(deleted)
    assert [g.id for g in store.list_games()] == [kept]
    assert store.devices.find(token_hash(deleted)) is None and store.devices.find(token_hash(kept)) is not None
    assert not store.devices.secret_matches(deleted, "x")
    for read in (store.load, store.events, store.export_game, store.delete_game):
        with pytest.raises(GameNotFound):
            read(deleted)
    with pytest.raises(GameNotFound):
        store.submit(deleted, {"type": "end_turn", "player": 0}, base_version=13)
    with Store(db_url) as fresh:  # gone from the database, not only from this store's cache
        assert [g.id for g in fresh.list_games()] == [kept] and fresh.load(kept).version == 12
        with pytest.raises(GameNotFound):
            fresh.load(deleted)
    with store.db.transaction() as conn:  # every table that names a game, a table added later too
        for table in SQLModel.metadata.sorted_tables:
            key = table.c.id if table.name == "games" else table.c.get("game_id")
            if key is not None:
                assert conn.execute(select(func.count()).where(key == deleted)).scalar() == 0, table.name
                assert conn.execute(select(func.count()).where(key == kept)).scalar() or table.name in OPTIONAL
