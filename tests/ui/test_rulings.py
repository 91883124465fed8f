"""Table rulings (vm/rulings.py, services/kept_rulings.py): the referee overrules a refusal with a
reason, the reason is recorded with the action and told in the log, the replay and the export,
and a refusal a setting governs can be kept as a house rule that New game offers again."""

from __future__ import annotations

from typing import Any

import pytest

from companion.app.services.kept_rulings import MAX_KEPT, kept_with, valid_kept
from companion.app.services.settings import Settings, SettingsFile
from companion.app.vm.replay import Replay, entries_of, replay_step
from companion.app.vm.rulings import Ruling, house_rule_words, keepable
from companion.app.vm.setup import SetupForm
from storage import Store

from .test_interaction import TR, control

CRAFTER = {"name": "Carmen", "hand": ["links", "pike", "links", "pike"], "place": "cafeteria"}


@pytest.fixture
def store(tmp_path):
    s = Store(f"sqlite:///{tmp_path / 'games.db'}")
    yield s
    s.close()


def craft_twice_game(store: Store) -> str:
    """A game where crafting a second time in the turn is refused by the preset (VAR-2)."""
    return store.create_game(
        {"players": [CRAFTER, {"name": "Nicholas"}], "seed": 3, "ruleset": "online-simplified", "start": {}}
    )


def overrule(store: Store, gid: str, ruling: Ruling) -> tuple[Any, Any]:
    ctl, screen = control(store, gid)
    ctl.submit({"type": "craft", "player": 0, "recipe": "pickaxe"})
    ctl.shown_version = ctl.session.version  # the screen redrew the table after the first craft
    ctl.submit({"type": "craft", "player": 0, "recipe": "pickaxe"})
    kind, (_, rules, on_force) = screen.said[-1]
    assert kind == "flag" and rules == ["VAR-2"] and store.load(gid).version == 1
    on_force(ruling)
    return ctl, screen


def test_the_ruling_is_recorded_with_the_forced_action_and_told(store) -> None:
    gid = craft_twice_game(store)
    ctl, screen = overrule(store, gid, Ruling("we craft as often as we like"))
    assert store.load(gid).version == 2
    forced = store.events(gid)[-1].action
    assert forced["force"] is True and forced["ruling"] == "we craft as often as we like"
    assert any("we craft as often as we like" in line for line in ctl.result)  # what just happened
    assert not [k for k, _ in screen.said if k == "keep"]  # not asked to keep: nothing kept


def test_a_kept_ruling_goes_to_the_port_with_its_house_rule(store) -> None:
    gid = craft_twice_game(store)
    _, screen = overrule(store, gid, Ruling("two crafts are fine", keep=True))
    assert ("keep", ({"craft_once_per_turn": False}, "two crafts are fine")) in screen.said


def test_a_refusal_no_setting_governs_is_never_kept(store) -> None:
    gid = store.create_game({"players": [{"name": "Carmen", "beatings": 1}, {"name": "Nicholas"}], "seed": 3})
    ctl, screen = control(store, gid)
    ctl.submit({"type": "craft", "player": 0, "recipe": "shovel"})
    _, (_, _, on_force) = screen.said[-1]
    on_force(Ruling("ok", keep=True))
    assert store.load(gid).version == 1 and not [k for k, _ in screen.said if k == "keep"]


def test_the_ruling_survives_export_import_and_replay(store) -> None:
    gid = craft_twice_game(store)
    overrule(store, gid, Ruling("house says yes"))
    exported = store.export_game(gid)
    assert exported["actions"][-1]["ruling"] == "house says yes"
    copy = store.import_game(exported)
    assert store.export_game(copy)["actions"][-1]["ruling"] == "house says yes"
    replay = Replay(store.load(copy).config, entries_of(store.events(copy)))
    last = replay_step(replay, replay.total, TR)
    assert any("house says yes" in line for line in [last.title, *last.lines])


def test_keepable_and_its_words() -> None:
    from companion.app.vm.reasons import ReasonVM

    assert keepable([ReasonVM("VAR-2", "", True, "v.craft_once")]) == {"craft_once_per_turn": False}
    assert keepable([ReasonVM("VAR-2", "", True, "v.craft_once"), ReasonVM("BEAT-2", "", True, "v.x")]) is None
    assert keepable([ReasonVM("TURN-5", "", False)]) is None  # a reason without a key is never kept
    assert house_rule_words({"craft_once_per_turn": False}, TR) == "Craft more than once per turn"


def test_kept_rulings_in_the_settings_file_are_validated(tmp_path) -> None:
    file = SettingsFile(tmp_path / "settings.json")
    kept = kept_with([], {"craft_once_per_turn": False}, "  two crafts  ")
    assert kept == [{"ruling": "two crafts", "house_rules": {"craft_once_per_turn": False}}]
    assert kept_with(kept, {"craft_once_per_turn": False}, "newer")[-1]["ruling"] == "newer"  # once, newest reason
    assert len(kept_with(kept, {"craft_once_per_turn": False}, "newer")) == 1
    file.save(Settings(kept_rulings=kept))
    assert file.load().kept_rulings == kept
    damaged = [
        {"ruling": "x", "house_rules": {"no_such_rule": 1}},
        {"ruling": "bell\x07", "house_rules": {"craft_once_per_turn": False}},
        {"ruling": 3, "house_rules": {"craft_once_per_turn": False}},
        {"house_rules": {}},
        "junk",
    ]
    assert valid_kept(damaged) == [] and valid_kept("junk") == []
    many = [{"ruling": str(n), "house_rules": {"hand_limit": n + 1}} for n in range(MAX_KEPT + 5)]
    assert len(valid_kept(many)) == MAX_KEPT


def test_new_game_plays_kept_rulings_unless_switched_off() -> None:
    kept = [{"ruling": "two crafts", "house_rules": {"craft_once_per_turn": False}}]
    form = SetupForm.default(3, kept=kept)
    form.ruleset = "online-simplified"
    assert form.config()["house_rules"] == {"craft_once_per_turn": False}
    form.kept_off.add(0)
    assert "house_rules" not in form.config()
