"""Resume points: a long game opens from its saved state, which always equals the replay of its
log; one from another engine, or damaged, is ignored and rebuilt."""

import base64
import io
import json
import os
import pickle
import random
import zlib

import pytest
from sqlalchemy import text
from storage_helpers import config, play, snap

from companion.rules import Game
from storage import Store, replays, resume


@pytest.fixture(autouse=True)
def resumable():
    if not resume.usable():
        pytest.skip("the compiled engine keeps no resume points (storage/resume.py, usable)")


def test_the_interpreted_engine_keeps_resume_points():
    from companion.rules import compiled

    assert resume.usable() or compiled.is_compiled()


@pytest.fixture
def small_pages(monkeypatch):
    """A resume point every 10 entries, pages of 4 actions: a short game exercises it all."""
    monkeypatch.setattr(resume, "RESUME_EVERY", 10)
    monkeypatch.setattr(resume, "PAGE", 4)


@pytest.fixture
def replays_seen(monkeypatch):
    """The games replayed from their whole log (a resume point spares them the replay)."""
    seen: list[str] = []
    real = replays.replay

    def counted(conn, head):
        seen.append(head.id)
        return real(conn, head)

    monkeypatch.setattr(replays, "replay", counted)
    return seen


def _play_with_rewinds(store: Store, cfg: dict, count: int, seed: int = 3) -> tuple[str, list[dict]]:
    """`count` steps of a game with undos and redos among its actions; the actions in effect."""
    rng = random.Random(seed)
    actions = play(cfg, count)
    game_id = store.create_game(cfg)
    version, in_effect, undone, done = 0, [], [], 0
    while done < len(actions):
        if in_effect and rng.random() < 0.15:
            version = store.undo(game_id, base_version=version).version
            undone.append(in_effect.pop())
            if rng.random() < 0.5:
                version = store.redo(game_id, base_version=version).version
                in_effect.append(undone.pop())
            continue
        while undone:  # put the undone ones back, so the game goes on as played
            version = store.redo(game_id, base_version=version).version
            in_effect.append(undone.pop())
        version = store.submit(game_id, actions[done], base_version=version).version
        in_effect.append(actions[done])
        done += 1
    return game_id, in_effect


def _point(store: Store, game_id: str) -> tuple[int, str] | None:
    with store.db.transaction() as conn:
        row = conn.execute(text("SELECT version, engine FROM resume_points WHERE game_id = :g"), {"g": game_id}).first()
    return None if row is None else (row[0], row[1])


def _set_point(store: Store, game_id: str, **values: str) -> None:
    sets = ", ".join(f"{k} = :{k}" for k in values)
    with store.db.transaction(write=True) as conn:
        conn.execute(text(f"UPDATE resume_points SET {sets} WHERE game_id = :g"), {"g": game_id, **values})


def _same_as_replay(table, cfg: dict, in_effect: list[dict]) -> None:
    replayed = Game.replay(cfg, in_effect)
    assert snap(table.game.state) == snap(replayed.state)
    assert [a.to_json() for a in table.game.log] == [a.to_json() for a in replayed.log]


def test_a_game_opens_from_its_resume_point_as_the_replay_gives_it(db_url, small_pages, replays_seen):
    cfg = config()
    with Store(db_url) as store:
        game_id, in_effect = _play_with_rewinds(store, cfg, 90)
        written = store.load(game_id)
        version, engine = _point(store, game_id)
        assert written.version - version < resume.RESUME_EVERY and engine == resume.engine_key()
        assert store.verify(game_id) == []  # verify compares the resume point with a replay too
    replays_seen.clear()
    with Store(db_url) as fresh:  # a restarted app: nothing cached
        table = fresh.load(game_id)
        assert replays_seen == []  # no whole replay
        assert table.version == written.version and table.can_redo == written.can_redo
        _same_as_replay(table, cfg, in_effect)
        more = play(cfg, len(in_effect) + 5)[len(in_effect) :]  # it plays on exactly as the replay would
        expected = Game.replay(cfg, in_effect)
        version = table.version
        for action in more:
            sub = fresh.submit(game_id, action, base_version=version)
            assert sub.answer.to_json() == expected.submit(action).to_json()
            version = sub.version
        if table.can_undo:
            fresh.undo(game_id, base_version=version)
        assert fresh.verify(game_id) == []


def test_entries_written_after_the_resume_point_are_replayed_on_top(db_url, small_pages, replays_seen, monkeypatch):
    cfg = config()
    with Store(db_url) as store:
        game_id, in_effect = _play_with_rewinds(store, cfg, 40)
        version = store.load(game_id).version
        saved, _ = _point(store, game_id)
        actions = play(cfg, len(in_effect) + 40)[len(in_effect) :]
        monkeypatch.setattr(resume, "RESUME_EVERY", 1000)  # the next ones save no new resume point
        for action in actions[:15]:
            version = store.submit(game_id, action, base_version=version).version
            in_effect.append(action)
        assert _point(store, game_id)[0] == saved < version
    monkeypatch.setattr(resume, "RESUME_EVERY", 10)
    replays_seen.clear()
    with Store(db_url) as fresh:
        table = fresh.load(game_id)
        assert replays_seen == [] and table.version == version
        _same_as_replay(table, cfg, in_effect)
        version = fresh.undo(game_id, base_version=version).version  # an undo after it: saved anew
        in_effect.pop()
        assert _point(fresh, game_id)[0] == version
    replays_seen.clear()
    with Store(db_url) as fresh:
        table = fresh.load(game_id)
        assert replays_seen == [] and table.can_redo
        _same_as_replay(table, cfg, in_effect)


