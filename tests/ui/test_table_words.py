"""What the table reads, checked on real engine states without a browser: rounds rather than player
turns, and the small slips a table met (issue 37's list), each fixed where its words are made."""

from __future__ import annotations

from companion.app.vm.events import Names, describe_event
from companion.app.vm.table import build_table
from companion.app.vm.text import Tr
from companion.rules import Game, events

EN = Tr("en")


def three_players(**extra) -> Game:
    return Game({"players": [{"name": "Anna"}, {"name": "Bea"}, {"name": "Carla"}], "seed": 5, **extra})


def end_turns(game: Game, count: int) -> None:
    for _ in range(count):
        assert game.submit({"type": "end_turn", "player": game.state.active}).accepted


class TestRounds:
    def test_the_banner_counts_rounds_and_the_log_keeps_both(self) -> None:
        game = three_players()
        end_turns(game, 4)  # Bea's turn of the second round: the game's fifth turn
        table = build_table(game.state, EN)
        assert (table.turn, table.round, table.active_name) == (5, 2, "Bea")
        assert EN("ui.round_number", round=table.round) == "Round 2"
        turn = events.Turn(player=1, turn=5, actions=2)
        line = describe_event(turn, Names(["Anna", "Bea", "Carla"], EN), EN)
        assert line == "Round 2, turn 5: Bea plays (2 actions)."


def warden_extortion() -> Game:
    """Anna extorts Bea under the Warden's eyes in the Cafeteria: an offence, then a combat."""
    game = Game(
        {
            "players": [
                {"name": "Anna", "place": "cafeteria", "hand": ["knife"]},
                {"name": "Bea", "place": "cafeteria", "hand": ["rare", "spoon"]},
                {"name": "Carla"},
            ],
            "modules": {"warden": True},
            "start": {"warden": "cafeteria"},
            "seed": 5,
        }
    )
    action = {"type": "extort", "player": 0, "target": 1, "tool": "spoon", "weapons": ["knife"]}
    assert game.submit(action).accepted
    return game


