"""Team mode (RULES.md section 12, TEAM-1..7): two Cell Blocks, pooled points, Exchange,
teammates in combat, where a team may Dig and Craft, and the Warden beside the Showers."""

import pytest

from companion.rules import ConfigError

from support import breaks, follows, known, rule_test, said, start

TEAM = {"team": True}


@rule_test("TEAM-1")
class TestTeam1:
    def test_breaks(self):
        """Five players cannot split into two equal teams."""
        with pytest.raises(ConfigError) as error:
            start(5, modules=TEAM)
        assert error.value.rule == "TEAM-1"
        assert error.value.message == "TEAM-1: Team mode needs 4 or 6 players, not 5."

    def test_breaks_with_uneven_teams(self):
        with pytest.raises(ConfigError) as error:
            start(4, modules=TEAM, teams={"a": [0, 1, 2], "b": [3]})
        assert error.value.rule == "TEAM-1"

    def test_breaks_with_teams_outside_team_mode(self):
        with pytest.raises(ConfigError) as error:
            start(4, teams={"a": [0, 2], "b": [1, 3]})
        assert error.value.rule == "TEAM-1"

    def test_follows(self):
        """Each player starts in their own team's Cell Block; there is no plain Cell Block."""
        state = start(4, modules=TEAM, teams={"a": [0, 1], "b": [2, 3]})
        assert [p.team for p in state.players] == ["a", "a", "b", "b"]
        assert [p.place for p in state.players] == ["cell_block_a", "cell_block_a", "cell_block_b", "cell_block_b"]
        assert "cell_block" not in state.board.places
        assert state.board.by_role["cell_block"] == ("cell_block_a", "cell_block_b")

    def test_follows_with_six_players_default_teams(self):
        """Without `teams` the seats alternate, so teammates never sit side by side."""
        state = start(6, modules=TEAM)
        assert [p.team for p in state.players] == ["a", "b", "a", "b", "a", "b"]


@rule_test("TEAM-2")
class TestTeam2:
    def test_breaks(self):
        """Naming the plain Cell Block in Team mode is ambiguous: the mover must pick A or B."""
        state = start(4, modules=TEAM, player_fields={0: {"place": "cafeteria"}})
        answer = breaks(state, "TEAM-2", type="move", player=0, die=[1], to="cell_block")
        assert (
            answer.violations[0].message
            == "In Team mode there are two Cell Blocks: choose Cell Block A or Cell Block B."
        )

    def test_breaks_cautious_move(self):
        state = start(4, modules=TEAM, player_fields={0: {"place": "cafeteria"}})
        breaks(state, "TEAM-2", type="cautious_move", player=0, to="cell_block")

    def test_follows(self):
        """A die face naming the Cell Block offers both Cell Blocks; the other team's is a legal end."""
        state = start(4, modules=TEAM, player_fields={0: {"place": "cafeteria"}})
        answer = follows(state, type="move", player=0, die=[1])
        assert answer.pending == {
            "kind": "destination",
            "player": 0,
            "options": ["cell_block_a", "cell_block_b"],
            "die": 1,
            "effects": True,
        }
        follows(state, type="choose", player=0, option="cell_block_b")
        assert state.players[0].place == "cell_block_b"
        assert state.actions_left == 1

    def test_follows_from_own_cell_block(self):
        """MOVE-2 still holds: from Cell Block A a 2 leads to Cell Block B or the Recreational Area."""
        state = start(4, modules=TEAM)
        answer = follows(state, type="move", player=0, die=[2])
        assert answer.pending["options"] == ["cell_block_b", "recreational_area"]


