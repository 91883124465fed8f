"""The log keeps what happened: a stored game reads back the same whatever the random source says.

Games with app-rolled dice and app-drawn cards are stored, then the engine's generator is swapped
for another one (or the stored seed changed) and the games are loaded by a fresh store: the same
states and the same answers. An export checks the same under any seed.
"""

import functools
import io
import json
from pathlib import Path

import pytest
from chance_support import GAMES, simulated, use_other_generator, without_rng
from sqlalchemy import text

from companion.checker import run_check
from companion.rules import Game
from storage import Store

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def plain(value):
    """As JSON gives it back (lists, not tuples)."""
    return json.loads(json.dumps(value))


@functools.cache
def stored_games() -> list[tuple[str, dict, list[dict]]]:
    """Simulated games with every module, and the scenarios: (name, config, actions as submitted).

    Played once per test run; nothing changes them."""
    out = [(f"{modules}-{seed}", *simulated(modules, seed)) for modules, seed in GAMES]
    for path in sorted(SCENARIOS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        out.append((path.stem, data["config"], data["actions"]))
    return out


def _store_all(store: Store) -> dict[str, tuple[str, dict, list[dict]]]:
    """Each game stored action by action (the first ones) or imported; {id: (name, summary, answers)}."""
    out = {}
    for index, (name, cfg, actions) in enumerate(stored_games()):
        if index < 2:
            game_id = store.create_game(cfg)
            for action in actions:
                assert store.submit(game_id, action, base_version=store.load(game_id).version).answer.accepted
        else:
            game_id = store.import_game({"config": cfg, "actions": actions})
        table = store.load(game_id)
        out[game_id] = (name, without_rng(table.game.state), [e.answer for e in store.events(game_id)])
    return out


def _reseed(store: Store, game_id: str, seed: int) -> None:
    with store.db.engine.begin() as conn:
        config = json.loads(conn.execute(text("SELECT config FROM games WHERE id = :g"), {"g": game_id}).scalar())
        conn.execute(
            text("UPDATE games SET config = :c, seed = :s WHERE id = :g"),
            {"c": json.dumps({**config, "seed": seed}), "s": seed, "g": game_id},
        )


@pytest.mark.parametrize("change", ["generator", "seed"])
def test_stored_games_read_back_the_same_after_the_random_source_changed(db_url, monkeypatch, change):
    with Store(db_url) as store:
        expected = _store_all(store)
        if change == "seed":
            for game_id in expected:
                _reseed(store, game_id, 424242)
    if change == "generator":
        use_other_generator(monkeypatch)
    with Store(db_url) as fresh:
        for game_id, (name, state, answers) in expected.items():
            table = fresh.load(game_id)
            assert without_rng(table.game.state) == state, name
            exported = fresh.export_game(game_id)
            game = Game(exported["config"])
            assert [plain(game.submit(a).to_json()) for a in exported["actions"]] == answers, name
            assert [a.to_json() for a in game.log] == exported["actions"], f"{name}: an outcome left to the seed"


def test_the_log_without_its_outcomes_would_give_another_game(db_url, monkeypatch):
    """The control: the same log without its outcomes gives another game under another generator."""
    name, cfg, actions = stored_games()[1]
    with Store(db_url) as store:
        game_id = store.import_game({"config": cfg, "actions": actions})
        expected = without_rng(store.load(game_id).game.state)
    use_other_generator(monkeypatch)
    unresolved = Game(cfg)
    refused = sum(not unresolved.submit(a).accepted for a in actions)
    assert refused or without_rng(unresolved.state) != expected
    with Store(db_url) as fresh:
        assert without_rng(fresh.load(game_id).game.state) == expected


def test_redo_reads_back_the_undone_action_outcomes(db_url, monkeypatch):
    name, cfg, actions = stored_games()[0]
    with Store(db_url) as store:
        game_id = store.create_game(cfg)
        version = 0
        for index, action in enumerate(actions):
            version = store.submit(game_id, action, base_version=version).version
            last = store.events(game_id)[-1]
            if index >= 20 and last.action.get("outcomes"):  # an action whose outcomes the app decided
                break
        version = store.undo(game_id, base_version=version).version
    use_other_generator(monkeypatch)
    with Store(db_url) as fresh:
        fresh.redo(game_id, base_version=version)
        redone = fresh.events(game_id)[-1]
        assert redone.kind == "redo" and redone.answer == last.answer
        assert fresh.verify(game_id) == []


def test_an_export_checks_the_same_under_any_seed(store, tmp_path):
    name, cfg, actions = stored_games()[1]
    game_id = store.import_game({"config": cfg, "actions": actions})
    table = store.load(game_id)
    exported = store.export_game(game_id)
    recorded = [e.answer for e in store.events(game_id)]
    outputs = []
    for seed in (0, 1, 987654321, 2**62):
        path = tmp_path / f"game-{seed}.json"
        path.write_text(json.dumps({**exported, "config": {**exported["config"], "seed": seed}}), encoding="utf-8")
        out = io.StringIO()
        assert run_check(str(path), out=out) == 0
        lines = [json.loads(line) for line in out.getvalue().splitlines()]
        assert lines[:-1] == recorded and lines[-1]["final"] == plain(table.game.summary()), seed
        outputs.append(out.getvalue())
    assert len(set(outputs)) == 1


def test_table_picks_are_stored_with_their_action_and_read_back(db_url):
    """The cards the table drew at random (`picks`) are part of the stored action, as its dice are:
    a fresh store reads the game back to the same state, and the export keeps them as entered."""
    cfg = {"players": [{"name": "A", "hand": ["knife"]}, {"name": "B", "hand": ["rare", "unknown"]}], "seed": 4}
    drawn = {"type": "give_up", "player": 1, "picks": ["blade"]}
    with Store(db_url) as store:
        game_id = store.create_game(cfg)
        for action in ({"type": "extort", "player": 0, "target": 1, "tool": "shovel", "weapons": ["knife"]}, drawn):
            assert store.submit(game_id, action, base_version=store.load(game_id).version).answer.accepted
        expected = without_rng(store.load(game_id).game.state)
    with Store(db_url) as fresh:
        assert without_rng(fresh.load(game_id).game.state) == expected
        assert fresh.export_game(game_id)["actions"][-1] == drawn
    assert expected["players"][0]["hand"]["known"] == {"blade": 1}
