"""View models without a browser: what the table shows, asks and says, from real engine states."""

from __future__ import annotations

import ast
import random
import re
from datetime import UTC
from pathlib import Path

import pytest

from companion.app.services.settings import DIE_MODES, NEUTRAL_MODES, THEMES
from companion.app.vm.actions import QUICK, Composer, action_menu, end_turn_vm
from companion.app.vm.events import EVENT_TYPES, Names, describe_action, describe_event, why_text
from companion.app.vm.history import history_view
from companion.app.vm.log import log_view
from companion.app.vm.pending import pending_view
from companion.app.vm.reactions import reactions_view
from companion.app.vm.rules import rule_count, rules_view
from companion.app.vm.seat import SPECTATOR
from companion.app.vm.setup import HOUSE_NUMBERS, SetupForm
from companion.app.vm.table import COLORS, build_table
from companion.app.vm.text import Tr
from companion.app.vm.undo import undo_view
from companion.app.vm.win import win_view
from companion.i18n import catalog
from companion.rules import Game, apply, new_game, parse_action, step
from companion.rules.events import EVENTS
from companion.rules.rulebook import rule_ids
from companion.simulate import RandomTable, random_config

APP = Path(__file__).resolve().parents[2] / "companion" / "app"
RULES = Path(__file__).resolve().parents[2] / "companion" / "rules"
TR = Tr("en")
EXAMPLE = {
    "players": [{"name": "Carmen"}, {"name": "Nicholas"}, {"name": "Yellow", "hand": ["knife", "knife", "unknown"]}],
    "seed": 3,
}


def play(state, **action):
    answer = step(state, parse_action(action))
    assert answer.accepted, answer.to_json()
    return answer


def example_until_extortion():
    s = new_game(EXAMPLE)
    play(s, type="move", player=0, die=[1])
    play(s, type="steal_spoon", player=0)
    play(s, type="end_turn", player=0)
    play(s, type="cautious_move", player=1, to="recreational_area")
    play(s, type="end_turn", player=1)
    play(s, type="move", player=2, die=[1])
    return s


class TestEvents:
    def test_every_event_the_engine_emits_has_a_line(self):
        emitted = set()
        for path in RULES.rglob("*.py"):
            emitted |= set(re.findall(r"emit\(ev\.([A-Za-z]+)\(", path.read_text(encoding="utf-8")))
        assert emitted, "no events found in the engine"
        assert emitted <= {cls.__name__ for cls in EVENTS.values()}
        assert set(EVENTS) <= EVENT_TYPES, f"events without a plain-language line: {sorted(set(EVENTS) - EVENT_TYPES)}"

    @pytest.mark.parametrize("modules,players", [("base", 3), ("full", 6), ("any", None)])
    def test_random_games_read_in_plain_language(self, modules, players):
        """Every event of random games renders: no placeholder, no key, no raw id left."""
        seen: set[str] = set()
        for seed in range(4):
            rng = random.Random(seed)
            state = new_game(random_config(rng, players, seed, modules))
            names = Names([p.name for p in state.players], TR)
            table = RandomTable(rng, state)
            for _ in range(400):
                if state.winner is not None:
                    break
                for action in table.choices(state):
                    try:
                        events = apply(state, action)
                    except Exception:
                        continue
                    line = describe_action(action.to_json(), names, TR)
                    assert "{" not in line and "ui." not in line, line
                    for ev in events:
                        seen.add(ev.TYPE)
                        text = describe_event(ev, names, TR)
                        assert text and "{" not in text and "event." not in text, (ev, text)
                        assert "why." not in text and "ui." not in text, (ev, text)
                    break
        assert {"roll", "move", "draw", "turn"} <= seen

    def test_causes_read_as_words(self):
        for why in ("combat", "steal_spoon", "grudge", "i_know_a_guy", "michel_win", "hand_limit", "skill_failed"):
            assert "_" not in why_text(TR, why), why