@rule_test("TEAM-3")
class TestTeam3:
    """Outcome rule: the points are pooled, so the win is the team's, never one player's."""

    def test_breaks(self):
        """Adversarial: a start where no player alone but the team together reaches the target is no
        legal starting point (it is already won): the pooled total is what counts."""
        with pytest.raises(ConfigError) as error:
            start(4, modules=TEAM, player_fields={0: {"tunnel": 5}, 2: {"tunnel": 5}})
        assert error.value.rule == "WIN-1"

    def test_breaks_other_team_points_do_not_count(self):
        """Team B's points never help team A: A at 9 (4 + 5) stays below 10 after B digs."""
        state = start(
            4,
            modules=TEAM,
            hands={1: ["shovel"]},
            first_player=1,
            player_fields={0: {"tunnel": 4}, 2: {"tunnel": 5}, 1: {"tunnel": 2}, 3: {"tunnel": 1}},
        )
        answer = follows(state, type="dig", player=1, tool="shovel")
        assert answer.winner is None and state.winner is None
        assert (state.team_tunnel("a"), state.team_tunnel("b")) == (9, 6)

    def test_follows(self):
        """4 players: target 10. A Shovel takes Carmen to 7 and team A (7 + 3) to 10: team A wins."""
        state = start(
            4, modules=TEAM, hands={0: ["shovel"]}, player_fields={0: {"tunnel": 4}, 2: {"tunnel": 3}, 1: {"tunnel": 9}}
        )
        assert state.target() == 10
        answer = follows(state, type="dig", player=0, tool="shovel")
        assert state.players[0].tunnel == 7
        assert answer.winner == "a" and state.winner == "a"
        assert {"type": "win", "winner": "a", "target": 10} in said(answer)

    def test_follows_team_b(self):
        """Six players, target 8: Nicholas's Spoon takes team B (1, 3, 5) from 7 to 8; the winner is "b"."""
        state = start(
            6,
            modules=TEAM,
            hands={1: ["spoon"]},
            first_player=1,
            player_fields={1: {"tunnel": 2}, 3: {"tunnel": 3}, 5: {"tunnel": 2}, 0: {"tunnel": 7}},
        )
        answer = follows(state, type="dig", player=1, tool="spoon")
        assert answer.winner == "b" and state.winner == "b"
        assert state.team_tunnel("b") == 8 and state.team_tunnel("a") == 7

    def test_follows_six_players_target(self):
        state = start(6, modules=TEAM)
        assert state.target() == 8


@rule_test("TEAM-4")
class TestTeam4:
    def test_breaks(self):
        """Exchange only goes to a teammate."""
        state = start(4, modules=TEAM, hands={0: ["rare"]}, player_fields={1: {"place": "cell_block_a"}})
        answer = breaks(state, "TEAM-4", type="exchange", player=0, to=1, cards=["rare"])
        assert answer.violations[0].message == "Nicholas is not your teammate."

    def test_breaks_teammate_elsewhere(self):
        state = start(4, modules=TEAM, hands={0: ["rare"]}, player_fields={2: {"place": "cafeteria"}})
        answer = breaks(state, "TEAM-4", type="exchange", player=0, to=2, cards=["rare"])
        assert answer.violations[0].message == "Yellow is not in Cell Block A with you."

    def test_breaks_without_team_mode(self):
        state = start(4, hands={0: ["rare"]})
        breaks(state, "TEAM-4", type="exchange", player=0, to=2, cards=["rare"])

    def test_breaks_giving_nothing(self):
        state = start(4, modules=TEAM)
        breaks(state, "TEAM-4", type="exchange", player=0, to=2)

    def test_breaks_more_cigarettes_than_held(self):
        state = start(4, modules=TEAM, player_fields={0: {"cigarettes": 2}})
        breaks(state, "TEAM-4", type="exchange", player=0, to=2, cigarettes=3)

    def test_follows(self):
        """Cards and cigarettes change hands in one action."""
        state = start(4, modules=TEAM, hands={0: ["knife", "rare"], 2: []}, player_fields={0: {"cigarettes": 5}})
        follows(state, type="exchange", player=0, to=2, cards=["knife", "rare"], cigarettes=3)
        assert known(state, 0) == {} and known(state, 2) == {"knife": 1, "rare": 1}
        assert (state.players[0].cigarettes, state.players[2].cigarettes) == (2, 3)
        assert state.actions_left == 1


def _team_combat(hands):
    """Carmen (A) extorts Nicholas (B) in the Cafeteria; Dana (B) and Yellow (A) stand there too."""
    state = start(4, modules=TEAM, hands=hands, player_fields={seat: {"place": "cafeteria"} for seat in range(4)})
    follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
    return state


