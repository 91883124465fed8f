"""Typed events (`companion.rules.events`): the protocol's JSON both ways, read back strictly."""

from __future__ import annotations

import json
import random

import pytest

from companion.rules import event_from_json, events_from_json, new_game, parse_action, step
from companion.rules import events as ev
from companion.rules.events import MalformedEvent
from companion.rules.record import MalformedRecord
from companion.rules.state import Offence
from companion.simulate import random_actions, random_config
from storage.store import answer_from_json

from support import follows, start


def test_a_typed_event_writes_the_protocols_object():
    move = ev.Move(player=0, to="cafeteria", why="move", from_="cell_block")
    assert json.dumps(move.to_json()) == (
        '{"type": "move", "player": 0, "to": "cafeteria", "why": "move", "from": "cell_block"}'
    )
    assert move.from_ == "cell_block" and ev.event_from_json(move.to_json()).to_json() == move.to_json()
    with pytest.raises(TypeError):  # fields are read by name, never by a string key
        move["from"]  # type: ignore[index]


def test_a_variant_writes_only_its_own_fields():
    assert ev.CombatEnd(winner=0, loser=1).to_json() == {"type": "combat_end", "winner": 0, "loser": 1}
    assert ev.WardenMove(to="showers", why="get_out_of_here").to_json() == {
        "type": "warden_move",
        "to": "showers",
        "why": "get_out_of_here",
    }
    assert ev.Adjust(path="warden", op="set", value=None).to_json() == {"type": "adjust", "path": "warden", "set": None}


@pytest.mark.parametrize("seed", range(3))
def test_every_answer_of_random_games_reads_back_to_the_same_values(seed):
    config = random_config(random.Random(seed), None, seed, "any")
    actions, _ = random_actions(config, seed, 150)
    state = new_game(config)
    for action in actions:
        answer = step(state, parse_action(action))
        stored = json.loads(json.dumps(answer.to_json()))
        again = answer_from_json(stored)
        assert [type(e) for e in again.events] == [type(e) for e in answer.events]
        assert [e.to_json() for e in again.events] == stored["events"]
        assert json.dumps(again.to_json()) == json.dumps(answer.to_json())


@pytest.mark.parametrize(
    "data",
    [
        {"type": "brand_new", "card": "blade"},
        {"type": "draw", "player": 0, "cards": ["blade"], "why": "search", "secret": "blade"},
        {"type": "draw", "player": 0, "cards": ["blade"]},
        {"type": "draw", "player": "0", "cards": ["blade"], "why": "search"},
        {"type": "draw", "player": True, "cards": ["blade"], "why": "search"},
        {"type": "draw", "player": 0, "cards": "blade", "why": "search"},
        {"type": "adjust", "path": "warden", "set": "showers", "add": ["knife"]},
        {"cards": 3},
        ["roll"],
    ],
)
def test_anything_the_engine_would_not_write_is_refused(data):
    with pytest.raises(MalformedEvent):
        event_from_json(data)


def test_lists_are_read_back_as_tuples():
    (draw,) = events_from_json([{"type": "draw", "player": 1, "cards": ["blade", "unknown"], "why": "search"}])
    assert isinstance(draw, ev.Draw) and draw.cards == ("blade", "unknown") and draw.player == 1


def test_the_wardens_offence_is_a_typed_value_read_back_strictly():
    offence = Offence(rule="WARD-2", action="sell", place="gymnasium", offender=2)
    data = {"rule": "WARD-2", "action": "sell", "place": "gymnasium", "offender": 2}
    assert offence.to_json() == data and Offence.from_json(data).offender == 2
    with pytest.raises(MalformedRecord):
        Offence.from_json({**data, "offender": "2"})


def test_a_pending_decision_is_typed_and_writes_only_its_kinds_facts():
    """The facts a decision is about are fields; its JSON has exactly the protocol's keys for its kind."""
    state = start(
        hands={0: ["knife"], 1: ["pickaxe"]},
        player_fields={0: {"place": "cafeteria"}, 1: {"place": "cafeteria", "gang": "bratva", "ability": "spying"}},
    )
    follows(state, type="extort", player=0, target=1, tool="pickaxe", weapons=["knife"])
    pending = state.pending
    assert pending is not None and (pending.attacker, pending.tool, pending.show_hand_of) == (0, "pickaxe", 0)
    assert pending.to_json() == {
        "kind": "extortion_answer",
        "player": 1,
        "options": ["cooperate", "fight"],
        "attacker": 0,
        "tool": "pickaxe",
        "show_hand_of": 0,
    }
    plain = start(
        hands={0: ["knife"], 1: ["pickaxe"]}, player_fields={0: {"place": "cafeteria"}, 1: {"place": "cafeteria"}}
    )
    follows(plain, type="extort", player=0, target=1, tool="pickaxe", weapons=["knife"])
    assert plain.pending is not None and "show_hand_of" not in plain.pending.to_json()
    copied = plain.pending.copy()
    assert copied == plain.pending and copied is not plain.pending
