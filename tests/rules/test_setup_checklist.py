"""The setup checklist (`setup_checklist`) against the rulebooks' setup sections.

The expected Places, counts and sides are written here from the sources (RULES.md and the seeds:
the Italian guide, the Dig In rulebook, the online game help), not read from the catalog, so a
wrong number in the catalog fails here.
"""

from __future__ import annotations

import pytest

from companion.i18n import render
from companion.rules import ConfigError, new_game, setup_checklist

NAMES = ["Carmen", "Nicholas", "Yellow", "Dana", "Eli", "Farah"]

# Dig In rulebook: each modular Place replaces one base Place and brings its own token pile
# (10 of each, 6 Trauma tokens shuffled face down).
DIG_IN = {
    "gambling_cells": ("cell_block", "planning", 10),
    "workshop": ("cafeteria", "skill", 10),
    "gymnasium": ("recreational_area", "bodybuilding", 10),
    "laundry": ("infirmary", "bandage", 10),
    "library": ("showers", "spy", 10),
    "psychiatric_ward": ("solitary", "trauma", 6),
}


def config(players: int = 3, **extra):
    return {"players": [{"name": n} for n in NAMES[:players]], **extra}


def lines_of(cfg):
    return {line.key: line for line in setup_checklist(cfg)}


class TestBaseGame:
    def test_a_base_game_lays_out_the_box_as_the_rules_say(self):
        lines = lines_of(config(3))
        assert lines["board.front"].rule == "SET-1"
        # SUP-2: Spoon 11, Pickaxe 11, Shovel 11, Knife 20 on the board.
        for card, count in (("spoon", 11), ("pickaxe", 11), ("shovel", 11), ("knife", 20)):
            assert lines[f"pile.{card}"].text == "checklist.pile"
            assert lines[f"pile.{card}"].params == {"count": count, "card": card}
        assert lines["deck.search"].params == {"count": 77}  # SUP-1
        gangs = lines["deck.gangs"].params  # SUP-3: six Gangs, 4 cards each, face up
        assert (gangs["count"], gangs["cards"]) == (6, 4)
        assert sorted(gangs["gangs"]) == ["bikers", "bratva", "cartel", "crew", "queers", "triad"]
        assert lines["deck.backgrounds"].params == {"count": 18}  # SUP-4
        assert lines["standees.cell_block"].params == {"players": NAMES[:3], "place": "cell_block"}  # SET-1
        assert lines["players.hands"].params == {"count": 3}  # SET-2: 3 Search cards
        assert lines["players.backgrounds"].rule == "SET-2"
        assert lines["players.cigarettes"].text == "checklist.cigarettes_none"  # nothing else to start with
        assert lines["players.first"].params == {"player": "Carmen"}
        assert lines["goal.target"].params == {"target": 12, "count": 3}  # WIN-1
        assert not [k for k in lines if k.startswith(("place.", "warden.", "tokens.", "neutral.", "michel.", "team."))]

    @pytest.mark.parametrize(("players", "target"), [(2, 12), (3, 12), (4, 10), (5, 8), (6, 8)])
    def test_the_tunnel_target_follows_the_player_count(self, players, target):
        line = lines_of(config(players))["goal.target"]
        assert (line.params["target"], line.rule) == (target, "WIN-1")

    def test_the_first_player_is_the_one_chosen(self):
        assert lines_of(config(4, first_player=2))["players.first"].params == {"player": "Yellow"}

    def test_the_same_configuration_gives_the_same_keys_in_the_same_order(self):
        cfg = config(4, modules={"neutrals": 2, "warden": True, "places": list(DIG_IN)})
        first = [line.to_json() for line in setup_checklist(cfg)]
        assert first == [line.to_json() for line in setup_checklist(cfg)]
        keys = [line["key"] for line in first]
        assert len(keys) == len(set(keys))

    def test_an_impossible_configuration_is_refused_with_its_rule(self):
        with pytest.raises(ConfigError) as error:
            setup_checklist(config(3, modules={"team": True}))
        assert error.value.rule == "TEAM-1"


