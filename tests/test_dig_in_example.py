"""The Dig In example round of the Italian guide ("Round di Esempio Avanzato con Dig In"),
replayed from tests/scenarios/ through the engine and through `python -m companion check`.

The Warden stands in the Gymnasium with Black (Nicholas, holding a Corruption and a
Workout/Bodybuilding token) and Yellow. On her turn Yellow sells two cards there (an offence),
Black reports her, she goes to Solitary Confinement (there is no Psychiatric Ward in that game)
keeping her cigarettes, and her turn ends at once although she had an action left. The variant
file plays the same round with the Psychiatric Ward, where she draws a Trauma (decision 7).
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.rules import new_game, parse_action, step

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = Path(__file__).resolve().parent / "scenarios"

OFFENCE = {"rule": "WARD-2", "action": "sell", "place": "gymnasium", "offender": 2}


def _player(name, place, *, cigarettes=0, hand=None, tokens=None, trauma=None):
    return {
        "name": name,
        "place": place,
        "tunnel": 0,
        "beatings": 0,
        "cigarettes": cigarettes,
        "hand": hand or {"known": {}, "unknown": 3},
        "gang": None,
        "ability": None,
        "tokens": tokens or {},
        "trauma": trauma,
        "team": None,
        "dug": [],
        "background_held": True,
        "revealed": [],
    }


def _final(yellow_place, trauma, supplies):
    return {
        "turn": 2,
        "active": 0,
        "actions_left": 2,
        "pending": None,
        "winner": None,
        "warden": "gymnasium",
        "neutrals": {},
        "piles": {"spoon": 11, "pickaxe": 11, "shovel": 11, "knife": 19},
        "deck": 69,
        "discard": ["rare", "golden_chain"],
        "discard_top": "golden_chain",
        "gang_tops": {
            "bikers": "master_key",
            "bratva": "untouchable",
            "cartel": "knife_throwing",
            "crew": "collect",
            "queers": "successful_search",
            "triad": "pickaxe_expertise",
        },  # as the seed dealt them
        "step": 2,
        "target": 12,
        "offence": None,
        "combat_lost": [],
        "supplies": supplies,
        "players": [
            _player("Carmen", "cell_block"),
            _player("Nicholas", "gymnasium", tokens={"bodybuilding": 1, "corruption": 1}),
            _player("Yellow", yellow_place, cigarettes=7, hand={"known": {"knife": 1}, "unknown": 0}, trauma=trauma),
        ],
    }


CASES = {
    "dig_in_example.json": _final("solitary", None, {"corruption": 9, "bodybuilding": 9}),
    "dig_in_example_psychiatric_ward.json": _final(
        "psychiatric_ward", "max_five", {"corruption": 9, "bodybuilding": 9, "trauma": 5}
    ),
}


def _load(name):
    return json.loads((SCENARIOS / name).read_text(encoding="utf-8"))


def _replay(name):
    data = _load(name)
    state = new_game(data["config"])
    answers = [step(state, parse_action(raw)).to_json() for raw in data["actions"]]
    return state, answers


@pytest.mark.parametrize("name", sorted(CASES))
def test_starting_position(name):
    """The file's configuration sets the example's table: Warden, standees, tokens, Yellow to play."""
    state = new_game(_load(name)["config"])
    assert state.warden == "gymnasium" and state.active == 2
    assert [p.place for p in state.players] == ["cell_block", "gymnasium", "gymnasium"]
    assert state.players[1].tokens == {"corruption": 1, "bodybuilding": 1}
    assert state.players[2].cigarettes == 0


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine_replay(name):
    state, answers = _replay(name)
    sale, report = answers
    assert sale["accepted"] and sale["violations"] == [] and sale["offence"] == OFFENCE
    assert {"type": "cigarettes", "player": 2, "change": 7, "total": 7, "why": "sell"} in sale["events"]
    assert report["accepted"] and report["violations"] == [] and report["offence"] is None
    kinds = [e["type"] for e in report["events"]]
    assert kinds.index("move") < kinds.index("turn_ended") < kinds.index("turn")
    assert {"type": "turn", "player": 0, "turn": 2, "actions": 2} in report["events"]
    assert state.summary() == CASES[name]


def test_engine_replay_without_the_ward_goes_to_solitary():
    """Decision 7: Solitary Confinement when the Ward is not used, the Ward (with a Trauma) when it is."""
    _, (_, plain) = _replay("dig_in_example.json")
    _, (_, ward) = _replay("dig_in_example_psychiatric_ward.json")
    assert {"type": "move", "player": 2, "to": "solitary", "why": "report", "from": "gymnasium"} in plain["events"]
    assert not [e for e in plain["events"] if e["type"] == "trauma"]
    assert {"type": "trauma", "player": 2, "trauma": "max_five", "change": 1, "why": "psychiatric_ward"} in ward[
        "events"
    ]


@pytest.mark.parametrize("name", sorted(CASES))
def test_checker_replay(name):
    """`python -m companion check` prints the same answers, then the exact final SUMMARY."""
    result = subprocess.run(
        [sys.executable, "-m", "companion", "check", str(SCENARIOS / name)],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    _, answers = _replay(name)
    assert lines[:-1] == answers
    assert lines[-1] == {"final": CASES[name]}
