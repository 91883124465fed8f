"""Playing beside the real box, without a browser: the regressions of issue 14 and the view
models of the score strip, the action list, the Warden warning and the winning confirmation."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import flet as ft

from companion.app.ui.widgets.common import edge
from companion.app.vm.actions import Composer, action_menu, confirm_view, end_turn_vm, menu_view
from companion.app.vm.correct import card_choices
from companion.app.vm.dice import michel_ask, michel_draws
from companion.app.vm.history import history_view
from companion.app.vm.pending import pending_view
from companion.app.vm.setup import SetupForm, hand_cards, hand_total
from companion.app.vm.table import build_table, score_strip
from companion.app.vm.text import Tr
from companion.app.vm.undo import redo_view
from companion.rules import new_game, parse_action, step, view

from .conftest import drawn, make_store, settled, show, write_settings
from .test_app_offline import new_app

TR = Tr("en")


async def host_app(store, folder: Path, width: int = 390):
    """The app as the host machine's browser has it (the console, not the neutral page)."""
    return await new_app(store, folder, width)


def reasons_of(state, kind: str) -> list[str]:
    menu = action_menu(state, state.active, TR)
    return [r.message for a in menu if a.type == kind for r in a.reasons]


class TestBugs:
    def test_a_finished_move_leaves_no_place_highlighted(self, tmp_path: Path) -> None:
        """A Simple move whose die leaves one destination ends at once: neither of the die's
        Places stays lit (nor labelled a destination) on the map."""
        store = make_store(tmp_path)
        game = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "seed": 3})

        async def run() -> None:
            app = await host_app(store, tmp_path)
            await show(app, f"/game/{game}")
            table = app.screen
            table.control.submit({"type": "move", "player": 0, "die": [1]})  # 1: Cell Block or Cafeteria
            await settled(table)
            assert store.load(game).game.state.players[0].place == "cafeteria"
            lit = [t.vm.ident for t in table._map.tiles if t.vm is not None and t.vm.highlighted]
            assert lit == [] and not any(t.control.selected for t in table._map.tiles)

        asyncio.run(run())

    def test_naming_a_starting_card_replaces_an_unentered_one(self) -> None:
        form = SetupForm.default(2)
        form.in_progress = True
        start = form.players[0].start
        start.set_card("knife", 1, 3)
        assert (start.known, start.unentered(3), start.hand_size(3)) == ({"knife": 1}, 2, 3)
        start.set_card("knife", 3, 3)
        assert start.hand_size(3) == 3 and start.unentered(3) == 0 and form.hand_notes(TR) == []
        start.set_card("knife", 4, 3)  # nothing left unentered: now the hand grows, and the form says so
        assert start.hand_size(3) == 4
        assert form.hand_notes(TR) == ["Player 1 holds 4 cards; the starting hand is 3."]
        start.set_card("knife", 2, 3)  # un-named cards go back to the unentered ones
        assert start.hand_size(3) == 4 and start.unentered(3) == 2

    def test_refusals_say_what_is_true(self) -> None:
        alone = new_game(
            {
                "players": [
                    {"name": "Carmen", "place": "cafeteria", "hand": ["spoon"]},
                    {"name": "Nicholas"},
                    {"name": "Yellow"},
                ],
                "seed": 3,
            }
        )
        assert reasons_of(alone, "join_gang") == [
            "Joining a Gang takes the Accessories its card asks for, all different."
        ]
        assert reasons_of(alone, "extort") == [
            "Nobody else is in the Cafeteria with you.",
            "Carmen has no Weapon in hand.",
        ]
        company = new_game(
            {
                "players": [
                    {"name": "Carmen", "place": "cafeteria", "hand": ["spoon"]},
                    {"name": "Nicholas", "place": "cafeteria"},
                ],
                "seed": 3,
            }
        )
        assert reasons_of(company, "extort") == ["Carmen has no Weapon in hand."]

    def test_redo_asks_like_undo_and_names_what_it_puts_back(self) -> None:
        s = new_game({"players": [{"name": "A"}, {"name": "B"}]})
        rolled = [
            {
                "seq": 1,
                "kind": "action",
                "action": {"type": "move", "player": 0, "die": [4]},
                "answer": {"events": [{"type": "roll", "player": 0, "die": 4, "source": "app", "why": "move"}]},
                "undone": True,
            },
            {"seq": 2, "kind": "undo", "target": 1, "action": {"type": "undo", "target": 1}, "answer": {}},
        ]
        vm = redo_view(rolled, s, TR)
        assert vm.can_redo and "rolled dice" in vm.confirm and vm.last
        own = [
            {
                "seq": 1,
                "kind": "action",
                "action": {"type": "search", "player": 0},
                "answer": {"events": []},
                "undone": True,
            },
            {"seq": 2, "kind": "undo", "target": 1, "answer": {}},
        ]
        vm = redo_view(own, s, TR)
        assert vm.can_redo and vm.confirm is None and "Search" in vm.last
        other = [
            {
                "seq": 1,
                "kind": "action",
                "action": {"type": "search", "player": 1},
                "answer": {"events": []},
                "undone": True,
            },
            {"seq": 2, "kind": "undo", "target": 1, "answer": {}},
        ]
        assert "B's action" in redo_view(other, s, TR).confirm
        redone = own + [{"seq": 3, "kind": "redo", "target": 1, "answer": {}}]
        assert not redo_view(redone, s, TR).can_redo

    def test_history_lines_wear_the_players_colours(self) -> None:
        def seat(name: str, colour: str) -> SimpleNamespace:
            return SimpleNamespace(name=name, colour=colour, tunnel=3, beatings_taken=1)

        stats = SimpleNamespace(
            players=[
                SimpleNamespace(
                    name=n,
                    games=1,
                    wins=0,
                    tunnel=3,
                    beatings_taken=1,
                    beatings_given=0,
                    extortions_won=0,
                    extortions_lost=0,
                )
                for n in ("Carmen", "Nicholas")
            ],
            games=[
                SimpleNamespace(seats=[seat("Carmen", "yellow"), seat("Nicholas", "yellow")]),
                SimpleNamespace(seats=[seat("Carmen", "green"), seat("Nicholas", "yellow")]),
            ],
        )
        vm = history_view(stats)
        assert [(s.name, s.color) for s in vm.tunnel] == [("Carmen", "green"), ("Nicholas", "yellow")]
        assert [s.color for s in vm.beatings] == ["green", "yellow"]
        assert edge("green") == ft.Colors.GREEN_700
        # black and white in the theme's tones, which differ from each other and from its background
        assert {edge("black"), edge("white")} == {ft.Colors.ON_SURFACE, ft.Colors.OUTLINE}

    def test_places_take_their_own_article(self) -> None:
        assert TR("ui.player_at", place="solitary") == "in Solitary Confinement"
        assert TR("ui.player_at", place="Solitary Confinement") == "in Solitary Confinement"  # a name passed
        assert TR("ui.group_place", place="cafeteria") == "Here in the Cafeteria"
        assert (
            TR.params("v.not_adjacent", {"to": "cafeteria", "place": "solitary"})
            == "The Cafeteria is not adjacent to Solitary Confinement."
        )
        assert (
            Tr("it")("event.move", player="Carmen", **{"from": "solitary"}, to="showers", why="")
            == "Carmen si sposta da Isolamento a Docce."
        )

    def test_one_card_order_in_setup_and_corrections(self) -> None:
        s = new_game({"players": [{"name": "A", "hand": ["spoon", "blade", "knife"]}, {"name": "B"}]})
        order = list(s.catalog.card_order)
        assert hand_cards() == order == card_choices(s, "add", 0)
        assert card_choices(s, "identify", 0) == [c for c in order if s.catalog.is_search_card(c)]
        assert card_choices(s, "remove", 0) == ["spoon", "knife", "blade"]

    def test_the_phone_title_keeps_the_turn_number(self, tmp_path: Path) -> None:
        store = make_store(tmp_path)
        game = store.create_game({"players": [{"name": "Maximiliana Alessandra"}, {"name": "Nicholas"}]})

        async def run() -> None:
            app = await host_app(store, tmp_path)
            await show(app, f"/game/{game}")
            title = app.screen.appbar().title
            texts = title.content.controls
            assert title.label == "Round 1 · Maximiliana Alessandra"
            assert texts[0].value == "Round 1 · " and texts[0].no_wrap and not texts[0].expand
            assert texts[1].value == "Maximiliana Alessandra" and texts[1].overflow == ft.TextOverflow.ELLIPSIS
            assert texts[1].expand
            bar = [c.identifier for c in app.screen.appbar().actions if isinstance(c, ft.Semantics)]
            assert bar == ["nav-undo", "nav-redo"]  # the rest of the buttons sit on top of the table
            assert "nav-settings" in [c.identifier for c in app.screen._head.tools.controls]

        asyncio.run(run())