class TestPresets:
    def test_official(self):
        lines = lines_of(config(5, ruleset="official"))
        assert lines["players.hands"].params["count"] == 3
        assert lines["goal.target"].params["target"] == 8

    @pytest.mark.parametrize(("players", "target"), [(2, 12), (3, 12), (4, 10), (5, 9), (6, 8)])
    def test_online_simplified(self, players, target):
        """VAR-2: a starting hand of 5 Search cards; targets 12/12/10/9/8."""
        lines = lines_of(config(players, ruleset="online-simplified"))
        assert lines["players.hands"].params["count"] == 5
        assert lines["goal.target"].params["target"] == target

    def test_house_rules_change_the_numbers(self):
        house = {"starting_hand": 4, "starting_cigarettes": 2, "targets": {str(n): 7 for n in range(2, 7)}}
        lines = lines_of(config(3, house_rules=house))
        assert lines["players.hands"].params == {"count": 4}
        assert lines["players.cigarettes"].text == "checklist.cigarettes"
        assert lines["players.cigarettes"].params == {"count": 2}
        assert lines["goal.target"].params["target"] == 7
        assert [p.cigarettes for p in new_game(config(3, house_rules=house)).players] == [2, 2, 2]


class TestDigIn:
    @pytest.mark.parametrize("place", list(DIG_IN))
    def test_each_place_covers_its_base_place_and_brings_its_tokens(self, place):
        covered, token, count = DIG_IN[place]
        lines = lines_of(config(3, modules={"places": [place]}))
        tile = lines[f"place.{place}"]
        assert (tile.text, tile.rule) == ("checklist.place_tile", "DI-1")
        assert tile.params == {"place": place, "covered": covered}
        pile = lines[f"tokens.{token}"]
        assert pile.params == {"count": count, "token": token, "place": place}
        if token == "trauma":  # shuffled and face down
            assert (pile.text, pile.rule) == ("checklist.tokens_face_down", "PSY-2")
        else:
            assert pile.text == "checklist.tokens"
        assert not [k for k in lines if k.startswith("tokens.") and k != f"tokens.{token}"]

    def test_the_workshop_keeps_the_spoons_off_the_board(self):
        """The Spoon cards are not placed on the board when the Workshop replaces the Cafeteria."""
        spoon = lines_of(config(3, modules={"places": ["workshop"]}))["pile.spoon"]
        assert spoon.text == "checklist.pile_off_board"
        assert spoon.params == {"count": 11, "card": "spoon", "place": "workshop"}

    def test_players_start_in_the_gambling_cells_when_they_cover_the_cell_block(self):
        lines = lines_of(config(3, modules={"places": ["gambling_cells"]}))
        assert lines["standees.gambling_cells"].params == {"players": NAMES[:3], "place": "gambling_cells"}
        assert "standees.cell_block" not in lines

    def test_the_warden_starts_in_the_cell_block_with_her_office_beside_it(self):
        lines = lines_of(config(3, modules={"warden": True}))
        assert lines["warden.office"].params == {"place": "cell_block"}
        assert lines["warden.standee"].params == {"place": "cell_block"}
        assert lines["warden.standee"].rule == "WARD-1"
        assert lines["tokens.corruption"].params == {"count": 10, "token": "corruption", "place": "wardens_office"}

    def test_every_place_and_the_warden_at_once(self):
        lines = lines_of(config(4, modules={"warden": True, "places": list(DIG_IN)}))
        assert [k for k in lines if k.startswith("place.")] == [f"place.{p}" for p in DIG_IN]
        assert lines["warden.standee"].params == {"place": "gambling_cells"}  # the Cells' replacement (DI-2)
        tokens = {k: line.params["count"] for k, line in lines.items() if k.startswith("tokens.")}
        assert tokens == {f"tokens.{t}": n for _, t, n in DIG_IN.values()} | {"tokens.corruption": 10}