class TestTranslations:
    def test_every_ui_key_used_exists_in_english(self):
        english = catalog("en")
        used: set[str] = set()
        for path in APP.rglob("*.py"):
            used |= set(re.findall(r'"(ui\.[A-Za-z0-9_.\-]+[A-Za-z0-9_])"', path.read_text(encoding="utf-8")))
        expanded = (
            {f"ui.color_{c}" for c in COLORS}
            | {f"ui.theme_{t}" for t in THEMES}
            | {f"ui.dice_{m}" for m in DIE_MODES}
            | {f"ui.neutrals_mode_{m}" for m in NEUTRAL_MODES}
            | {f"ui.preset_{p}" for p in ("official", "online-simplified")}
            | {f"ui.preset_{p}_hint" for p in ("official", "online-simplified")}
            | {f"ui.house_{n}" for n in HOUSE_NUMBERS}
            | {f"ui.team_{t}" for t in "ab"}
            | {f"ui.status_{s}" for s in ("active", "finished")}
            | {f"ui.start_{f}" for f in ("cigarettes", "beatings", "tunnel")}
            | {f"ui.pending.combat_{r}" for r in ("attacker", "defender")}
            | {f"ui.action_details.{k}" for k in QUICK}
            | {f"ui.log_{k}" for k in ("undo", "redo")}
            | {
                f"ui.flag.{k}.{f}.{v}"
                for k, f in (
                    ("cautious_move", "planning"),
                    ("craft", "bandage"),
                    ("heal", "bandage"),
                    ("heal", "trauma"),
                    ("reveal_background", "trauma"),
                )
                for v in ("yes", "no")
            }
        )
        missing = sorted(k for k in used | expanded if k not in english)
        assert not missing, f"UI keys without an English text: {missing}"

    def test_views_hold_no_literal_words(self):
        """User-facing text goes through the translation layer: no ft.Text("Words") in the views."""
        offenders = []
        for path in sorted((APP / "ui").rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in ("Text", "TextButton", "Button"):
                    for arg in node.args[:1]:
                        if (
                            isinstance(arg, ast.Constant)
                            and isinstance(arg.value, str)
                            and re.search("[A-Za-z]{2}", arg.value)
                        ):
                            offenders.append(f"{path.name}:{node.lineno}: {arg.value!r}")
                for kw in getattr(node, "keywords", []) or []:
                    if (
                        kw.arg in ("label", "tooltip", "hint_text", "semantics_label")
                        and isinstance(kw.value, ast.Constant)
                        and isinstance(kw.value.value, str)
                        and re.search("[A-Za-z]{2}", kw.value.value)
                    ):
                        offenders.append(f"{path.name}:{kw.value.lineno}: {kw.value.value!r}")
        assert not offenders, offenders

    def test_rtl_follows_the_language(self):
        assert not Tr("en").rtl and Tr("fa").rtl and Tr("fa").font == "Vazirmatn"


class TestMenu:
    def test_beaten_player_sees_craft_refused_with_beat_2(self):
        s = example_until_extortion()
        play(s, type="extort", player=2, target=0, tool="spoon", weapons=["knife"])
        play(s, type="fight", player=0)
        play(s, type="weapon", player=0, card="blade")
        play(s, type="weapon", player=2, card="knife")
        play(s, type="give_up", player=0)
        play(s, type="end_turn", player=2)
        menu = {a.type: a for a in action_menu(s, 0, TR)}
        craft = menu["craft"]
        assert not craft.enabled and craft.rules == ["BEAT-2"]
        assert craft.reasons[0].message == "You have 1 Beating: no Craft."
        assert menu["steal_spoon"].enabled and menu["steal_spoon"].group == "place"
        assert "dig" not in menu  # a Place action of another Place is not offered

    def test_modules_not_in_play_are_not_offered(self):
        s = new_game({"players": [{"name": "A"}, {"name": "B"}]})
        kinds = {a.type for a in action_menu(s, 0, TR)}
        assert not kinds & {"attract_warden", "bribe", "exchange", "study", "bet", "brawl"}
        s = new_game({"players": [{"name": "A"}, {"name": "B"}], "modules": {"warden": True}})
        assert "attract_warden" in {a.type for a in action_menu(s, 0, TR)}

    def test_end_turn_over_the_hand_limit_asks_what_to_discard(self):
        s = new_game({"players": [{"name": "A", "hand": ["unknown"] * 11}, {"name": "B"}]})
        assert end_turn_vm(s, 0, TR).hint == "discard 1 first"
        c = Composer(s, 0, "end_turn", TR)
        step_ = c.step()
        assert step_.field == "discard" and step_.exact == 1
        c.answer("discard", ["unknown"])
        assert c.step() is None and c.action() == {"type": "end_turn", "player": 0, "discard": ["unknown"]}


class TestComposer:
    def test_extort_asks_only_the_tool_when_one_target_is_here(self):
        s = example_until_extortion()
        c = Composer(s, 2, "extort", TR)
        first = c.step()
        assert first.field == "tool" and [ch.value for ch in first.choices] == ["spoon", "pickaxe", "shovel"]
        c.answer("tool", "spoon")
        weapons = c.step()
        assert weapons.field == "weapons" and weapons.default == ("knife",)
        assert [ch.label for ch in weapons.choices] == ["Knife", "Blade (an unentered card)"]
        c.answer("weapons", ["knife"])
        assert c.step() is None
        assert c.action() == {"type": "extort", "player": 2, "target": 0, "tool": "spoon", "weapons": ["knife"]}
        assert ("Which player?", "Carmen") in c.summary()

    def test_refused_choices_are_shown_with_their_rule(self):
        s = new_game(
            {"players": [{"name": "A", "place": "cafeteria", "hand": ["links", "pike", "container"]}, {"name": "B"}]}
        )
        c = Composer(s, 0, "craft", TR)
        recipes = {ch.value: ch for ch in c.step().choices}
        assert recipes["pickaxe"].enabled and recipes["shovel"].enabled
        assert not recipes["knives"].enabled and recipes["knives"].reasons[0].rule == "HAND-1"
        assert not recipes["pickaxes"].enabled and recipes["pickaxes"].reasons[0].rule == "GA"
        # With only one possible recipe, nothing is asked.
        s = new_game({"players": [{"name": "A", "place": "cafeteria", "hand": ["links", "pike"]}, {"name": "B"}]})
        assert Composer(s, 0, "craft", TR).step() is None

    def test_physical_die_is_asked_for_a_simple_move(self):
        s = new_game({"players": [{"name": "A"}, {"name": "B"}]})
        c = Composer(s, 0, "move", TR, physical_dice=True)
        die = c.step()
        assert die.kind == "die" and die.exact == 1
        c.answer("die", [4])
        assert c.action() == {"type": "move", "player": 0, "die": [4]}
        assert Composer(s, 0, "move", TR).step() is None  # the app rolls: nothing to ask

    def test_search_is_one_tap_and_cards_are_optional(self):
        s = new_game({"players": [{"name": "A", "place": "showers"}, {"name": "B"}]})
        assert Composer(s, 0, "search", TR, quick=True).step() is None
        c = Composer(s, 0, "search", TR)
        cards = c.step()
        assert cards.kind == "many" and cards.optional and cards.high == 3
        c.answer("cards", ["links", "links"])
        assert c.action() == {"type": "search", "player": 0, "cards": ["links", "links"]}
        assert not c.check()

    def test_join_a_gang_asks_the_accessories_and_the_card_taken(self):
        s = new_game({"players": [{"name": "A", "hand": ["boots", "ring", "cap"]}, {"name": "B"}]})
        c = Composer(s, 0, "join_gang", TR)
        gangs = {ch.value: ch for ch in c.step().choices}
        assert gangs["bikers"].enabled and gangs["cartel"].enabled and gangs["queers"].enabled
        assert not gangs["bratva"].enabled and gangs["bratva"].reasons[0].rule in ("GANG-1", "HAND-1")
        c.answer("gang", "bikers")
        accessories = c.step()
        assert accessories.field == "cards" and accessories.exact == 2
        c.answer("cards", ["boots", "ring"])
        card = c.step()
        assert card.field == "card" and len(card.choices) == 4
        c.answer("card", card.choices[1].value)
        action = c.action()
        assert action["cards"] == ["boots", "ring"] and action["card"] == card.choices[1].value
        assert not c.check()

    def test_sell_asks_cards_and_the_printed_total(self):
        s = new_game({"players": [{"name": "A", "place": "recreational_area", "hand": ["rare", "cap"]}, {"name": "B"}]})
        c = Composer(s, 0, "sell", TR)
        assert c.step().field == "cards"
        c.answer("cards", ["rare"])
        total = c.step()
        assert total.kind == "number"
        c.answer("cigarettes", 4)
        assert c.action() == {"type": "sell", "player": 0, "cards": ["rare"], "cigarettes": 4} and not c.check()

    def test_forcing_offers_the_refused_candidates(self):
        s = new_game({"players": [{"name": "A", "beatings": 1, "place": "cafeteria"}, {"name": "B"}]})
        assert not Composer(s, 0, "craft", TR).possible
        forced = Composer(s, 0, "craft", TR, force=True)
        forced.answer("recipe", "pickaxe")
        assert forced.action()["force"] is True
        assert [r.rule for r in forced.check()] == ["BEAT-2"]


class TestPending:
    def test_extortion_answer_offers_cooperate_and_fight(self):
        s = example_until_extortion()
        play(s, type="extort", player=2, target=0, tool="spoon", weapons=["knife"])
        vm = pending_view(s, TR)
        assert vm.seat == 0 and vm.title == "Yellow extorts Carmen for the Spoon"
        assert {a.label for a in vm.answers} == {"Fight", "Give the Spoon to Yellow"}
        play(s, type="fight", player=0)
        vm = pending_view(s, TR)
        assert [a.label for a in vm.answers] == ["Play a Blade (an unentered card)", "Give up"]

    def test_neutral_move_asks_for_the_die_only_in_physical_mode(self):
        s = new_game({"players": [{"name": "A"}, {"name": "B"}], "modules": {"neutrals": 2}})
        play(s, type="end_turn", player=0)
        app_rolls = pending_view(s, TR)
        assert [a.label for a in app_rolls.answers] == [
            "Move Michel (now in the Showers)",
            "Move Michelle (now in the Showers)",
            "Leave them where they are",
        ]
        assert not any(a.needs_die for a in app_rolls.answers)
        real = pending_view(s, TR, physical_dice=True)  # a real die: each neutral's pad, face and Place in one tap
        assert [p.who for p in real.pads] == ["michel", "michelle"] and len(real.answers) == 1

    def test_a_screen_that_does_not_answer_shows_nothing_to_tap(self):
        """Another seat's phone and the table view read who decides; the die pads, answers and
        cards are the decider's (a phone showed another player's whole neutral pad as buttons)."""
        s = new_game({"players": [{"name": "A"}, {"name": "B"}], "modules": {"neutrals": 2}})
        play(s, type="end_turn", player=0)
        real = pending_view(s, TR, physical_dice=True)
        watched = real.watched()
        assert real.pads and real.answers and watched.title == real.title
        assert (watched.pads, watched.answers, watched.helpers, watched.pick) == ([], [], [], None)

    def test_destination_highlights_the_places(self):
        s = new_game({"players": [{"name": "A"}, {"name": "B"}]})
        play(s, type="move", player=0, die=[4])
        vm = pending_view(s, TR)
        assert vm.die == 4 and vm.highlight == ["cafeteria", "recreational_area"]
        table = build_table(s, TR, set(vm.highlight))
        assert [p.ident for p in table.places if p.highlighted] == ["cafeteria", "recreational_area"]


class TestReactions:
    def test_offence_offers_reports_to_the_others_and_freepass_to_the_offender(self):
        s = new_game(
            {
                "players": [
                    {"name": "A", "hand": ["spoon"], "tokens": {"corruption": 1}},
                    {"name": "B"},
                    {"name": "C", "tokens": {"corruption": 1}},
                ],
                "modules": {"warden": True},
            }
        )
        play(s, type="dig", player=0, tool="spoon")
        vm = reactions_view(s, TR)
        assert vm.offence is not None and vm.offence.rule == "WARD-2" and vm.offence.offender_name == "A"
        assert [a.seat for a in vm.offence.reports] == [1, 2]
        assert vm.offence.freepass is not None and vm.offence.freepass.seat == 0
        assert [a.seat for a in vm.offence.punishments] == [0, 2]

    def test_a_lost_combat_offers_the_loser_is_that_everything(self):
        """The engine opens the moment after a loss; the app only lists what `legal_actions` allows."""
        s = new_game(
            {
                "players": [
                    {"name": "A", "place": "cafeteria", "hand": ["knife"]},
                    {"name": "B", "place": "cafeteria", "hand": ["rare"]},
                    {"name": "C"},
                ]
            }
        )
        play(s, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        during = [a.action["card"] for answers in reactions_view(s, TR).backgrounds.values() for a in answers]
        assert "is_that_everything_youve_got" not in during  # not while the combat is still open
        play(s, type="give_up", player=1)
        vm = reactions_view(s, TR)
        assert list(vm.backgrounds) == [1]
        assert [a.action["card"] for a in vm.backgrounds[1]] == ["is_that_everything_youve_got"]
        assert vm.backgrounds[1][0].label == "B: reveal Is That Everything You've Got?"

    def test_the_punishment_names_who_chooses(self):
        s = new_game(
            {
                "players": [{"name": "A", "hand": ["spoon"]}, {"name": "B", "tokens": {"corruption": 1}}],
                "modules": {"warden": True},
            }
        )
        play(s, type="dig", player=0, tool="spoon")
        play(s, type="corruption", player=1, effect="punishment")
        vm = pending_view(s, TR)
        assert vm.seat == 1 and vm.title == "B punishes A: B chooses"
        assert [a.seat for a in vm.answers] == [1, 1, 1]


class TestSetup:
    def test_default_form_starts_a_game(self):
        form = SetupForm.default(3)
        assert not form.problems(TR)
        Game(form.config())

    def test_impossible_choices_name_their_rule(self):
        form = SetupForm.default(3)
        form.team = True
        [problem] = form.problems(TR)
        assert problem.rule == "TEAM-1"
        form = SetupForm.default(2)
        form.players[0].name = form.players[1].name = "Carmen"
        assert form.problems(TR)[0].rule == "SET-1"
        form = SetupForm.default(4)
        form.team = True
        form.places = ["gambling_cells"]
        assert form.problems(TR)[0].rule == "TEAM-7"

    def test_house_rules_and_a_game_in_progress(self):
        form = SetupForm.default(3, neutral_destination="random")
        form.neutrals = 1
        form.house["target"] = 9
        form.in_progress = True
        form.players[2].start.known = {"knife": 2}
        form.players[2].start.unknown = 1
        config = form.config()
        assert config["house_rules"]["targets"]["3"] == 9
        assert config["house_rules"]["neutral_destination"] == "random"
        assert config["players"][2]["hand"] == ["knife", "knife", "unknown"]
        state = Game(config).state
        assert state.target() == 9 and state.players[2].hand.known == {"knife": 2}

    def test_the_punishment_chooser_is_a_house_rule_of_the_warden(self):
        form = SetupForm.default(3)
        form.punishment_choice = "victim"
        assert "punishment_choice" not in form.house_rules()  # no Warden, no Punishment
        form.warden = True
        assert form.house_rules()["punishment_choice"] == "victim"
        assert Game(form.config()).state.ruleset.punishment_choice == "victim"
        form.punishment_choice = "spender"
        assert "punishment_choice" not in form.house_rules()  # the preset's own value


class TestScreensData:
    def test_rules_are_all_there_and_searchable(self):
        sections = rules_view(TR)
        assert rule_count(sections) == len(rule_ids())
        assert all(r.text and not r.text.startswith("rule.") for s in sections for r in s.rules)
        found = [r.ident for s in rules_view(TR, "beating craft") for r in s.rules]
        assert "BEAT-2" in found
        assert [r.ident for s in rules_view(TR, "WARD-3") for r in s.rules] == ["WARD-3"]

    def test_win_standings(self):
        s = new_game({"players": [{"name": "A", "tunnel": 11, "hand": ["spoon"]}, {"name": "B", "tunnel": 5}]})
        play(s, type="dig", player=0, tool="spoon")
        vm = win_view(s, TR)
        assert vm.winner == "A" and [st.name for st in vm.standings] == ["A", "B"] and vm.standings[0].winner

    def test_undo_asks_before_a_roll_or_another_players_action(self):
        s = new_game({"players": [{"name": "A"}, {"name": "B"}]})
        own = [{"seq": 1, "action": {"type": "search", "player": 0}, "answer": {"events": []}, "undone": False}]
        assert undo_view(own, s, TR, False).confirm is None
        rolled = [
            {
                "seq": 1,
                "action": {"type": "move", "player": 0, "die": [4]},
                "answer": {"events": [{"type": "roll", "player": 0, "die": 4, "source": "table", "why": "move"}]},
                "undone": False,
            }
        ]
        assert "rolled dice" in undo_view(rolled, s, TR, False).confirm
        other = [{"seq": 1, "action": {"type": "search", "player": 1}, "answer": {"events": []}, "undone": False}]
        assert "B's action" in undo_view(other, s, TR, False).confirm

    def test_log_lines_and_undo_entries(self):
        entries = [
            {
                "seq": 1,
                "kind": "action",
                "action": {"type": "move", "player": 0, "die": [1]},
                "answer": {
                    "events": [
                        {"type": "roll", "player": 0, "die": 1, "source": "table", "why": "move"},
                        {"type": "move", "player": 0, "from": "cell_block", "to": "cafeteria", "why": "move"},
                    ]
                },
                "undone": True,
            },
            {"seq": 2, "kind": "undo", "target": 1, "action": {"type": "undo", "target": 1}, "answer": {}},
        ]
        lines = log_view(entries, ["Carmen", "Nicholas"], TR)
        assert lines[0].title == "Undo: Carmen: Simple move — die 1"
        assert lines[1].undone and lines[1].lines == [
            "Carmen rolled a 1 on the table (to move).",
            "Carmen moves from the Cell Block to the Cafeteria.",
        ]

    def test_the_log_names_a_drawn_card_for_the_referee_only(self):
        """A shared or public screen's log is worded from the engine's projection, the console's is not."""
        s = new_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})
        answer = play(s, type="search", player=0, cards=["golden_chain"])
        entries = [
            {
                "seq": 1,
                "kind": "action",
                "action": {"type": "search", "player": 0},
                "answer": answer.to_json(),
                "undone": False,
            }
        ]
        names = ["Carmen", "Nicholas"]
        referee = " ".join(log_view(entries, names, TR)[0].lines)
        public = " ".join(log_view(entries, names, TR, viewer=SPECTATOR)[0].lines)
        drawer = " ".join(log_view(entries, names, TR, viewer=0)[0].lines)
        assert "Golden chain" in referee and "Golden chain" in drawer
        assert "Golden chain" not in public and "Carmen" in public

    def test_history_series(self):
        from datetime import datetime

        from storage.statistics import GameStats, SeatStats, summarise

        seats = (
            SeatStats(0, "Carmen", "red", None, True, 12, 1, 0, 2, 0),
            SeatStats(1, "Nicholas", "black", None, False, 7, 0, 1, 0, 2),
        )
        stats = summarise([GameStats("g1", datetime.now(UTC), "official", "Carmen", seats)])
        vm = history_view(stats)
        assert [s.name for s in vm.tunnel] == ["Carmen", "Nicholas"]
        assert vm.tunnel[0].points == [(1, 12)] and vm.beatings[0].points == [(1, 1)] and vm.max_tunnel == 12

    def test_players_level_in_a_game_keep_a_dot_each(self):
        """One finished game, three players at 0 Beatings: three dots at one place, so each line's
        dot is wider than those drawn after it (rings), and the dots apart stay the same size."""
        from datetime import datetime

        from storage.statistics import GameStats, SeatStats, summarise

        seats = (
            SeatStats(0, "Anna", "red", None, True, 12, 0, 0, 0, 0),
            SeatStats(1, "Bruno", "blue", None, False, 4, 0, 0, 0, 0),
            SeatStats(2, "Carla", "green", None, False, 4, 0, 0, 0, 0),
        )
        vm = history_view(summarise([GameStats("g1", datetime.now(UTC), "official", "Anna", seats)]))
        assert [s.under for s in vm.beatings] == [[2], [1], [0]]
        assert [s.under for s in vm.tunnel] == [[0], [1], [0]]
