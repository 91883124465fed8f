"""The replay's view model without a browser: states from the stored log, the viewer's view, speed."""

from __future__ import annotations

import copy
import json
import random

import pytest

from companion.app.vm import replay as rp
from companion.app.vm.replay import Replay, ReplayCache, ReplayEntry, clamp_step, entries_of, replay_step
from companion.app.vm.text import Tr
from companion.rules import Game
from companion.simulate import random_actions, random_config

from .conftest import make_store

TR = Tr("en")
WINNING = {"players": [{"name": "Carmen", "tunnel": 11, "hand": ["spoon"]}, {"name": "Nicholas"}]}


def as_json(state) -> str:
    return json.dumps([state.summary(), [p.to_json() for p in state.players]], sort_keys=True, default=str)


@pytest.fixture
def finished(tmp_path):
    """A won game whose log has an undo and a redo: search, dig (wins), undo, redo."""
    store = make_store(tmp_path)
    game_id = store.create_game(WINNING)
    version = store.load(game_id).version
    for action in ({"type": "search", "player": 0}, {"type": "dig", "player": 0, "tool": "spoon"}):
        version = store.submit(game_id, action, base_version=version).version
    version = store.undo(game_id, base_version=version).version
    version = store.redo(game_id, base_version=version).version
    return store, game_id, version


def test_each_step_is_the_board_after_that_entry(finished) -> None:
    store, game_id, version = finished
    replay = ReplayCache().get(store, game_id, version)
    assert replay.total == 4 == len(store.events(game_id))
    assert as_json(replay.state(4)) == as_json(store.load(game_id).game.state)
    assert as_json(replay.state(3)) == as_json(replay.state(1))  # the undo brings back the board before the dig
    assert replay.state(0).players[0].tunnel == 11 and replay.state(2).players[0].tunnel == 12
    assert replay.state(2).winner == 0 and replay.state(3).winner is None
    assert replay.state(1).players[0].hand.size() == 2


def test_words_and_headings(finished) -> None:
    store, game_id, version = finished
    replay = ReplayCache().get(store, game_id, version)
    start = replay_step(replay, 0, TR)
    assert (start.heading, start.first, start.last) == ("The table as set up: 4 entries to replay", True, False)
    one = replay_step(replay, 1, TR)
    assert one.heading == "Entry 1 of 4" and one.title == "Carmen: Search"
    assert one.lines == ["Carmen draws 1 Search card (Search)."]
    two = replay_step(replay, 2, TR)
    assert "Carmen reaches 12 Tunnel points and escapes!" in two.lines and two.table.winner == "Carmen"
    undo = replay_step(replay, 3, TR)
    assert (undo.kind, undo.title, undo.lines) == ("undo", "Undo: Carmen: Dig — Spoon", [])
    last = replay_step(replay, 4, TR)
    assert last.last and last.title == "Redo: Carmen: Dig — Spoon"
    assert replay_step(replay, 99, TR).step == 4 and replay_step(replay, -3, TR).step == 0
    assert Tr("it")("ui.replay_entry", step=1, total=4) == replay_step(replay, 1, Tr("it")).heading


def test_the_table_sees_hand_sizes_the_referee_every_hand(finished) -> None:
    store, game_id, version = finished
    replay = ReplayCache().get(store, game_id, version)
    public = replay_step(replay, 1, TR).table.players[0]
    referee = replay_step(replay, 1, TR, hands=True).table.players[0]
    assert public.hand_hidden and public.hand_known == [] and public.hand_size == 2
    assert not referee.hand_hidden and referee.hand_known == [("Spoon", 1)]


def test_the_outcomes_come_from_the_log_not_the_seed(tmp_path) -> None:
    """Another seed in the configuration changes nothing: every die and draw is read back."""
    config = random_config(random.Random(5), 3, 11)
    actions, _ = random_actions(config, 11, 60)
    game = Game(config)
    entries = []
    for seq, action in enumerate(actions, start=1):
        answer = game.submit(action)
        entries.append(ReplayEntry(seq, "action", game.log[-1].to_json(), json.loads(json.dumps(answer.to_json()))))
    reseeded = copy.deepcopy(game.config)
    reseeded["seed"] = int(reseeded.get("seed") or 0) + 12345
    assert any(e["type"] == "roll" and e["source"] == "app" for entry in entries for e in entry.answer["events"])
    replay = Replay(reseeded, entries)
    assert replay_step(replay, len(entries), TR).problem is None
    assert [p.to_json() for p in replay.state(len(entries)).players] == [p.to_json() for p in game.state.players]
    try:  # the same actions without their recorded outcomes: the new seed decides otherwise
        other = [p.to_json() for p in Game.replay(reseeded, actions).state.players]
    except ValueError:
        other = None
    assert other != [p.to_json() for p in game.state.players]


def test_a_log_that_no_longer_replays_says_where(finished) -> None:
    store, game_id, _ = finished
    entries = entries_of(store.events(game_id))
    forged = entries[1].answer | {"events": [{"type": "dig", "player": 0, "tool": "spoon", "tunnel": 99}]}
    entries[1] = ReplayEntry(entries[1].seq, "action", entries[1].action, forged)
    replay = Replay(store.export_game(game_id)["config"], entries)
    assert replay_step(replay, 1, TR).problem is None
    broken = replay_step(replay, 2, TR)
    assert broken.table is None and "entry 2 no longer happens as the log recorded it" in broken.problem
    assert replay_step(replay, 4, TR).problem == broken.problem


def test_stepping_through_400_entries_steps_the_engine_once_each(monkeypatch) -> None:
    config = random_config(random.Random(2), 4, 9)
    actions, _ = random_actions(config, 9, 400)
    game = Game(config)
    entries = []
    for seq, action in enumerate(actions, start=1):
        answer = game.submit(action)
        entries.append(ReplayEntry(seq, "action", game.log[-1].to_json(), json.loads(json.dumps(answer.to_json()))))
    assert len(entries) == 400
    calls = []
    real = Game.submit
    monkeypatch.setattr(Game, "submit", lambda self, action: calls.append(1) or real(self, action))
    replay = Replay(game.config, entries)
    for step in [*range(0, 401, 7), 400, *range(400, -1, -13), 200, 201, 199]:
        vm = replay_step(replay, step, TR)
        assert vm.problem is None and vm.step == step
    assert len(calls) == 400
    assert as_json(replay.state(400)) == as_json(game.state)


def test_the_cache_keeps_a_replay_per_version(finished, monkeypatch) -> None:
    store, game_id, version = finished
    cache = ReplayCache(size=1)
    first = cache.get(store, game_id, version)
    assert cache.get(store, game_id, version) is first
    assert cache.get(store, game_id, version + 1) is not first
    assert cache.get(store, game_id, version) is not first  # dropped: the cache holds one
    assert isinstance(rp.REPLAYS, ReplayCache)


def test_a_step_from_the_url() -> None:
    assert [clamp_step(v, 10) for v in ("3", "0", "-2", "11", "x", None)] == [3, 0, 0, 10, 10, 10]
