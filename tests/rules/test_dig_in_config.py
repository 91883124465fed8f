"""Dig In set-up and inheritance (DI-1..3): which Places a game has, what names a replaced Place
resolves to, and what a replacement keeps of the Place it covers."""

import pytest

from companion.rules import ConfigError

from support import breaks, follows, known, rule_test, said, start

ALL_PLACES = ["gambling_cells", "workshop", "gymnasium", "laundry", "library", "psychiatric_ward"]


@rule_test("DI-1")
class TestDi1:
    def test_breaks(self):
        """An unknown Place is an impossible configuration."""
        with pytest.raises(ConfigError) as error:
            start(3, modules={"places": ["swimming_pool"]})
        assert error.value.rule == "DI-1"
        assert error.value.message.startswith("DI-1: swimming_pool is not a Dig In Place")

    def test_breaks_place_listed_twice(self):
        with pytest.raises(ConfigError) as error:
            start(3, modules={"places": ["library", "library"]})
        assert error.value.rule == "DI-1"

    def test_breaks_token_of_an_unplayed_place(self):
        """A Spy token needs the Library in the game."""
        with pytest.raises(ConfigError) as error:
            start(3, player_fields={0: {"tokens": {"spy": 1}}})
        assert error.value.rule == "DI-1"

    def test_breaks_moving_to_a_place_not_in_the_game(self):
        """Without the Warden there is no Office to go to."""
        state = start(3)
        answer = breaks(state, "DI-1", type="cautious_move", player=0, to="wardens_office")
        assert answer.violations[0].message == "There is no Warden's Office in this game."

    def test_follows(self):
        """Chosen Places cover the Places they replace and bring their token supplies; the others stay."""
        state = start(3, modules={"places": ["gymnasium", "library"]})
        assert list(state.board.places) == ["cell_block", "cafeteria", "gymnasium", "infirmary", "library", "solitary"]
        assert state.supplies == {"bodybuilding": 10, "spy": 10}
        assert state.warden is None and state.board.office is None

    def test_follows_everything(self):
        state = start(3, modules={"warden": True, "places": ALL_PLACES})
        assert list(state.board.places) == [
            "gambling_cells",
            "workshop",
            "gymnasium",
            "laundry",
            "library",
            "psychiatric_ward",
            "wardens_office",
        ]
        assert state.supplies == {
            "corruption": 10,
            "spy": 10,
            "bodybuilding": 10,
            "skill": 10,
            "bandage": 10,
            "planning": 10,
            "trauma": 6,
        }
        assert state.warden == "gambling_cells"
        assert [p.place for p in state.players] == ["gambling_cells"] * 3


@rule_test("DI-2")
class TestDi2:
    def test_breaks(self):
        """A move naming the covered Recreational Area is refused: the Gymnasium is there now."""
        state = start(3, modules={"places": ["gymnasium"]})
        answer = breaks(state, "DI-2", type="move", player=0, die=[2], to="recreational_area")
        assert answer.violations[0].message == "The Gymnasium replaces the Recreational Area in this game."

    def test_breaks_cautious_move_to_solitary(self):
        state = start(3, modules={"places": ["psychiatric_ward"]})
        breaks(state, "DI-2", type="cautious_move", player=0, to="solitary")

    def test_follows(self):
        """The Solitary Confinement card sends to the Psychiatric Ward, which draws a Trauma (PSY-2)."""
        state = start(3, modules={"places": ["psychiatric_ward"]}, hands={0: ["solitary_confinement"]})
        top = state.trauma_stack[0]
        answer = follows(state, type="play_action", player=0, card="solitary_confinement", target=1)
        assert state.players[1].place == "psychiatric_ward"
        assert state.players[1].trauma == top
        assert {
            "type": "move",
            "player": 1,
            "to": "psychiatric_ward",
            "why": "action_card",
            "from": "cell_block",
        } in said(answer)

    def test_follows_die_faces_name_the_replacements(self):
        """A 2 from the Gambling Cells leads to the Gymnasium (it names Cell Block and Recreational Area)."""
        state = start(3, modules={"places": ["gambling_cells", "gymnasium"]})
        follows(state, type="move", player=0, die=[2])
        assert state.players[0].place == "gymnasium"

    def test_follows_cafeteria_key_in_the_workshop(self):
        """The Cafeteria Key still gives a Spoon when the Workshop covers the Cafeteria."""
        state = start(3, modules={"places": ["workshop"]}, hands={0: ["cafeteria_key"]})
        follows(state, type="play_action", player=0, card="cafeteria_key")
        assert known(state, 0) == {"spoon": 1} and state.piles["spoon"] == 10

    def test_follows_this_is_my_turf(self):
        """A Background naming the Cell Block and Solitary means the Gambling Cells and the Ward."""
        state = start(
            3,
            modules={"places": ["gambling_cells", "psychiatric_ward"]},
            seed=7,
            player_fields={0: {"place": "cafeteria", "gang": "bikers", "background": "this_is_my_turf"}},
        )
        first, second = state.trauma_stack[:2]
        follows(state, type="reveal_background", player=0, card="this_is_my_turf")
        assert [p.place for p in state.players] == ["gambling_cells", "psychiatric_ward", "psychiatric_ward"]
        assert [p.trauma for p in state.players] == [None, first, second]


@rule_test("DI-3")
class TestDi3:
    def test_breaks(self):
        """The Gambling Cells keep the Cell Block's "no Craft"."""
        state = start(3, modules={"places": ["gambling_cells"]}, hands={0: ["links", "pike"]})
        answer = breaks(state, "DI-3", type="craft", player=0, recipe="pickaxe")
        assert answer.violations[0].message == "No crafting in the Gambling Cells."

    def test_follows(self):
        """The Library allows Craft (unlike the Showers) and keeps the Showers' Search of 3."""
        state = start(
            3, modules={"places": ["library"]}, hands={0: ["links", "pike"]}, player_fields={0: {"place": "library"}}
        )
        follows(state, type="craft", player=0, recipe="pickaxe")
        assert known(state, 0) == {"pickaxe": 1}
        answer = follows(state, type="search", player=0)
        assert {"type": "draw", "player": 0, "cards": ["unknown"] * 3, "why": "search"} in said(answer)

    def test_follows_search_values_and_faces(self):
        """Each replacement keeps the covered Place's Search value and die faces (assumption: data)."""
        state = start(3, modules={"warden": True, "places": ALL_PLACES})
        assert state.board.search == {
            "gambling_cells": 1,
            "workshop": 2,
            "gymnasium": 2,
            "laundry": 1,
            "library": 3,
            "psychiatric_ward": 0,
            "wardens_office": 0,
        }
        assert state.board.faces == {
            1: ("gambling_cells", "workshop"),
            2: ("gambling_cells", "gymnasium"),
            3: ("gambling_cells", "laundry"),
            4: ("workshop", "gymnasium"),
            5: ("library", "laundry"),
            6: ("library", "gymnasium"),
        }

    def test_follows_psychiatric_ward_keeps_two_actions(self):
        state = start(3, modules={"places": ["psychiatric_ward"]}, player_fields={0: {"place": "psychiatric_ward"}})
        assert state.actions_left == 2
        follows(state, type="cautious_move", player=0, to="cell_block")
        assert state.actions_left == 0