def test_engine_messages_are_played_through() -> None:
    """The engine answers a real extortion without a Weapon with the new reason too."""
    s = new_game({"players": [{"name": "Carmen", "hand": ["spoon"]}, {"name": "Nicholas"}]})
    answer = step(s, parse_action({"type": "extort", "player": 0, "target": 1, "tool": "spoon", "weapons": ["knife"]}))
    assert [v.key for v in answer.violations] == ["v.no_weapon"]


class TestScoreStrip:
    def test_each_player_with_tunnel_beatings_cigarettes_and_whose_turn(self) -> None:
        s = new_game(
            {
                "players": [{"name": "Carmen", "tunnel": 3, "beatings": 1, "cigarettes": 4}, {"name": "Nicholas"}],
                "seed": 3,
            }
        )
        scores = score_strip(build_table(s, TR), TR)
        carmen, nicholas = scores
        assert (carmen.tunnel, carmen.beatings, carmen.hurt, carmen.cigarettes, carmen.turn) == (
            f"3/{s.target()}",
            "1",
            True,
            "4",
            True,
        )
        assert carmen.label.startswith("Their turn. Carmen: Tunnel 3 of") and not nicholas.turn
        fa = score_strip(build_table(s, Tr("fa")), Tr("fa"))[0]
        assert fa.cigarettes == "۴"

    def test_every_table_screen_shows_it_and_a_tap_finds_the_board(self, tmp_path: Path) -> None:
        store = make_store(tmp_path)
        game = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})

        async def run() -> None:
            for width in (390, 1280):
                app = await host_app(store, tmp_path, width)
                await show(app, f"/game/{game}")
                table = app.screen
                chips = table._head.strip.row.controls
                assert [c.identifier for c in chips] == ["score-0", "score-1"] and chips[0].selected
                assert chips[0].content.height >= 48
                table.show_player(1)
                assert table._players.cards[1].control.key.value == "player-1"

        asyncio.run(run())