class TestSlips:
    def test_with_michel_alone_nobody_is_asked_about_michelle(self) -> None:
        from companion.app.vm.pending import pending_view

        game = three_players(modules={"neutrals": 1})
        assert game.submit({"type": "end_turn", "player": 0}).accepted
        pend = pending_view(game.state, EN)
        assert pend is not None and pend.title == "Anna's turn is over: move Michel?"
        assert [a.label for a in pend.answers][-1] == "Leave Michel where it is"
        beating = events.Beating(player=2, count=1, total=1, why="michel")
        line = describe_event(beating, Names(["Anna", "Bea", "Carla"], EN), EN)
        assert "Michelle" not in line and "a neutral's extortion" in line

    def test_a_brawl_against_one_player_asks_them_alone(self) -> None:
        names = Names(["Anna", "Bea", "Carla"], EN)
        one = describe_event(events.Brawl(player=0, place="gymnasium", players=(2,)), names, EN)
        two = describe_event(events.Brawl(player=0, place="gymnasium", players=(1, 2)), names, EN)
        assert "Carla must discard a Weapon" in one
        assert "Bea, Carla must each discard a Weapon" in two

    def test_no_article_before_a_card_that_may_start_with_a_vowel(self) -> None:
        """ "a {card}" only where the card is a Tool or a Weapon (none starts with a vowel): any
        Search card may be "Action card" or "Extra Search"."""
        import re

        from companion.i18n import catalog

        weapons_or_tools = {
            "event.cooperate.neutral",
            "event.dig",
            "event.weapon",
            "ui.answer.cooperate_neutral",
            "ui.answer.discard_weapon",
            "ui.answer.give_weapon",
            "ui.answer.help_weapon",
            "ui.answer.weapon",
        }
        english = catalog("en")
        loose = [k for k, t in english.items() if re.search(r"\ba \{(card|tool|weapon)\}", t)]
        assert sorted(set(loose) - weapons_or_tools) == []
        assert EN("ui.start_add_card", player="Anna", card="action") == "Add Action card to Anna's hand"
        assert EN("ui.add_card", card="Extra Search") == "Drawn: Extra Search"

    def test_the_undo_prompt_reads_as_sentences(self) -> None:
        from companion.app.vm.undo import undo_view

        game = three_players()
        answer = game.submit({"type": "move", "player": 0})  # the app rolls: chance everyone saw
        assert answer.accepted
        while game.state.pending is not None:
            game.submit({"type": "choose", "player": 0, "option": game.state.pending.options[0]})
        end_turns(game, 1)
        entries = [{"seq": n, "kind": "action", "action": a.to_json(), "answer": None} for n, a in enumerate(game.log)]
        entries[0]["answer"] = answer.to_json()
        vm = undo_view(entries[:1], game.state, EN, False)
        assert vm.confirm == "It rolled dice or drew a Michel card that everyone has seen. It was Anna's action."

    def test_the_background_button_is_whole(self) -> None:
        for lang in ("en", "it", "fa"):
            label = Tr(lang)("ui.react.background_open", player="Anna")
            assert not label.endswith("…") and not label.endswith("..."), lang

    def test_the_italian_replay_speaks_of_the_game_in_one_gender(self) -> None:
        it = Tr("it")
        assert "vista" in it("ui.replay_view_hint") and "vista" in it("ui.replay_view_public")

    def test_a_correction_is_the_referees(self) -> None:
        from companion.app.vm.events import describe_action

        names = Names(["Anna", "Bea", "Carla"], EN)
        action = {"type": "adjust", "player": 0, "changes": [{"path": "players.0.tunnel", "set": 9}]}
        assert describe_action(action, names, EN) == "Referee: Correct the table"
        line = describe_event(events.Adjusted(player=0, reason=""), names, EN)
        assert line == "The referee corrects the table."

    def test_during_the_combat_the_alert_says_when_a_report_may_come(self) -> None:
        from companion.app.vm.reactions import reactions_view

        game = warden_extortion()
        during = reactions_view(game.state, EN).offence
        assert during is not None and during.reports == []
        assert "now" not in during.help and "as soon as Bea has decided" in during.help
        assert game.submit({"type": "cooperate", "player": 1}).accepted
        after = reactions_view(game.state, EN).offence
        assert after is not None and after.reports and after.help.startswith("Anyone else may report it now")

    def test_a_fight_in_the_log_tells_the_combat_it_starts(self) -> None:
        from companion.app.vm.log import log_view

        game = warden_extortion()
        answer = game.submit({"type": "fight", "player": 1})  # Bea keeps her Spoon: a combat
        assert answer.accepted
        entry = {"seq": 2, "kind": "action", "action": {"type": "fight", "player": 1}, "answer": answer.to_json()}
        line = log_view([entry], ["Anna", "Bea", "Carla"], EN)[0]
        assert line.lines == ["Combat: Bea defends against Anna; Bea plays first."]

    def test_back_from_a_correction_the_table_tells_it(self, tmp_path) -> None:
        """The referee records a correction: the table it goes back to says what it did."""
        import asyncio

        from .conftest import make_store, settled, show
        from .test_app_offline import new_app

        store = make_store(tmp_path)
        game = store.create_game({"players": [{"name": "Anna"}, {"name": "Bea"}]})

        async def run() -> None:
            app = await new_app(store, tmp_path, 1280)
            await show(app, f"/game/{game}/correct")
            correct = app.screen
            correct.draft.values["players.0.tunnel"] = 9
            correct._record()
            await settled(correct)
            await app.shown()
            table = app.screen
            assert type(table).__name__ == "TableScreen" and table.control.result == [
                "The referee corrects the table.",
                "Correction: Anna · Tunnel points set to 9.",
            ]

        asyncio.run(run())

    def test_the_not_allowed_dialog_is_as_tall_as_what_it_says(self, tmp_path) -> None:
        """The flag scrolls as a whole dialog: no scrolling column inside it, which Flutter
        stretched to the window's height (a short flag, 750 px tall with a blank middle)."""
        import asyncio

        import flet as ft

        from companion.app.vm.reasons import ReasonVM

        from .conftest import make_store
        from .test_app_offline import new_app

        async def run() -> None:
            app = await new_app(make_store(tmp_path), tmp_path, 1280)
            app.flag("Not allowed: Dig", [ReasonVM("HAND-1", "Anna has no Spoon in hand.", False)])
            dialog = app.page._dialogs.controls[-1]
            column = dialog.content.content
            assert dialog.scrollable and isinstance(column, ft.Column) and column.scroll is None

        asyncio.run(run())