@pytest.mark.parametrize(
    "damage",
    [
        {"engine": "rules 1 0123456789abcdef01234567 source"},  # written by another engine
        {"state": "not base64 at all!"},
        {"state": base64.b64encode(zlib.compress(b"\x80\x05garbage")).decode()},
        {"state": base64.b64encode(zlib.compress(pickle.dumps({"state": 1, "tail": [], "redo": []}))).decode()},
        {"state": base64.b64encode(zlib.compress(pickle.dumps(os.system))).decode()},  # never built
        {"version": "1"},  # points to a version whose pages and seqs do not add up
    ],
)
def test_a_resume_point_of_another_engine_or_damaged_is_ignored_and_rebuilt(db_url, small_pages, replays_seen, damage):
    cfg = config()
    with Store(db_url) as store:
        game_id, in_effect = _play_with_rewinds(store, cfg, 60)
        version = store.load(game_id).version
        _set_point(store, game_id, **damage)
    replays_seen.clear()
    with Store(db_url) as fresh:
        table = fresh.load(game_id)
        assert replays_seen == [game_id]  # the log was replayed: the truth
        _same_as_replay(table, cfg, in_effect)
        assert _point(fresh, game_id) == (version, resume.engine_key())  # and a new resume point saved
    replays_seen.clear()
    with Store(db_url) as fresh:
        _same_as_replay(fresh.load(game_id), cfg, in_effect)
        assert replays_seen == []


def test_a_stale_page_is_not_used(db_url, small_pages, replays_seen):
    cfg = config()
    with Store(db_url) as store:
        game_id, in_effect = _play_with_rewinds(store, cfg, 60)
        store.load(game_id)
        with store.db.transaction(write=True) as conn:
            conn.execute(
                text("UPDATE resume_pages SET last_seq = last_seq + 1 WHERE game_id = :g AND page = 1"), {"g": game_id}
            )
    replays_seen.clear()
    with Store(db_url) as fresh:
        _same_as_replay(fresh.load(game_id), cfg, in_effect)
        assert replays_seen == [game_id]


def test_verify_tells_a_resume_point_that_differs_from_the_replay(db_url, small_pages):
    cfg = config()
    with Store(db_url) as store:
        game_id, _ = _play_with_rewinds(store, cfg, 60)
        store.load(game_id)
        version, _ = _point(store, game_id)
        with store.db.transaction() as conn:
            packed = conn.execute(text("SELECT state FROM resume_points WHERE game_id = :g"), {"g": game_id}).scalar()
        base = Game(cfg).state
        shared = {name: getattr(base, name) for name in ("catalog", "ruleset", "board", "config")}
        record = resume._unpickle(packed, shared)
        record["state"].players[0].cigarettes += 7  # a cache that lies
        _set_point(store, game_id, state=resume._pickle(record, {id(v): k for k, v in shared.items()}))
    with Store(db_url) as fresh:
        problems = fresh.verify(game_id)
        assert problems == [f"the snapshot at version {version} differs from the replayed state"]


def test_a_long_imported_game_opens_without_replaying(tmp_path, replays_seen):
    game = Game({"players": [{"name": "A"}, {"name": "B"}], "seed": 1})
    actions = []
    for _ in range(5_000):  # the long game, shorter: end after end
        action = {"type": "end_turn", "player": game.state.active}
        assert game.submit(action).accepted
        actions.append(action)
    url = str(tmp_path / "long.sqlite3")
    with Store(url) as store:
        game_id = store.import_game({"config": game.config, "actions": actions})
        assert _point(store, game_id)[0] == 5_000
    with Store(url) as fresh:
        table = fresh.load(game_id)
        assert replays_seen == [] and table.steps == 5_000
        assert snap(table.game.state) == snap(game.state)


def test_the_unpickler_builds_only_the_engines_classes():
    class Sneaky:
        def __reduce__(self):
            return (os.getenv, ("HOME",))

    buffer = io.BytesIO()
    pickle.Pickler(buffer, protocol=5).dump([Sneaky()])
    packed = base64.b64encode(zlib.compress(buffer.getvalue(), 1)).decode()
    with pytest.raises(pickle.UnpicklingError, match="is not one of the engine's classes"):
        resume._unpickle(packed, {})
    assert json.dumps(resume._unpickle(resume._pickle([1, "a", {"b": (2,)}], {}), {})) == '[1, "a", {"b": [2]}]'
