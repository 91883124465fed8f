"""The Italian guide's "Mini tutorial" round, replayed with its exact outcome, through the engine
API and through `python -m companion check`; plus the checker's exit codes and error lines.

The round: Carmen (first player) Simple-moves to the Cafeteria and Steals a Spoon; Nicholas
Cautious-moves to the Recreational Area; Yellow (two Knives in his starting hand) Simple-moves to
the Cafeteria and extorts the Spoon with a Knife; Carmen fights with a Blade, Yellow plays his
second Knife, Carmen gives up: 1 Beating, the Spoon goes to Yellow, every Weapon is discarded.
Carmen's Blade came from a card nobody entered (the guide says she kept it hidden).
"""

import json
import subprocess
import sys
from pathlib import Path

from companion.rules import (
    Game,
    is_tutorial,
    new_game,
    parse_action,
    rule_ids,
    step,
    tutorial_config,
    tutorial_progress,
    tutorial_steps,
)

from support import said

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = Path(__file__).resolve().parent / "scenarios" / "tutorial.json"


def player(name, place, beatings=0, known=None, unknown=0):
    return {
        "name": name,
        "place": place,
        "tunnel": 0,
        "beatings": beatings,
        "cigarettes": 0,
        "hand": {"known": known or {}, "unknown": unknown},
        "gang": None,
        "ability": None,
        "tokens": {},
        "trauma": None,
        "team": None,
        "dug": [],
        "background_held": True,
        "revealed": [],
    }


FINAL = {
    "turn": 3,
    "active": 2,
    "actions_left": 0,
    "pending": None,
    "winner": None,
    "warden": None,
    "neutrals": {},
    "piles": {"spoon": 10, "pickaxe": 11, "shovel": 11, "knife": 20},
    "deck": 77 - 3 - 3 - 1,
    "discard": ["blade"],
    "discard_top": "blade",
    "gang_tops": {
        "bikers": "second_chance",
        "bratva": "untouchable",
        "cartel": "the_kings_choice",
        "crew": "cigarettes_stash",
        "queers": "equivalent_exchange",
        "triad": "knife_expertise",
    },
    "step": 11,
    "target": 12,
    "offence": None,
    "supplies": {},
    # Carmen lost the combat: until the next action she may still reveal "Is That Everything You've Got?".
    "combat_lost": [{"loser": 0, "winner": 2, "neutral": None}],
    "players": [
        player("Carmen", "cafeteria", beatings=1, unknown=2),
        player("Nicholas", "recreational_area", unknown=3),
        player("Yellow", "cafeteria", known={"spoon": 1}, unknown=1),
    ],
}
NEXT_TURN = [{"type": "end_turn", "player": 2}, {"type": "craft", "player": 0, "recipe": "pickaxe"}]


def scenario():
    return json.loads(SCENARIO.read_text(encoding="utf-8"))


def replay(data):
    state = new_game(data["config"])
    answers = [step(state, parse_action(raw)) for raw in data["actions"]]
    return state, answers


