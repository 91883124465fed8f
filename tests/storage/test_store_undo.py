"""Undo and redo as log operations: nothing deleted, the recorded dice replayed, never re-rolled."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text
from storage_helpers import config, find_roll, next_action, play, short_finished_game, snap, unresolved

from companion.rules import Game
from storage import LogDiverged, NothingToRedo, NothingToUndo, StaleState, Store


def _submit_all(store, game_id, actions, version=0):
    for action in actions:
        version = store.submit(game_id, action, base_version=version).version
    return version


def _rolls(answer):
    return [e["die"] for e in answer["events"] if e["type"] == "roll"]


def test_undo_across_a_die_roll_then_redo_gives_the_identical_state(store, db_url):
    cfg = config()
    actions = play(cfg, 80)
    roll_at = find_roll(cfg, actions)
    played = actions[: roll_at + 3]
    game_id = store.create_game(cfg)
    version = _submit_all(store, game_id, played)
    before = snap(store.load(game_id).game.state)
    recorded = store.events(game_id)[roll_at].answer

    for back in range(1, 4):
        table = store.undo(game_id, base_version=version, by="Carmen")
        version = table.version
        assert snap(table.game.state) == snap(Game.replay(cfg, played[:-back]).state)
    assert table.steps == roll_at and table.can_redo

    for _ in range(3):
        table = store.redo(game_id, base_version=version)
        version = table.version
    assert snap(table.game.state) == before
    assert not table.can_redo and version == len(played) + 6
    redone = [e for e in store.events(game_id) if e.kind == "redo" and e.target == roll_at + 1]
    assert _rolls(redone[0].answer) == _rolls(recorded) and _rolls(recorded)
    with Store(db_url) as fresh:
        assert snap(fresh.load(game_id).game.state) == before
        assert fresh.verify(game_id) == []


def test_playing_the_undone_roll_again_rolls_the_same_die(store):
    cfg = config()
    actions = play(cfg, 80)
    roll_at = find_roll(cfg, actions)
    game_id = store.create_game(cfg)
    version = _submit_all(store, game_id, actions[: roll_at + 1])
    first = store.events(game_id)[-1].answer
    version = store.undo(game_id, base_version=version).version
    again = store.submit(game_id, actions[roll_at], base_version=version)
    assert _rolls(again.answer.to_json()) == _rolls(first)
    assert not again.table.can_redo  # a new action starts a new branch


def test_undo_and_redo_never_delete_entries(store):
    cfg = config()
    actions = play(cfg, 6)
    game_id = store.create_game(cfg)
    version = _submit_all(store, game_id, actions[:5])
    version = store.undo(game_id, base_version=version).version
    version = store.undo(game_id, base_version=version).version
    version = store.redo(game_id, base_version=version).version
    version = store.undo(game_id, base_version=version).version
    other = next_action(store.load(game_id).game.state, random.Random(3))
    version = store.submit(game_id, other, base_version=version).version
    log = store.events(game_id)
    assert [(e.kind, e.target) for e in log[5:]] == [
        ("undo", 5),
        ("undo", 4),
        ("redo", 4),
        ("undo", 4),
        ("action", None),
    ]
    assert [e.seq for e in log if e.kind == "action" and e.undone] == [4, 5]
    assert unresolved(store.export_game(game_id)["actions"]) == actions[:3] + [other]
    with pytest.raises(NothingToRedo):
        store.redo(game_id, base_version=version)
    assert store.verify(game_id) == []


def test_nothing_to_undo_and_stale_undo(store):
    cfg = config()
    game_id = store.create_game(cfg)
    with pytest.raises(NothingToUndo):
        store.undo(game_id, base_version=0)
    with pytest.raises(NothingToRedo):
        store.redo(game_id, base_version=0)
    version = _submit_all(store, game_id, play(cfg, 2))
    with pytest.raises(StaleState):
        store.undo(game_id, base_version=version - 1)
    table = store.undo(game_id, base_version=version)
    with pytest.raises(StaleState):  # a phone that saw the version before the undo
        store.redo(game_id, base_version=version)
    assert store.redo(game_id, base_version=table.version).version == version + 2


def test_versions_never_repeat_after_undo(store):
    """Undo then a different action: a phone that saw the pre-undo version must be refused."""
    cfg = config()
    actions = play(cfg, 3)
    game_id = store.create_game(cfg)
    seen = _submit_all(store, game_id, actions[:2])
    version = store.undo(game_id, base_version=seen).version
    version = store.submit(game_id, actions[1], base_version=version).version
    assert version != seen
    with pytest.raises(StaleState):
        store.submit(game_id, actions[2], base_version=seen)


def test_undoing_the_winning_action_reopens_the_game(store):
    cfg, actions = short_finished_game(1)
    game_id = store.create_game(cfg)
    version = _submit_all(store, game_id, actions)
    (won,) = store.list_games()
    assert won.status == "finished" and won.finished is not None and won.winner in won.players
    assert won.winners == (won.winner,) and len(store.statistics().games) == 1
    table = store.undo(game_id, base_version=version)
    assert table.status == "active"
    (info,) = store.list_games("active")
    assert info.winner is None and info.finished is None and info.winners == ()
    assert store.statistics().games == ()
    table = store.redo(game_id, base_version=table.version)
    assert table.status == "finished"
    (info,) = store.list_games("finished")
    assert info.winner == won.winner and len(store.statistics().games) == 1


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    ops=st.lists(st.sampled_from(["act", "act", "act", "undo", "redo"]), min_size=1, max_size=30),
    seed=st.integers(0, 1000),
)
def test_any_mix_of_actions_undo_and_redo_matches_a_plain_model(make_url, ops, seed):
    """The store against a model: the actions in effect and a redo stack, replayed by the engine."""
    cfg = config(seed=seed)
    rng = random.Random(seed)
    with Store(make_url()) as store:
        game_id = store.create_game(cfg)
        table = store.load(game_id)
        in_effect, redo = [], []
        for op in ops:
            if op == "act":
                action = next_action(table.game.state, rng)
                if action is None:
                    continue
                table = store.submit(game_id, action, base_version=table.version).table
                in_effect.append(action)
                redo.clear()
            elif op == "undo":
                if not in_effect:
                    with pytest.raises(NothingToUndo):
                        store.undo(game_id, base_version=table.version)
                    continue
                table = store.undo(game_id, base_version=table.version)
                redo.append(in_effect.pop())
            else:
                if not redo:
                    with pytest.raises(NothingToRedo):
                        store.redo(game_id, base_version=table.version)
                    continue
                table = store.redo(game_id, base_version=table.version)
                in_effect.append(redo.pop())
            assert unresolved(a.to_json() for a in table.game.log) == in_effect
            assert table.can_undo == bool(in_effect) and table.can_redo == bool(redo)
        assert snap(table.game.state) == snap(Game.replay(cfg, in_effect).state)
        assert unresolved(store.export_game(game_id)["actions"]) == in_effect
        assert store.verify(game_id) == []
        cold = Store(store.db.url.render_as_string(hide_password=False))
        try:
            reloaded = cold.load(game_id)
        finally:
            cold.close()
        assert reloaded.can_redo == bool(redo) and snap(reloaded.game.state) == snap(table.game.state)


def _tamper(store, statement, **params):
    with store.db.engine.begin() as conn:
        conn.execute(text(statement), params)


def test_the_recorded_dice_are_checked_on_redo_and_by_verify(store):
    cfg = config()
    actions = play(cfg, 80)
    roll_at = find_roll(cfg, actions)
    game_id = store.create_game(cfg)
    version = _submit_all(store, game_id, actions[: roll_at + 1])
    version = store.undo(game_id, base_version=version).version
    recorded = store.events(game_id)[roll_at].answer
    forged = json.loads(json.dumps(recorded))
    for event in forged["events"]:
        if event["type"] == "roll":
            event["die"] = 7 - event["die"]  # a different face than the seeded source gives
    _tamper(
        store,
        "UPDATE events SET answer = :a WHERE game_id = :g AND seq = :s",
        a=json.dumps(forged),
        g=game_id,
        s=roll_at + 1,
    )
    with pytest.raises(LogDiverged, match=f"cannot redo entry {roll_at + 1} .* nothing was written"):
        store.redo(game_id, base_version=version)
    assert store.load(game_id).version == version
    assert any(f"entry {roll_at + 1} (action) replays differently" in p for p in store.verify(game_id))


def test_verify_reports_flags_and_snapshots_that_disagree_with_the_log(store):
    cfg = config()
    game_id = store.create_game(cfg)
    version = _submit_all(store, game_id, play(cfg, 120))
    assert store.verify(game_id) == []
    _tamper(store, "UPDATE events SET undone = :t WHERE game_id = :g AND seq = 3", t=True, g=game_id)
    _tamper(store, "UPDATE snapshots SET state = '{}' WHERE game_id = :g", g=game_id)
    problems = store.verify(game_id)
    assert any("undone flags [3] differ" in p for p in problems)
    assert any("the snapshot at version 100 differs" in p for p in problems)
    assert version == 120


def test_a_log_the_engine_no_longer_accepts_is_reported_on_load(store, db_url):
    cfg = config()
    game_id = store.create_game(cfg)
    _submit_all(store, game_id, play(cfg, 5))
    _tamper(
        store,
        "UPDATE events SET action = :a WHERE game_id = :g AND seq = 2",
        a=json.dumps({"type": "dig", "player": 2, "tool": "spoon"}),
        g=game_id,
    )
    with Store(db_url) as fresh, pytest.raises(LogDiverged, match=f"game {game_id} no longer replays"):
        fresh.load(game_id)