class TestMichelCards:
    """The table draws the real Michel cards: the question names whom the neutral extorts, the
    map already shows the neutral where it went, and the second card names the next player."""

    def test_each_card_asked_names_its_player_and_the_map_moved_the_neutral(self, store) -> None:
        from companion.app.vm.dice import TableChance, michel_ask
        from companion.rules import neutral_destinations, new_game

        from .test_interaction import control

        config = {
            "players": [
                {"name": "Anna"},
                {"name": "Bea", "place": "infirmary"},
                {"name": "Carla", "place": "infirmary"},
            ],
            "modules": {"neutrals": 1},
            "seed": 5,
        }
        faces = neutral_destinations(new_game(config), "michel")
        face = next(f for f, places in faces.items() if "infirmary" in places)
        game_id = store.create_game(config)
        assert store.submit(game_id, {"type": "end_turn", "player": 0}, base_version=0).answer.accepted
        ctl, _ = control(store, game_id, physical=TableChance(dice=True, michel=True))
        ctl.submit_checked({"type": "move_neutral", "player": 0, "neutral": "michel", "die": [face], "to": "infirmary"})
        assert ctl.michel_for is not None and store.load(game_id).version == 1  # asked, nothing recorded
        first = michel_ask(ctl.state, ctl.michel_for, ctl.michel_drawn, EN, ctl.michel_next)
        assert first.title == "Michel extorts Bea: which Michel card came up?" and first.prompt == ""
        assert ctl.state.neutrals["michel"] == "showers" and ctl.board.neutrals["michel"] == "infirmary"
        calm = next(c for c in ctl.state.catalog.michel_cards if not ctl.state.catalog.michel_cards[c].knife)
        ctl.pick_michel(calm)  # no Knife: Michel goes on to Carla, whose card the table draws next
        second = michel_ask(ctl.state, ctl.michel_for, ctl.michel_drawn, EN, ctl.michel_next)
        assert second.title == "Michel extorts Carla: which Michel card came up?"
        assert second.prompt.startswith("Card 2 of this move")

    def test_the_map_shows_the_neutral_where_it_went_while_its_card_is_drawn(self, tmp_path) -> None:
        import asyncio

        from companion.rules import neutral_destinations, new_game

        from .conftest import make_store, show, write_settings
        from .test_app_offline import new_app

        config = {"players": [{"name": "Anna"}, {"name": "Bea", "place": "infirmary"}], "modules": {"neutrals": 1}}
        face = next(f for f, to in neutral_destinations(new_game(config), "michel").items() if "infirmary" in to)
        store = make_store(tmp_path)
        game = store.create_game(config)
        store.submit(game, {"type": "end_turn", "player": 0}, base_version=0)
        write_settings(tmp_path / "settings.json", michel_mode="physical", screen="private")

        def michel_at(table) -> str:
            vm, _ = table._table()
            return next(p.ident for p in vm.places if any(s.ident == "michel" for s in p.standees))

        async def run() -> None:
            app = await new_app(store, tmp_path, 1280)
            await show(app, f"/game/{game}")
            table = app.screen
            assert michel_at(table) == "showers"
            move = {"type": "move_neutral", "player": 0, "neutral": "michel", "die": [face], "to": "infirmary"}
            table.control.submit_checked(move)
            assert table.control.michel_for is not None and michel_at(table) == "infirmary"
            table.control.cancel_action()
            assert michel_at(table) == "showers"

        asyncio.run(run())
