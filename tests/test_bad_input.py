"""Each known way malformed input used to crash, answered with the documented error instead.

The engine: ConfigError or MalformedAction (message key and English text, never a TypeError,
ValueError or RecursionError from inside). The checker and `games import`: exit 2 and one line.
The store: its typed errors, and nothing stored after a refused write.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import update

from companion.checker import run_check
from companion.rules import BadJson, ConfigError, MalformedAction, new_game, parse_action, parse_config, step
from companion.rules.shape import MAX_DEPTH, decode_json, misshapen
from storage import BadGameFile, GameNotFound, InvalidArgument, Store
from storage.models import GameRow

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = json.loads((ROOT / "tests" / "scenarios" / "tutorial.json").read_text(encoding="utf-8"))


def two_players(**first: Any) -> dict[str, Any]:
    return {"players": [{"name": "Carmen", **first}, {"name": "Nicholas"}], "seed": 3}


def nested(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = [value]
    return value


def refused(config: dict[str, Any]) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        new_game(config)
    return caught.value


def check_bytes(data: bytes) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_check("-", out, err, stdin=io.BytesIO(data))
    return code, out.getvalue(), err.getvalue()


def one_line_error(data: bytes, *fragments: str) -> str:
    code, out, err = check_bytes(data)
    assert code == 2 and out == "", err
    assert len(err.splitlines()) == 1 and err.endswith("\n") and err.startswith("error: "), err
    for fragment in fragments:
        assert fragment in err, err
    return err


class TestConfiguration:
    def test_an_unknown_key_is_a_config_error(self):
        error = refused({**two_players(), "colours": "bright"})
        assert error.key == "config.unknown_key" and error.params["key"] == "colours"
        assert error.message == "Unknown field colours in config."

    def test_an_unknown_player_field_is_a_config_error(self):
        assert refused(two_players(hat="red")).message == "Unknown field hat in players[0]."

    @pytest.mark.parametrize(
        ("field", "value", "rule"),
        [
            ("place", ["cafeteria"], "DI-1"),
            ("place", {"cafeteria": 1}, "DI-1"),
            ("hand", [["knife"]], "HAND-1"),
            ("hand", [{"card": "knife"}], "HAND-1"),
            ("gang", ["bikers"], "GANG-1"),
            ("dug", [["spoon"]], "DIG-1"),
            ("background", {}, "BG"),
            ("trauma", [], "PSY-2"),
            ("cigarettes", True, "SET-2"),
            ("tokens", {"spy": False}, "SET-2"),
            ("beatings", 1.0, "BEAT-1"),
        ],
    )
    def test_a_value_of_the_wrong_type_names_its_rule(self, field, value, rule):
        config = two_players(**{field: value})
        if field == "tokens":
            config["modules"] = {"places": ["library"]}
        assert refused(config).rule == rule

    @pytest.mark.parametrize(
        "house_rules",
        [
            {"neutral_start": ["showers"]},
            {"team_die_faces": {str(f): [["cafeteria"], "showers"] for f in range(1, 7)}},
            {"buy": {"spoon": {"price": 2, "card": ["spoon"]}}},
            {"targets": {"²": 10}},
            {"craft_once_per_turn": "yes"},
            {"neutral_destination": {"ask": 1}},
        ],
    )
    def test_house_rules_of_the_wrong_type(self, house_rules):
        assert refused({**two_players(), "house_rules": house_rules}).rule == "VAR-3"

    def test_start_places_of_the_wrong_type(self):
        config = {**two_players(), "modules": {"neutrals": 1, "warden": True}}
        assert refused({**config, "start": {"neutrals": {"michel": ["showers"]}}}).rule == "DI-1"
        assert refused({**config, "start": {"warden": {"at": "showers"}}}).rule == "DI-1"
        assert refused({**config, "start": {"discard": [["ring"]]}}).rule == "SUP-1"

    def test_a_5000_digit_integer(self):
        error = refused({**two_players(), "seed": 10**5000})
        assert error.key == "shape.number_out_of_range" and error.params["where"] == "config.seed"

    def test_a_hand_nested_900_lists_deep(self):
        error = refused(two_players(hand=nested("knife", 900)))
        assert error.key == "shape.too_deep" and error.params["where"].startswith("config.players[0].hand[0]")
        assert f"more than {MAX_DEPTH} levels" in error.message

    @pytest.mark.parametrize(
        ("name", "key"),
        [
            ("Car\ud800men", "shape.odd_character"),
            ("Car\x00men", "shape.odd_character"),
            ("Carmen\u2028", "shape.odd_character"),
            ("x" * 5000, "shape.text_too_long"),
        ],
    )
    def test_odd_text(self, name, key):
        assert refused(two_players(name=name)).key == key

    def test_combining_marks_are_text_like_any_other(self):
        assert new_game(two_players(name="Carme\u0301n")).players[0].name == "Carme\u0301n"

    @pytest.mark.parametrize(
        ("value", "key"),
        [
            (float("nan"), "shape.not_finite"),
            (float("inf"), "shape.not_finite"),
            ({1: 2}, "shape.key_not_text"),
            ({"x"}, "shape.not_json"),
            (["unknown"] * 1001, "shape.too_many_items"),
        ],
    )
    def test_values_json_does_not_have_or_a_game_does_not_need(self, value, key):
        assert refused(two_players(hand=value)).key == key

    def test_the_walk_counts_every_value(self):
        wide = {"hand": [["unknown"] * 1000 for _ in range(30)]}
        assert misshapen(wide, "x").key == "shape.too_many_values"


class TestActions:
    @pytest.mark.parametrize(
        "action",
        [
            {"type": "move", "player": 0, "to": ["cafeteria"]},
            {"type": "weapon", "player": 0, "card": {"knife": 1}},
            {"type": "search", "player": True},
            {"type": "move", "player": 0, "die": [1.0]},
            {"type": "choose", "player": 0, "option": [["cafeteria"]]},
            {"type": "sell", "player": 0, "cards": ["ring"], "cigarettes": 10**5000},
            {"type": "adjust", "player": 0, "changes": [{"path": "players.0.place", "set": [["cafeteria"]]}]},
            {"type": ["move"], "player": 0},
            nested({"type": "search", "player": 0}, 900),
        ],
    )
    def test_a_malformed_action(self, action):
        with pytest.raises(MalformedAction):
            parse_action(action)

    @pytest.mark.parametrize(
        "change",
        [
            {"path": "players.0.place", "set": ["cafeteria"]},
            {"path": "players.0.gang", "set": ["bikers"]},
            {"path": "players.0.hand", "add": "knife"},
            {"path": "warden", "set": ["showers"]},
            {"path": "players.².cigarettes", "set": 1},
            {"path": "players.0.background", "set": ["x"]},
        ],
    )
    def test_a_correction_of_the_wrong_type_is_a_violation(self, change):
        state = new_game(two_players())
        answer = step(state, parse_action({"type": "adjust", "player": 0, "changes": [change]}))
        assert not answer.accepted and answer.violations


class TestChecker:
    def test_an_unknown_config_key(self):
        data = {"config": {**TUTORIAL["config"], "colours": 1}, "actions": []}
        one_line_error(json.dumps(data).encode(), "impossible configuration", "Unknown field colours in config.")

    def test_a_list_as_a_place(self):
        data = {"config": TUTORIAL["config"], "actions": [{"type": "move", "player": 0, "to": ["cafeteria"]}]}
        one_line_error(json.dumps(data).encode(), "action 1 is malformed")

    def test_a_5000_digit_number_in_the_file(self):
        text = json.dumps(TUTORIAL).replace('"seed": 7', '"seed": ' + "9" * 5000)
        one_line_error(text.encode(), "is not valid JSON", "a number has more than 4300 digits")

    def test_a_number_out_of_range(self):
        text = json.dumps(TUTORIAL).replace('"seed": 7', '"seed": ' + "9" * 40)
        one_line_error(text.encode(), "impossible configuration", "config.seed is a number out of range")

    def test_a_hand_900_lists_deep(self):
        config = {**TUTORIAL["config"], "players": [{"name": "A", "hand": nested("knife", 900)}, {"name": "B"}]}
        one_line_error(json.dumps({"config": config, "actions": []}).encode(), "nested more than")

    def test_nesting_deeper_than_the_decoder_goes(self):
        one_line_error(b"[" * 100_000 + b"]" * 100_000, "nested too deeply")

    @pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
    def test_not_a_finite_number(self, value):
        text = json.dumps(TUTORIAL).replace('"seed": 7', f'"seed": {value}')
        one_line_error(text.encode(), "config.seed is NaN or an infinity")

    def test_invalid_utf8(self):
        one_line_error(json.dumps(TUTORIAL).encode().replace(b"Carmen", b"Carm\xffen"), "not UTF-8 text (byte")

    def test_a_lone_surrogate_and_a_line_separator(self):
        one_line_error(json.dumps(TUTORIAL).replace("Carmen", "Carm\\ud800en").encode(), "control character")
        data = {**TUTORIAL, "actions": [{"type": "move", "player": 0, "to\u2028": 1}]}
        one_line_error(json.dumps(data, ensure_ascii=False).encode(), "action 1 is malformed")

    def test_a_file_path_and_other_languages(self, tmp_path):
        path = tmp_path / "game.json"
        path.write_bytes(b'{"config": {"players": [], "seed": 1e999}, "actions": []}')
        for lang, words in (
            ("en", "impossible configuration"),
            ("it", "configurazione impossibile"),
            ("fa", "config.seed"),
        ):
            err = io.StringIO()
            assert run_check(str(path), io.StringIO(), err, lang=lang) == 2
            assert len(err.getvalue().splitlines()) == 1 and words in err.getvalue(), err.getvalue()

    def test_the_command_exits_2_with_one_line(self, tmp_path):
        path = tmp_path / "game.json"
        path.write_text(json.dumps(TUTORIAL).replace('"seed": 7', '"seed": ' + "9" * 5000))
        done = subprocess.run(
            [sys.executable, "-m", "companion", "check", str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
        assert len(done.stderr.splitlines()) == 1 and "4300 digits" in done.stderr


def test_decode_json_reports_where_utf8_breaks():
    with pytest.raises(BadJson) as caught:
        decode_json(b'{"a": "\xc3"}')
    assert caught.value.key == "json.not_utf8" and caught.value.params == {"offset": 7}


@pytest.fixture
def store(tmp_path):
    with Store(f"sqlite:///{tmp_path / 'games.sqlite3'}") as opened:
        yield opened


def stored(store: Store) -> list[tuple[str, int, int]]:
    return [(g.id, g.version, len(store.events(g.id))) for g in store.list_games()]


class TestStore:
    @pytest.mark.parametrize(
        "arguments",
        [
            {"submitted_by": ["a"]},
            {"submitted_by": "x" * 81},
            {"submitted_by": "a\ud800"},
            {"submitted_by": 5},
            {"submitted_by": "a\x00b"},
            {"base_version": "0"},
            {"base_version": None},
            {"base_version": True},
            {"base_version": 0.0},
            {"key": 7},
            {"key": "k" * 201},
            {"key": "\udfff"},
        ],
    )
    def test_a_bad_submit_argument_is_refused_and_nothing_is_stored(self, store, arguments):
        game_id = store.create_game(two_players())
        before = stored(store)
        with pytest.raises(InvalidArgument):
            store.submit(game_id, {"type": "search", "player": 0}, **{"base_version": 0, **arguments})
        assert stored(store) == before

    def test_bad_undo_and_redo_arguments(self, store):
        game_id = store.create_game(two_players())
        store.submit(game_id, {"type": "search", "player": 0}, base_version=0)
        before = stored(store)
        with pytest.raises(InvalidArgument):
            store.undo(game_id, base_version="1")
        with pytest.raises(InvalidArgument):
            store.redo(game_id, base_version=1, by="\x00")
        assert stored(store) == before

    @pytest.mark.parametrize(
        "config",
        [
            {**two_players(), "colours": 1},
            two_players(place=["cafeteria"]),
            two_players(hand=nested("knife", 900)),
            {**two_players(), "seed": 10**5000},
            two_players(name="\ud800"),
        ],
    )
    def test_create_and_import_refuse_a_bad_configuration(self, store, config):
        with pytest.raises(ConfigError):
            store.create_game(config)
        with pytest.raises(BadGameFile):
            store.import_game({"config": config, "actions": []})
        assert store.list_games() == []

    def test_import_refuses_a_bad_action(self, store):
        with pytest.raises(BadGameFile, match="action 2 is malformed"):
            store.import_game({**TUTORIAL, "actions": [TUTORIAL["actions"][0], {"type": "search", "player": 1e999}]})
        assert store.list_games() == []

    def test_odd_game_ids_are_unknown_games(self, store):
        for game_id in ("\ud800", ["x"], "a" * 100, 10**5000):
            with pytest.raises(GameNotFound):
                store.load(game_id)

    def test_verify_reports_a_configuration_the_rules_now_refuse(self, store):
        game_id = store.create_game(two_players())
        with store.db.transaction(write=True) as conn:
            conn.execute(update(GameRow).where(GameRow.id == game_id).values(config='{"players": []}'))
        problems = store.verify(game_id)
        assert len(problems) == 1 and problems[0].startswith("the configuration no longer starts a game: SET-1")


def test_games_import_exits_2_with_one_line(tmp_path):
    path = tmp_path / "game.json"
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    deep = json.dumps({"config": two_players(hand=nested("knife", 900)), "actions": []}).encode()
    for data in (deep, b'{"config": {"seed": ' + b"9" * 5000 + b'}, "actions": []}', b"\xff"):
        path.write_bytes(data)
        done = subprocess.run(
            [sys.executable, "-m", "companion", "games", "import", str(path), "--db", db],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("error: "), done.stderr
    with Store(db) as store:
        assert store.list_games() == []


def test_parse_config_walks_before_reading():
    """A config that is both misshapen and impossible is refused for its shape, named by path."""
    error = pytest.raises(ConfigError, parse_config, {"players": [{"name": "A", "hand": [float("nan")]}]}).value
    assert error.params["where"] == "config.players[0].hand[0]"