class TestActionList:
    def test_legal_first_the_rest_folded_and_end_turn_leads_when_done(self) -> None:
        s = new_game({"players": [{"name": "Carmen", "beatings": 1}, {"name": "Nicholas"}], "seed": 3})
        menu = menu_view(action_menu(s, 0, TR), end_turn_vm(s, 0, TR))
        assert menu.legal and all(a.enabled for a in menu.legal) and not menu.end_first
        assert "craft" in [a.type for a in menu.refused] and all(a.reasons for a in menu.refused)
        s.actions_left = 0
        menu = menu_view(action_menu(s, 0, TR), end_turn_vm(s, 0, TR))
        assert menu.end_first and not [a for a in menu.legal if a.group != "free"]

    def test_an_offence_is_flagged_in_the_menu_and_asked_before_recording(self) -> None:
        s = new_game(
            {"players": [{"name": "Carmen", "hand": ["spoon"]}, {"name": "Nicholas"}], "modules": {"warden": True}}
        )
        assert s.warden == s.players[0].place
        warned = {a.type: a.warning for a in action_menu(s, 0, TR) if a.enabled}
        assert warned["dig"] == "WARD-2" and warned["search"] == ""
        ask = confirm_view(s, {"type": "dig", "player": 0, "tool": "spoon"}, TR)
        assert ask.title == "Warden here: WARD-2" and "Warden offence (WARD-2)" in ask.text
        assert confirm_view(s, {"type": "search", "player": 0}, TR) is None
        assert s.players[0].tunnel == 0 and s.step == 0  # the dry run left the game alone

    def test_a_winning_action_is_asked_first(self) -> None:
        s = new_game({"players": [{"name": "Carmen", "tunnel": 11, "hand": ["spoon"]}, {"name": "Nicholas"}]})
        ask = confirm_view(s, {"type": "dig", "player": 0, "tool": "spoon"}, TR)
        assert ask.title == "This Dig wins the game for Carmen" and s.winner is None