def run_check(path, *args):
    return subprocess.run(
        [sys.executable, "-m", "companion", "check", str(path), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


class TestTutorialThroughTheEngine:
    def test_the_starting_position(self):
        state = new_game(scenario()["config"])
        assert [p.name for p in state.players] == ["Carmen", "Nicholas", "Yellow"]
        assert [p.place for p in state.players] == ["cell_block"] * 3
        assert dict(state.players[2].hand.known) == {"knife": 2} and state.piles["knife"] == 18
        assert state.active == 0 and state.deck == 70

    def test_every_action_is_accepted(self):
        _, answers = replay(scenario())
        assert [a.accepted for a in answers] == [True] * 11
        assert all(not a.violations for a in answers)

    def test_the_round_step_by_step(self):
        _, answers = replay(scenario())
        carmen_moves, steal, _, nicholas_moves, _, yellow_moves, extort, fight, blade, knife, give_up = answers
        assert carmen_moves.events[-1].to_json() == {
            "type": "move",
            "player": 0,
            "to": "cafeteria",
            "why": "move",
            "from": "cell_block",
        }
        assert said(steal) == [{"type": "take", "player": 0, "card": "spoon", "count": 1, "why": "steal_spoon"}]
        assert said(nicholas_moves) == [
            {"type": "move", "player": 1, "to": "recreational_area", "why": "cautious_move", "from": "cell_block"}
        ]
        assert yellow_moves.events[-1].to_json() == {
            "type": "move",
            "player": 2,
            "to": "cafeteria",
            "why": "move",
            "from": "cell_block",
        }
        assert extort.pending == {
            "kind": "extortion_answer",
            "player": 0,
            "options": ["cooperate", "fight"],
            "attacker": 2,
            "tool": "spoon",
        }
        assert fight.pending["kind"] == "combat" and fight.pending["player"] == 0
        assert blade.pending["player"] == 2 and knife.pending["player"] == 0
        assert said(give_up) == [
            {"type": "give_up", "player": 0},
            {"type": "discard", "player": None, "cards": ["knife", "blade", "knife"], "why": "combat"},
            {"type": "combat_end", "winner": 2, "loser": 0},
            {"type": "beating", "player": 0, "count": 1, "total": 1, "why": "combat"},
            {"type": "give", "player": 0, "to": 2, "card": "spoon", "why": "combat"},
        ]

    def test_the_exact_outcome(self):
        state, _ = replay(scenario())
        assert state.summary() == FINAL

    def test_carmen_cannot_craft_next_turn(self):
        """Her Beating forbids crafting (BEAT-2) until she heals."""
        state, _ = replay(scenario())
        assert step(state, parse_action(NEXT_TURN[0])).accepted
        assert state.active == 0 and state.actions_left == 2
        before = json.dumps(state.snapshot(), sort_keys=True)
        answer = step(state, parse_action(NEXT_TURN[1]))
        assert not answer.accepted
        assert [(v.rule, v.message) for v in answer.violations] == [("BEAT-2", "You have 1 Beating: no Craft.")]
        assert json.dumps(state.snapshot(), sort_keys=True) == before


class TestTutorialThroughTheChecker:
    def test_exit_zero_one_line_per_action_and_the_final_summary(self):
        done = run_check(SCENARIO)
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
        lines = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(lines) == 12
        assert [line["step"] for line in lines[:11]] == list(range(1, 12))
        assert all(line["accepted"] and line["violations"] == [] for line in lines[:11])
        assert lines[-1] == {"final": FINAL}

    def test_the_next_turn_craft_is_refused_with_beat_2(self, tmp_path):
        data = scenario()
        data["actions"] += NEXT_TURN
        path = tmp_path / "next_turn.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        done = run_check(path)
        assert done.returncode == 0, done.stderr
        lines = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(lines) == 14
        craft = lines[12]
        assert craft["accepted"] is False
        assert [(v["rule"], v["message"]) for v in craft["violations"]] == [("BEAT-2", "You have 1 Beating: no Craft.")]
        final = lines[-1]["final"]
        assert final["active"] == 0 and final["turn"] == 4 and final["step"] == 12
        assert final["players"][0]["hand"] == {"known": {}, "unknown": 2}


def write(tmp_path, text):
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    return path


def assert_one_line_error(done, *fragments):
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert "Traceback" not in done.stderr
    for fragment in fragments:
        assert fragment in lines[0]


class TestCheckerErrors:
    def test_not_json(self, tmp_path):
        assert_one_line_error(run_check(write(tmp_path, "{config: nope")), "is not valid JSON")

    def test_missing_actions(self, tmp_path):
        text = json.dumps({"config": scenario()["config"]})
        assert_one_line_error(run_check(write(tmp_path, text)), 'must be a JSON object with "config" and "actions"')

    def test_actions_not_a_list(self, tmp_path):
        text = json.dumps({"config": scenario()["config"], "actions": {"type": "search"}})
        assert_one_line_error(run_check(write(tmp_path, text)), '"actions" must be a list')

    def test_malformed_action(self, tmp_path):
        data = scenario()
        data["actions"][3] = {"type": "cautious_move", "player": 1}
        assert_one_line_error(
            run_check(write(tmp_path, json.dumps(data))), "action 4 is malformed", "Cautious move needs the field to."
        )

    def test_unknown_action_type(self, tmp_path):
        data = scenario()
        data["actions"].append({"type": "teleport", "player": 0})
        assert_one_line_error(run_check(write(tmp_path, json.dumps(data))), "action 12 is malformed")

    def test_impossible_config(self, tmp_path):
        data = {"config": {"players": [{"name": f"P{n}"} for n in range(7)]}, "actions": []}
        assert_one_line_error(
            run_check(write(tmp_path, json.dumps(data))), "impossible configuration", "SET-1", "not 7"
        )

    def test_impossible_starting_state(self, tmp_path):
        """Caught only when the state is built (a Place not in the game)."""
        data = {"config": {"players": [{"name": "A", "place": "library"}, {"name": "B"}]}, "actions": []}
        assert_one_line_error(run_check(write(tmp_path, json.dumps(data))), "impossible configuration", "DI-1")

    def test_impossible_house_rule(self, tmp_path):
        data = {
            "config": {"players": [{"name": "A"}, {"name": "B"}], "house_rules": {"free_shovels": True}},
            "actions": [],
        }
        assert_one_line_error(run_check(write(tmp_path, json.dumps(data))), "impossible configuration", "VAR-3")

    def test_missing_file(self, tmp_path):
        assert_one_line_error(run_check(tmp_path / "nowhere.json"), "cannot read")

    def test_rejected_actions_are_output_not_errors(self, tmp_path):
        data = {
            "config": {"players": [{"name": "A"}, {"name": "B"}]},
            "actions": [{"type": "search", "player": 1}, {"type": "search", "player": 0}],
        }
        done = run_check(write(tmp_path, json.dumps(data)))
        assert done.returncode == 0 and done.stderr == ""
        first, second, final = [json.loads(line) for line in done.stdout.splitlines()]
        assert first["accepted"] is False and first["violations"][0]["rule"] == "TURN-4"
        assert second["accepted"] is True and final["final"]["players"][0]["hand"]["unknown"] == 4


class TestTheGuidedRound:
    """The engine's tutorial data (companion/rules/tutorial.json) is this round, and the guide's
    progress is read from the actions in effect."""

    def test_the_guided_round_is_the_guides_round(self):
        data = scenario()
        assert tutorial_config() == data["config"]
        assert [dict(s.action) for s in tutorial_steps()] == data["actions"]
        assert all(s.rules and all(r in rule_ids() for r in s.rules) for s in tutorial_steps())

    def test_progress_follows_the_log(self):
        game = Game(tutorial_config())
        assert is_tutorial(game.config) and not is_tutorial(new_game({"players": [{}, {}]}).config)
        first = tutorial_progress(game.log)
        assert (first.done, first.next.number, first.off_path) == (0, 1, False)
        for raw in scenario()["actions"][:4]:
            assert game.submit(raw).accepted
        assert tutorial_progress(game.log).next.action["type"] == "end_turn"
        for raw in scenario()["actions"][4:]:
            assert game.submit(raw).accepted
        over = tutorial_progress(game.log)
        assert (over.done, over.next, over.off_path) == (11, None, False)

    def test_a_step_off_the_path_and_back(self):
        game = Game(tutorial_config())
        assert game.submit({"type": "cautious_move", "player": 0, "to": "showers"}).accepted
        assert tutorial_progress(game.log).off_path
        game.undo()
        assert tutorial_progress(game.log).next.number == 1

    def test_an_action_follows_the_guide_however_it_was_entered(self):
        """The engine's only destination left out, the app's roll of the guide's face: followed."""
        assert tutorial_progress([{"type": "move", "player": 0, "die": [1]}]).done == 1
        by_app = {"type": "move", "player": 0, "to": "cafeteria", "outcomes": [{"die": 1}]}
        assert tutorial_progress([by_app]).done == 1
        elsewhere = {"type": "move", "player": 0, "to": "recreational_area", "outcomes": [{"die": 2}]}
        assert tutorial_progress([elsewhere]).off_path

    def test_after_the_guides_end_the_table_plays_a_normal_game(self):
        played = [*scenario()["actions"], {"type": "end_turn", "player": 2}]
        assert tutorial_progress(played).played_on and not tutorial_progress(played).off_path