@rule_test("TEAM-5")
class TestTeam5:
    def test_breaks(self):
        """The attacker's teammate cannot play a Weapon for the defender."""
        state = _team_combat({0: ["knife", "knife"], 1: ["rare"], 2: ["knife"], 3: ["knife"]})
        answer = breaks(state, "TEAM-5", type="weapon", player=2, card="knife")
        assert answer.violations[0].message == "Only a teammate of Nicholas standing in their Place may play for them."

    def test_breaks_teammate_in_another_place(self):
        state = start(
            4,
            modules=TEAM,
            hands={0: ["knife"], 1: ["rare"], 3: ["knife"]},
            player_fields={0: {"place": "cafeteria"}, 1: {"place": "cafeteria"}},
        )
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        breaks(state, "TEAM-5", type="weapon", player=3, card="knife")

    def test_follows(self):
        """Dana plays twice for Nicholas; Nicholas then gives up: both take 1 Beating, the winner
        takes a random card from Nicholas (the only card, the Rare), all Weapons are discarded."""
        state = _team_combat({0: ["knife", "knife", "knife"], 1: ["rare"], 2: [], 3: ["knife", "blade"]})
        follows(state, type="weapon", player=3, card="knife")
        follows(state, type="weapon", player=0, card="knife")
        follows(state, type="weapon", player=3, card="blade")
        follows(state, type="weapon", player=0, card="knife")
        answer = follows(state, type="give_up", player=1)
        assert [p.beatings for p in state.players] == [0, 1, 0, 1]
        assert {"type": "beating", "player": 3, "count": 1, "total": 1, "why": "combat_helper"} in said(answer)
        assert known(state, 0) == {"rare": 1} and known(state, 1) == {} and known(state, 3) == {}
        assert state.piles["knife"] == 20 and state.discard == ["blade"]
        assert state.combat is None and state.pending is None

    def test_follows_helpers_unhurt_when_defence_wins(self):
        """The attacker gives up: only the attacker takes a Beating, the helper none."""
        state = _team_combat({0: ["knife"], 1: [], 2: [], 3: ["knife"]})
        follows(state, type="weapon", player=3, card="knife")
        follows(state, type="give_up", player=0)
        assert [p.beatings for p in state.players] == [1, 0, 0, 0]

    def test_helper_against_michel_shares_the_beating(self):
        """The engine lets Yellow play for Carmen against Michel; when Carmen then loses, the
        defending side lost, so Yellow takes 1 Beating too (TEAM-5)."""
        state = start(
            4,
            modules={"team": True, "neutrals": 1},
            start={"neutrals": {"michel": "cafeteria"}},
            hands={0: ["rare"], 2: ["knife"]},
            player_fields={2: {"place": "cafeteria"}},
        )
        follows(state, type="move", player=0, die=[1], to="cafeteria", michel_cards=["knife_spoon"])
        follows(state, type="weapon", player=2, card="knife", michel_cards=["knife_spoon"])
        follows(state, type="give_up", player=0)
        assert (state.players[0].beatings, state.players[2].beatings) == (1, 1)


@rule_test("TEAM-6")
class TestTeam6:
    def test_breaks(self):
        """No Dig in the other team's Cell Block."""
        state = start(4, modules=TEAM, hands={0: ["spoon"]}, player_fields={0: {"place": "cell_block_b"}})
        answer = breaks(state, "TEAM-6", type="dig", player=0, tool="spoon")
        assert answer.violations[0].message == "You can only Dig in your own team's Cell Block."

    def test_breaks_craft_in_own_cell_block(self):
        state = start(4, modules=TEAM, hands={0: ["links", "pike"]})
        answer = breaks(state, "TEAM-6", type="craft", player=0, recipe="pickaxe")
        assert answer.violations[0].message == "No crafting in your own team's Cell Block."

    def test_breaks_craft_in_showers(self):
        """The Showers keep their CRAFT-1 restriction in Team mode."""
        state = start(4, modules=TEAM, hands={0: ["links", "pike"]}, player_fields={0: {"place": "showers"}})
        breaks(state, "CRAFT-1", type="craft", player=0, recipe="pickaxe")

    def test_follows(self):
        """Dig at home, Craft in the other team's Cell Block."""
        state = start(4, modules=TEAM, hands={0: ["spoon"]})
        follows(state, type="dig", player=0, tool="spoon")
        assert state.players[0].tunnel == 1 and state.players[0].dug == ["spoon"]
        state = start(4, modules=TEAM, hands={0: ["links", "pike"]}, player_fields={0: {"place": "cell_block_b"}})
        follows(state, type="craft", player=0, recipe="pickaxe")
        assert known(state, 0) == {"pickaxe": 1} and state.piles["pickaxe"] == 10


@rule_test("TEAM-7")
class TestTeam7:
    def test_breaks(self):
        with pytest.raises(ConfigError) as error:
            start(4, modules={"team": True, "places": ["gambling_cells"]})
        assert error.value.rule == "TEAM-7"
        assert error.value.message == "TEAM-7: The Gambling Cells cannot be used in Team mode."

    def test_follows(self):
        """The Warden starts in the Showers and her Office touches only the Showers."""
        state = start(4, modules={"team": True, "warden": True})
        assert state.warden == "showers"
        assert state.board.adjacent["wardens_office"] == frozenset({"showers"})
        assert "wardens_office" in state.board.adjacent["showers"]
        assert "wardens_office" not in state.board.adjacent["cell_block_a"]

    def test_follows_office_reached_from_the_showers(self):
        """From the Showers a 5 names the Showers: Infirmary or the Office (OFF-1)."""
        state = start(4, modules={"team": True, "warden": True}, player_fields={0: {"place": "showers"}})
        follows(state, type="move", player=0, die=[5], to="wardens_office")
        assert state.players[0].place == "wardens_office"

    def test_follows_with_the_library(self):
        """With the Library covering the Showers, the Warden and her Office go to the Library."""
        state = start(4, modules={"team": True, "warden": True, "places": ["library"]})
        assert state.warden == "library"
        assert state.board.adjacent["wardens_office"] == frozenset({"library"})