class TestWinning:
    def test_the_win_screen_undoes_the_last_action_and_home_lists_finished_games(self, tmp_path: Path) -> None:
        store = make_store(tmp_path)
        won = store.create_game(
            {"players": [{"name": "Carmen", "tunnel": 11, "hand": ["spoon"]}, {"name": "Nicholas"}]}
        )

        async def run() -> None:
            app = await host_app(store, tmp_path)
            asked = []
            app.confirm = lambda title, text, yes, on_yes, **kw: asked.append((title, yes, on_yes))
            await show(app, f"/game/{won}")
            app.screen.control.submit_checked({"type": "dig", "player": 0, "tool": "spoon"})
            assert store.load(won).game.state.winner is None  # asked first
            ((title, yes, record),) = asked
            assert (title, yes) == ("This Dig wins the game for Carmen", "Record it")
            record()
            await settled(app.screen)
            assert store.load(won).game.state.winner == 0
            await show(app, "/")
            assert f"finished-{won}" in _identifiers(app.page)
            await show(app, f"/game/{won}/win")
            await settled(app.screen)  # the log, read off the loop, says what an undo takes back
            assert "win-undo" in _identifiers(app.page)
            win = app.screen
            win._undo()
            await settled(win)
            await app.shown()  # the table it goes back to
            assert store.load(won).game.state.winner is None and type(app.screen).__name__ == "TableScreen"

        asyncio.run(run())


def _identifiers(page: ft.Page) -> set[str]:
    """Every semantics identifier on the page (the tests' handles)."""
    return {c.identifier for c in drawn(page) if isinstance(c, ft.Semantics) and c.identifier}


class TestStartingHands:
    def test_hands_are_part_of_every_setup_with_a_running_total(self) -> None:
        form = SetupForm.default(2)
        assert not form.in_progress
        assert "knife" not in hand_cards(False) and "blade" in hand_cards(False) and "knife" in hand_cards(True)
        assert hand_total(form, 0, TR).line == "3 of 3 cards: 0 named, 3 unentered"
        form.players[0].start.set_card("blade", 1, 3)
        form.players[0].start.place = "showers"  # only a game in progress says where a player stands
        config = form.config(TR)
        assert config["players"][0]["hand"] == ["blade", "unknown", "unknown"]
        assert "place" not in config["players"][0] and "hand" not in config["players"][1]
        assert hand_total(form, 0, TR).line == "3 of 3 cards: 1 named, 2 unentered"
        game = new_game(config)
        assert game.players[0].hand.known == {"blade": 1} and game.players[0].hand.unknown == 2
        form.house["starting_hand"] = 4  # a preset's (or the table's) own number is the total's
        assert hand_total(form, 0, TR).starting == 4


