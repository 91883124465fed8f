"""VAR-1..3: the official preset, the online-simplified preset and house rules."""

import pytest

from companion.rules import ConfigError

from support import breaks, follows, known, rule_test, start


@rule_test("VAR-1")
class TestVar1:
    def test_breaks(self):
        """An unknown preset is refused, naming VAR-1 and the presets."""
        with pytest.raises(ConfigError) as error:
            start(ruleset="tournament")
        assert error.value.rule == "VAR-1"
        assert error.value.message == "VAR-1: Unknown ruleset tournament: choose one of official, online-simplified."

    def test_breaks_a_ruleset_that_is_not_a_name(self):
        with pytest.raises(ConfigError) as error:
            start(ruleset=3)
        assert error.value.rule == "VAR-1"

    def test_follows(self):
        """`official` is the default and carries the box's numbers."""
        state = start()
        r = state.ruleset
        assert r.preset == "official" and state.config["ruleset"] == "official"
        assert dict(r.targets) == {2: 12, 3: 12, 4: 10, 5: 8, 6: 8}
        assert (r.starting_hand, r.hand_limit, r.actions_per_turn, r.solitary_actions, r.max_beatings) == (
            3,
            10,
            2,
            1,
            2,
        )
        assert {k: o.price for k, o in r.buy.items()} == {"knife": 2, "two_knives": 5, "pickaxe": 6, "shovel": 8}
        assert r.sell is None and not r.craft_once_per_turn and r.team_mode


ONLINE = {"ruleset": "online-simplified"}


@rule_test("VAR-2")
class TestVar2:
    def test_breaks(self):
        """Online-simplified: at most one Craft per turn."""
        state = start(
            hands={0: ["links", "blade", "links", "pike"]}, player_fields={0: {"place": "cafeteria"}}, **ONLINE
        )
        follows(state, type="craft", player=0, recipe="knives")
        answer = breaks(state, "VAR-2", type="craft", player=0, recipe="pickaxe")
        assert answer.violations[0].message == "Only one Craft per turn with these rules."

    def test_breaks_a_sale_at_another_price(self):
        state = start(hands={0: ["rare", "pickaxe"]}, player_fields={0: {"place": "recreational_area"}}, **ONLINE)
        answer = breaks(state, "VAR-2", type="sell", player=0, cards=["rare", "pickaxe"], cigarettes=7)
        assert answer.violations[0].message == "With these rules those cards sell for 3 cigarettes."

    def test_breaks_team_mode(self):
        with pytest.raises(ConfigError) as error:
            start(4, modules={"team": True}, **ONLINE)
        assert error.value.rule == "VAR-2"

    def test_follows(self):
        """5 starting cards, targets 12/12/10/9/8, Spoons for sale, fixed sale values."""
        state = start(5, **ONLINE)
        assert all(p.hand.unknown == 5 for p in state.players) and state.deck == 77 - 25
        assert state.target() == 9 and dict(state.ruleset.targets) == {2: 12, 3: 12, 4: 10, 5: 9, 6: 8}
        assert {k: o.price for k, o in state.ruleset.buy.items()} == {
            "knife": 2,
            "two_knives": 5,
            "spoon": 2,
            "pickaxe": 4,
            "shovel": 6,
        }

    @pytest.mark.parametrize(
        "item, price", [("spoon", 2), ("pickaxe", 4), ("shovel", 6), ("knife", 2), ("two_knives", 5)]
    )
    def test_buy_prices(self, item, price):
        state = start(player_fields={0: {"place": "recreational_area", "cigarettes": 6}}, **ONLINE)
        follows(state, type="buy", player=0, item=item)
        assert state.players[0].cigarettes == 6 - price

    def test_sale_values(self):
        """Half a Tool's buy price, 1 for any other card; the total is computed when not entered."""
        state = start(
            hands={0: ["spoon", "pickaxe", "shovel", "rare", "links"]},
            player_fields={0: {"place": "recreational_area"}},
            **ONLINE,
        )
        follows(state, type="sell", player=0, cards=["spoon", "pickaxe", "shovel", "rare", "links"])
        assert state.players[0].cigarettes == 1 + 2 + 3 + 1 + 1

    def test_one_craft_per_turn_again_next_turn(self):
        state = start(
            2, hands={0: ["links", "blade", "links", "pike"]}, player_fields={0: {"place": "cafeteria"}}, **ONLINE
        )
        follows(state, type="craft", player=0, recipe="knives")
        follows(state, type="end_turn", player=0)
        follows(state, type="end_turn", player=1)
        follows(state, type="craft", player=0, recipe="pickaxe")
        assert known(state, 0) == {"knife": 2, "pickaxe": 1}


@rule_test("VAR-3")
class TestVar3:
    def test_breaks(self):
        """An unknown house rule is refused with VAR-3."""
        with pytest.raises(ConfigError) as error:
            start(house_rules={"free_shovels": True})
        assert error.value.rule == "VAR-3"
        assert error.value.message == "VAR-3: Unknown house rule free_shovels."

    def test_breaks_a_number_out_of_range(self):
        with pytest.raises(ConfigError) as error:
            start(house_rules={"hand_limit": -1})
        assert error.value.rule == "VAR-3"

    def test_breaks_a_bad_shape(self):
        with pytest.raises(ConfigError) as error:
            start(house_rules={"neutral_destination": "sometimes"})
        assert error.value.rule == "VAR-3"

    def test_follows(self):
        """Every number is a setting, saved with the game: here hand limit, actions and starting hand."""
        rules = {"hand_limit": 5, "actions_per_turn": 3, "starting_hand": 4}
        state = start(house_rules=rules)
        assert state.config["house_rules"] == rules
        assert state.actions_left == 3 and all(p.hand.unknown == 4 for p in state.players)
        follows(state, type="search", player=0)
        follows(state, type="move", player=0, die=[1], to="cafeteria")
        follows(state, type="steal_spoon", player=0)
        assert state.actions_left == 0 and state.players[0].hand.size() == 6
        answer = breaks(state, "TURN-3", type="end_turn", player=0)
        assert answer.violations[0].message == "You hold 6 cards: discard 1 to end your turn (limit 5)."
        follows(state, type="end_turn", player=0, discard=["spoon"])
        assert state.players[0].hand.size() == 5 and state.piles["spoon"] == 11 and state.active == 1

    def test_targets_and_prices(self):
        state = start(
            4,
            house_rules={
                "targets": {"2": 9, "3": 9, "4": 7, "5": 6, "6": 5},
                "buy": {"knife": {"price": 1, "card": "knife"}},
            },
            player_fields={0: {"place": "recreational_area", "cigarettes": 1}},
        )
        assert state.target() == 7
        follows(state, type="buy", player=0, item="knife")
        assert state.players[0].cigarettes == 0 and known(state, 0) == {"knife": 1}
        breaks(state, "BUY-1", type="buy", player=0, item="pickaxe")

    def test_breaks_an_unknown_punishment_chooser(self):
        with pytest.raises(ConfigError) as error:
            start(house_rules={"punishment_choice": "the_warden"})
        assert error.value.rule == "VAR-3"

    def test_punishment_choice_house_rule(self):
        """OFF-3's chooser is a setting: the spender by default (Dig In rulebook), the victim on request."""
        assert start().ruleset.punishment_choice == "spender"
        assert start(house_rules={"punishment_choice": "victim"}).ruleset.punishment_choice == "victim"

    def test_michel_deck_house_rule(self):
        state = start(modules={"neutrals": 1}, house_rules={"michel_deck": {"knife_shovel": 5}})
        assert state.michel_deck == ["knife_shovel"] * 5