class TestTeamMode:
    def test_team_mode_is_played_on_the_back_with_a_cell_block_per_team(self):
        lines = lines_of(config(4, modules={"team": True}, teams={"a": [0, 1], "b": [2, 3]}))
        assert lines["board.back"].rule == "TEAM-1"
        assert "board.front" not in lines
        assert lines["standees.cell_block_a"].params == {"players": ["Carmen", "Nicholas"], "place": "cell_block_a"}
        assert lines["standees.cell_block_b"].params == {"players": ["Yellow", "Dana"], "place": "cell_block_b"}
        assert lines["team.a"].params == {"players": ["Carmen", "Nicholas"], "place": "cell_block_a"}
        assert lines["team.b"].text == "checklist.team_b"
        target = lines["goal.target"]
        assert (target.text, target.rule, target.params["target"]) == ("checklist.team_target", "TEAM-3", 10)

    def test_six_players_in_teams(self):
        lines = lines_of(config(6, modules={"team": True}))
        assert lines["standees.cell_block_a"].params["players"] == ["Carmen", "Yellow", "Eli"]
        assert lines["goal.target"].params["target"] == 8

    def test_the_warden_starts_in_the_showers_with_her_office_beside_them(self):
        """Team mode: she is placed in the Showers, her Office in contact with the Showers."""
        lines = lines_of(config(4, modules={"team": True, "warden": True}))
        assert lines["warden.standee"].params == {"place": "showers"}
        assert lines["warden.office"].params == {"place": "showers"}
        assert lines["warden.office"].rule == "TEAM-7"

    def test_with_the_library_the_warden_starts_there(self):
        lines = lines_of(config(4, modules={"team": True, "warden": True, "places": ["library"]}))
        assert lines["warden.standee"].params == {"place": "library"}


class TestMichel:
    def test_michel_and_michelle_start_in_the_showers_with_their_deck(self):
        lines = lines_of(config(2, modules={"neutrals": 2}))
        assert lines["neutral.michel"].params == {"neutral": "michel", "place": "showers"}
        assert lines["neutral.michelle"].params == {"neutral": "michelle", "place": "showers"}
        assert lines["michel.deck"].params == {"count": 12}  # MICH-7 (assumption: 12 cards)
        cards = [k for k in lines if k.startswith("michel.") and k != "michel.deck"]
        counts = {k: lines[k].params["count"] for k in cards}
        assert counts == {
            "michel.no_knife": 4,
            "michel.knife_spoon": 3,
            "michel.knife_spoon_pickaxe": 2,
            "michel.knife_pickaxe_shovel": 2,
            "michel.knife_shovel": 1,
        }

    def test_michel_alone(self):
        lines = lines_of(config(2, modules={"neutrals": 1}))
        assert "neutral.michel" in lines and "neutral.michelle" not in lines


class TestGameInProgress:
    def test_each_player_gets_what_the_configuration_gives_them(self):
        cfg = config(3)
        cfg["players"][1].update({"cigarettes": 4, "beatings": 1, "tunnel": 3, "gang": "crew", "ability": "collect"})
        cfg["players"][2]["hand"] = ["knife", "links"]
        lines = lines_of(cfg)
        assert lines["players.hands.0"].params == {"count": 3, "player": "Carmen"}
        assert lines["players.hands.2"].params == {"count": 2, "player": "Yellow"}
        assert lines["players.cigarettes.1"].params == {"count": 4, "player": "Nicholas"}
        assert "players.cigarettes.0" not in lines
        assert lines["players.beatings.1"].params == {"count": 1, "player": "Nicholas"}
        assert lines["players.tunnel.1"].params == {"count": 3, "player": "Nicholas"}
        assert lines["players.gang.1"].params == {"player": "Nicholas", "ability": "collect", "gang": "crew"}
        assert lines["pile.knife"].params["count"] == 19  # the Knife in a hand is not in the pile


@pytest.mark.parametrize("lang", ["en", "it", "fa"])
def test_every_line_reads_in_every_language(lang):
    """Each line's key has a text in the language, with every parameter filled in."""
    configs = [
        config(4, modules={"neutrals": 2, "warden": True, "places": list(DIG_IN)}),
        config(4, modules={"team": True, "warden": True, "places": ["library", "workshop"]}),
        config(3, house_rules={"starting_hand": 0, "starting_cigarettes": 1}),
    ]
    for cfg in configs:
        for line in setup_checklist(cfg):
            text = render(line.text, line.params, lang)
            assert text != line.text and "{" not in text, (lang, line.key, text)