class TestRealDie:
    def test_the_move_pad_records_a_whole_move_in_one_tap(self) -> None:
        s = new_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "seed": 3})
        move = next(a for a in action_menu(s, 0, TR, physical_dice=True) if a.type == "move")
        faces = {f.face: [t.ident for t in f.targets] for f in move.pad.faces}
        assert faces[1] == ["pad-move-1-cafeteria"]  # Cell Block or Cafeteria, from the Cell Block: forced
        assert faces[4] == ["pad-move-4-cafeteria", "pad-move-4-recreational_area"]
        one = move.pad.faces[0].targets[0].action
        assert one == {"type": "move", "player": 0, "die": [1], "to": "cafeteria"}
        answer = step(s, parse_action(one))
        assert answer.accepted and s.players[0].place == "cafeteria" and s.pending is None
        assert all(a.pad is None for a in action_menu(s, 0, TR))  # the app's own die: no pad

    def test_a_neutral_moves_in_one_step_after_a_turn(self) -> None:
        ask = new_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "seed": 3, "modules": {"neutrals": 2}})
        step(ask, parse_action({"type": "end_turn", "player": 0}))
        assert ask.pending.kind == "neutral_move"
        vm = pending_view(ask, TR, physical_dice=True)
        assert [p.who for p in vm.pads] == list(ask.neutral_names)
        assert [a.action["type"] for a in vm.answers] == ["skip_neutral"]
        target = vm.pads[0].faces[3].targets[-1]
        assert target.action["to"] and step(ask, parse_action(target.action)).accepted
        assert ask.neutrals[vm.pads[0].who] == target.action["to"]
        chance = new_game(
            {
                "players": [{"name": "Carmen"}, {"name": "Nicholas"}],
                "seed": 3,
                "modules": {"neutrals": 1},
                "house_rules": {"neutral_destination": "random"},
            }
        )
        step(chance, parse_action({"type": "end_turn", "player": 0}))
        pad = pending_view(chance, TR, physical_dice=True).pads[0]
        two = next(f for f in pad.faces if f.targets[0].ident.endswith("-any"))
        assert "to" not in two.targets[0].action and "by chance" in two.targets[0].label

    def test_settings_open_from_the_table(self, tmp_path: Path) -> None:
        store = make_store(tmp_path)
        game = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})

        async def run() -> None:
            app = await host_app(store, tmp_path)
            await show(app, f"/game/{game}")
            assert "nav-settings" in [c.identifier for c in app.screen.actions()]

        asyncio.run(run())


class TestRealMichelCards:
    CONFIG = {
        "players": [{"name": "Carmen", "place": "cafeteria", "hand": ["spoon"]}, {"name": "Nicholas"}],
        "modules": {"neutrals": 1},
        "seed": 3,
    }

    def test_the_table_says_which_card_came_up(self, tmp_path: Path) -> None:
        store = make_store(tmp_path)
        write_settings(tmp_path / "settings.json", michel_mode="physical")
        game = store.create_game(self.CONFIG)
        store.submit(game, {"type": "end_turn", "player": 0}, base_version=store.load(game).version)
        move = {"type": "move_neutral", "player": 0, "neutral": "michel", "die": [1], "to": "cafeteria"}
        state = store.load(game).game.state
        assert michel_draws(state, move) == 1 and michel_draws(state, dict(move, michel_cards=["no_knife"])) == 0
        ask = michel_ask(state, move, [], TR)
        assert [c for c, _ in ask.cards] == list(state.catalog.michel_cards) and ask.prompt == ""

        async def run() -> None:
            app = await host_app(store, tmp_path)
            assert app.settings.physical_michel
            await show(app, f"/game/{game}")
            table = app.screen
            table.control.submit_checked(move)
            assert table.control.michel_for == move and store.load(game).version == 1  # nothing recorded yet
            table.control.pick_michel("knife_spoon")
            await settled(table)
            entry = store.events(game)[-1]
            assert entry.action["michel_cards"] == ["knife_spoon"]
            drawn = [ev for ev in entry.answer["events"] if ev["type"] == "michel_card"]
            assert [(ev["card"], ev["source"]) for ev in drawn] == [("knife_spoon", "table")]

        asyncio.run(run())


