"""A stored game keeps the rules it began with. One stored before the engine's rules had versions
names none, and replays by the first ones, even where the latest judge an entry of its log
differently (here a correction that adds an 11th Blade, which the latest rules refuse: SUP-1)."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import text
from storage_helpers import config

from companion.rules.config import RULES_VERSION
from storage import BadGameFile, Store

ELEVENTH_BLADE = {"type": "adjust", "player": 0, "changes": [{"path": "players.0.hand", "add": ["blade"]}]}


def _every_blade_in_sight(**extra: object) -> dict:
    cfg = config(**extra)
    cfg["players"][1]["hand"] = ["blade"] * 10  # the box holds 10
    return cfg


def _stored_config(store: Store, game_id: str) -> dict:
    with store.db.engine.begin() as conn:
        return json.loads(conn.execute(text("SELECT config FROM games WHERE id = :g"), {"g": game_id}).scalar_one())


def test_a_game_stored_before_versions_replays_by_the_first_rules(db_url) -> None:
    with Store(db_url) as store:
        game_id = store.create_game(_every_blade_in_sight(rules_version=1))
        assert store.submit(game_id, ELEVENTH_BLADE, base_version=0).answer.accepted
        stored = _stored_config(store, game_id)
        assert stored["rules_version"] == 1
        del stored["rules_version"]  # as every game stored before the versions was
        with store.db.engine.begin() as conn:
            conn.execute(text("UPDATE games SET config = :c WHERE id = :g"), {"c": json.dumps(stored), "g": game_id})

    with Store(db_url) as fresh:  # nothing cached: the log is read and replayed
        state = fresh.load(game_id).game.state
        assert state.rules_version == 1 and state.players[0].hand.known == {"blade": 1}
        assert fresh.verify(game_id) == []
        exported = fresh.export_game(game_id)
        assert exported["config"]["rules_version"] == 1  # its file says so: it imports as the same game
        copy = fresh.import_game(json.loads(json.dumps(exported)))
        assert fresh.load(copy).game.state.players[0].hand.known == {"blade": 1}


def test_a_new_game_is_stored_with_the_latest_rules(store) -> None:
    game_id = store.create_game(_every_blade_in_sight())
    assert _stored_config(store, game_id)["rules_version"] == RULES_VERSION
    refused = store.submit(game_id, ELEVENTH_BLADE, base_version=0).answer
    assert not refused.accepted and [v.rule for v in refused.violations] == ["SUP-1"]
    assert store.load(game_id).version == 0


def test_an_older_apps_export_that_no_longer_replays_says_how_it_would(store) -> None:
    """A file that names no version is read by the latest rules; when those refuse an entry, the
    refusal says what an export of an app before the versions needs."""
    config = _every_blade_in_sight()
    with pytest.raises(BadGameFile) as refused:
        store.import_game({"config": config, "actions": [ELEVENTH_BLADE]})
    assert 'replays with "rules_version": 1 in its config' in str(refused.value)
    assert store.list_games() == []
    with pytest.raises(BadGameFile) as named:  # a file that names its version is only refused
        store.import_game({"config": dict(config, rules_version=RULES_VERSION), "actions": [ELEVENTH_BLADE]})
    assert "rules_version" not in str(named.value)
    copy = store.import_game({"config": dict(config, rules_version=1), "actions": [ELEVENTH_BLADE]})
    assert store.load(copy).game.state.players[0].hand.known == {"blade": 1}