class TestMichelCardsOneAtATime:
    """With both neutrals in the Place entered, a card without a Knife calls for a second card:
    how many real cards to enter is known only card by card, on the laptop and on a phone."""

    CONFIG = {
        "players": [{"name": "Carmen", "place": "cell_block", "hand": ["spoon"]}, {"name": "Nicholas"}],
        "modules": {"neutrals": 2},
        "start": {"neutrals": {"michel": "cafeteria", "michelle": "cafeteria"}},
        "seed": 3,
    }
    MOVE = {"type": "cautious_move", "player": 0, "to": "cafeteria"}

    def test_a_card_without_a_knife_calls_for_the_next(self) -> None:
        state = new_game(self.CONFIG)
        for seen in (state, view(state, 0)):  # the laptop's state, and a phone's view of it
            assert michel_draws(seen, self.MOVE) >= 1
            assert michel_draws(seen, dict(self.MOVE, michel_cards=["no_knife"])) == 1
            assert michel_draws(seen, dict(self.MOVE, michel_cards=["knife_spoon"])) == 0
            assert michel_draws(seen, dict(self.MOVE, michel_cards=["no_knife", "knife_shovel"])) == 0

    def test_the_table_enters_only_the_cards_drawn(self, tmp_path: Path) -> None:
        store = make_store(tmp_path)
        write_settings(tmp_path / "settings.json", michel_mode="physical")
        games = {first: store.create_game(self.CONFIG) for first in ("no_knife", "knife_spoon")}

        async def run() -> None:
            app = await host_app(store, tmp_path)
            for first, game in games.items():
                await show(app, f"/game/{game}")
                table = app.screen
                table.control.submit_checked(self.MOVE)
                assert table.control.michel_for == self.MOVE and table.control.michel_drawn == []
                table.control.pick_michel(first)
                if first == "no_knife":
                    assert table.control.michel_drawn == ["no_knife"] and store.load(game).version == 0
                    ask = michel_ask(table.control.state, self.MOVE, ["no_knife"], TR)
                    assert ask.prompt == "Card 2 of this move (drawn so far: no Knife)"
                    table.control.pick_michel("knife_shovel")
                await settled(table)
                entry = store.events(game)[-1]
                cards = ["no_knife", "knife_shovel"] if first == "no_knife" else ["knife_spoon"]
                assert entry.action["michel_cards"] == cards
                shown = [(e["card"], e["source"]) for e in entry.answer["events"] if e["type"] == "michel_card"]
                assert shown == [(card, "table") for card in cards]

        asyncio.run(run())


class TestCardsDrawnInOneStep:
    def test_a_new_background_is_named_or_left_unentered(self) -> None:
        config = {
            "players": [{"name": "Carmen", "place": "library"}, {"name": "Nicholas"}],
            "modules": {"places": ["library"]},
        }
        s = new_game(config)
        composer = Composer(s, 0, "rehabilitate", TR)
        ask = composer.step()
        assert (ask.field, ask.kind, ask.optional) == ("card", "one", True)
        assert all(c.enabled for c in ask.choices) and len(ask.choices) == len(s.catalog.backgrounds)
        named = ask.choices[0].value
        composer.answer("card", named)
        assert step(s, parse_action(composer.action())).accepted and s.players[0].background == named
        s = new_game(config)
        composer = Composer(s, 0, "rehabilitate", TR)
        composer.answer("card", None)  # "Leave it unentered"
        assert composer.done and step(s, parse_action(composer.action())).accepted
        assert s.players[0].has_background and s.players[0].background is None

    def test_the_gang_card_taken_may_stay_unentered(self) -> None:
        s = new_game(
            {
                "players": [
                    {
                        "name": "Carmen",
                        "place": "recreational_area",
                        "hand": ["boots", "ring", "bandana", "cap", "golden_chain", "silver_watch"],
                    },
                    {"name": "Nicholas"},
                ]
            }
        )
        composer = Composer(s, 0, "join_gang", TR)
        while (ask := composer.step()) is not None and ask.field != "card":
            composer.answer(ask.field, ask.default if ask.default is not None else ask.choices[0].value)
        assert ask is not None and ask.optional
