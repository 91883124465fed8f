"""MICH-1..8: Michel & Michelle, the neutral prisoners (moves, extortions, combats, the deck)."""

import pytest

from companion.rules import ConfigError

from support import breaks, follows, known, rule_test, said, start

MICHEL = {"neutrals": 1}
BOTH = {"neutrals": 2}
WARDEN = {"neutrals": 1, "warden": True}


def michel_game(hands=None, places=None, players=3, modules=MICHEL, **config):
    """Michel in the Showers; `places` puts seats somewhere else than the Cell Block."""
    fields = config.pop("player_fields", {})
    for seat, place in (places or {}).items():
        fields.setdefault(seat, {})["place"] = place
    return start(players, hands=hands, modules=modules, player_fields=fields, **config)


def arrive(state, seat=0, cards=("knife_spoon",), **extra):
    """Seat walks from the Infirmary into the Showers (a 5), where Michel waits."""
    return follows(state, type="move", player=seat, die=[5], to="showers", michel_cards=list(cards), **extra)


@rule_test("MICH-1")
class TestMich1:
    def test_breaks(self):
        """At most two neutrals."""
        with pytest.raises(ConfigError) as error:
            start(modules={"neutrals": 3})
        assert error.value.rule == "MICH-1"
        assert (
            error.value.message == "MICH-1: modules.neutrals must be 0, 1 (Michel) or 2 (Michel and Michelle), not 3."
        )

    def test_breaks_placing_a_neutral_not_in_the_game(self):
        with pytest.raises(ConfigError) as error:
            start(modules=MICHEL, start={"neutrals": {"michelle": "cafeteria"}})
        assert error.value.rule == "MICH-1"

    def test_follows(self):
        """Michel and Michelle start in the Showers, hold no hand, and share the Michel deck."""
        state = start(modules=BOTH)
        assert state.neutrals == {"michel": "showers", "michelle": "showers"}
        assert sorted(state.michel_deck) == sorted(
            ["no_knife"] * 4
            + ["knife_spoon"] * 3
            + ["knife_spoon_pickaxe"] * 2
            + ["knife_pickaxe_shovel"] * 2
            + ["knife_shovel"]
        )
        assert len(state.players) == 3 and state.summary()["neutrals"] == {"michel": "showers", "michelle": "showers"}

    def test_one_neutral(self):
        state = start(modules=MICHEL)
        assert state.neutrals == {"michel": "showers"}

    def test_no_neutral_by_default(self):
        state = start()
        assert state.neutrals == {} and state.michel_deck == []
        follows(state, type="end_turn", player=0)
        assert state.pending is None and state.active == 1


@rule_test("MICH-2")
class TestMich2:
    def test_breaks(self):
        """A 1 moves Michel from the Showers to the Cell Block or the Cafeteria, not the Infirmary."""
        state = michel_game()
        follows(state, type="end_turn", player=0)
        answer = breaks(state, "MICH-2", type="move_neutral", player=0, neutral="michel", die=[1], to="infirmary")
        assert answer.violations[0].message == "A 1 does not lead to the Infirmary: go to one of Cell Block, Cafeteria."

    def test_breaks_a_wrong_destination_answer(self):
        state = michel_game()
        follows(state, type="end_turn", player=0)
        follows(state, type="move_neutral", player=0, neutral="michel", die=[1])
        breaks(state, "MICH-2", type="choose", player=0, option="showers")

    def test_breaks_skipping_when_the_move_is_compulsory(self):
        state = michel_game(house_rules={"neutral_move_optional": False})
        follows(state, type="end_turn", player=0)
        assert state.pending.options == ["michel"]
        answer = breaks(state, "MICH-2", type="skip_neutral", player=0)
        assert answer.violations[0].message == "Moving a neutral is compulsory with these rules."

    def test_breaks_moving_michelle_without_her(self):
        state = michel_game()
        follows(state, type="end_turn", player=0)
        breaks(state, "MICH-2", type="move_neutral", player=0, neutral="michelle", die=[1])

    def test_follows(self):
        """After end_turn the same player may move a neutral; the app rolls, the player picks."""
        state = michel_game()
        answer = follows(state, type="end_turn", player=0)
        assert answer.pending == {"kind": "neutral_move", "player": 0, "options": ["michel", "skip"]}
        assert state.active == 0
        breaks(state, "TURN-5", type="search", player=1)
        answer = follows(state, type="move_neutral", player=0, neutral="michel", die=[1])
        assert answer.pending == {
            "kind": "neutral_destination",
            "player": 0,
            "options": ["cell_block", "cafeteria"],
            "neutral": "michel",
            "die": 1,
        }
        follows(state, type="choose", player=0, option="cafeteria")
        assert state.neutrals == {"michel": "cafeteria"} and state.active == 1 and state.pending is None

    def test_one_option_needs_no_answer(self):
        """From the Showers a 5 names the Showers and the Infirmary: Michel must take the Infirmary."""
        state = michel_game()
        follows(state, type="end_turn", player=0)
        follows(state, type="move_neutral", player=0, neutral="michel", die=[5])
        assert state.neutrals == {"michel": "infirmary"} and state.active == 1

    def test_one_shot_with_die_and_destination(self):
        state = michel_game()
        follows(state, type="end_turn", player=0)
        follows(state, type="move_neutral", player=0, neutral="michel", die=[6], to="recreational_area")
        assert state.neutrals == {"michel": "recreational_area"} and state.active == 1

    def test_random_destination_house_rule(self):
        """Fully automatic: the app picks one of the two Places."""
        state = michel_game(
            house_rules={"neutral_destination": "random"}, places={0: "infirmary", 1: "infirmary", 2: "infirmary"}
        )
        follows(state, type="end_turn", player=0)
        answer = follows(state, type="move_neutral", player=0, neutral="michel", die=[1])
        assert answer.pending is None and state.neutrals["michel"] in ("cell_block", "cafeteria")
        assert state.active == 1

    def test_skip(self):
        state = michel_game()
        follows(state, type="end_turn", player=0)
        follows(state, type="skip_neutral", player=0)
        assert state.neutrals == {"michel": "showers"} and state.active == 1

    def test_the_app_rolls_without_a_die(self):
        state = michel_game(seed=5)
        follows(state, type="end_turn", player=0)
        answer = follows(state, type="move_neutral", player=0, neutral="michel")
        rolls = [e for e in said(answer) if e["type"] == "roll"]
        assert len(rolls) == 1 and rolls[0]["source"] == "app" and rolls[0]["why"] == "neutral"

    def test_michelle_moves_on_her_own(self):
        state = michel_game(modules=BOTH)
        follows(state, type="end_turn", player=0)
        assert state.pending.options == ["michel", "michelle", "skip"]
        follows(state, type="move_neutral", player=0, neutral="michelle", die=[5])
        assert state.neutrals == {"michel": "showers", "michelle": "infirmary"}


@rule_test("MICH-3")
class TestMich3:
    def test_breaks(self):
        """Outcome rule. The adversarial attempt: the second player in clockwise order answers
        Michel before the first. The engine refuses it with TURN-4 (not their decision)."""
        state = michel_game(hands={0: ["spoon"], 1: ["spoon"]}, places={0: "cafeteria", 1: "cafeteria"})
        follows(state, type="end_turn", player=0)
        follows(
            state,
            type="move_neutral",
            player=0,
            neutral="michel",
            die=[1],
            to="cafeteria",
            michel_cards=["knife_spoon"],
        )
        assert state.pending.kind == "michel_answer" and state.pending.player == 0
        breaks(state, "TURN-4", type="cooperate", player=1)

    def test_follows(self):
        """Ending a move, Michel extorts each player there, one by one, clockwise from the active player."""
        state = michel_game(
            players=4,
            hands={0: [], 1: ["spoon"], 3: ["spoon"]},
            places={0: "cafeteria", 1: "cafeteria", 3: "cafeteria"},
            first_player=2,
        )
        follows(state, type="end_turn", player=2)
        answer = follows(
            state,
            type="move_neutral",
            player=2,
            neutral="michel",
            die=[1],
            to="cafeteria",
            michel_cards=["knife_spoon"],
        )
        assert [e["player"] for e in said(answer) if e["type"] == "michel_card"] == [3]
        assert state.pending.kind == "michel_answer" and state.pending.player == 3
        answer = follows(state, type="cooperate", player=3, michel_cards=["no_knife", "knife_spoon"])
        assert [e["player"] for e in said(answer) if e["type"] == "michel_card"] == [0, 1]
        assert known(state, 3) == {} and state.piles["spoon"] == 10
        assert state.pending.kind == "michel_answer" and state.pending.player == 1
        follows(state, type="cooperate", player=1)
        assert known(state, 1) == {} and state.piles["spoon"] == 11
        assert state.active == 3 and state.pending is None

    def test_arrival(self):
        """A player arriving in Michel's Place is extorted too, during their own turn."""
        state = michel_game(hands={0: ["spoon", "links"]}, places={0: "infirmary"})
        answer = arrive(state)
        assert answer.pending == {
            "kind": "michel_answer",
            "player": 0,
            "options": ["cooperate", "fight"],
            "neutral": "michel",
            "card": "knife_spoon",
            "tools": ["spoon"],
        }
        follows(state, type="cooperate", player=0)
        assert known(state, 0) == {"links": 1} and state.actions_left == 1 and state.active == 0
        follows(state, type="search", player=0)

    def test_arrival_after_a_destination_choice(self):
        state = michel_game(hands={0: ["spoon"]})
        follows(state, type="move", player=0, die=[5])
        answer = follows(state, type="choose", player=0, option="showers", michel_cards=["knife_spoon"])
        assert answer.pending["kind"] == "michel_answer" and answer.pending["player"] == 0

    def test_nobody_there_nothing_happens(self):
        state = michel_game()
        follows(state, type="end_turn", player=0)
        answer = follows(state, type="move_neutral", player=0, neutral="michel", die=[4], to="cafeteria")
        assert not [e for e in said(answer) if e["type"] == "michel_card"] and len(state.michel_deck) == 12

    def test_both_neutrals_extort_an_arrival(self):
        state = michel_game(modules=BOTH, hands={0: []}, places={0: "infirmary"})
        answer = arrive(state, cards=["no_knife", "no_knife"])
        assert [e["neutral"] for e in said(answer) if e["type"] == "michel_card"] == ["michel", "michelle"]

    def test_the_listed_cards_serve_every_extortion_of_the_move(self):
        """PROTOCOL: michel_cards lists the cards for the extortions this move triggers, in order."""
        state = michel_game(hands={0: ["spoon"], 1: ["spoon"]}, places={0: "cafeteria", 1: "cafeteria"})
        follows(state, type="end_turn", player=0)
        follows(
            state,
            type="move_neutral",
            player=0,
            neutral="michel",
            die=[1],
            to="cafeteria",
            michel_cards=["knife_spoon", "knife_shovel"],
        )
        answer = follows(state, type="cooperate", player=0)
        assert {
            "type": "michel_card",
            "neutral": "michel",
            "player": 1,
            "card": "knife_shovel",
            "source": "table",
        } in said(answer)


class TestMichelle:
    def test_michelle_extorts_after_michel(self):
        """Both neutrals in the Showers: Michel first, then Michelle, each with their own card."""
        state = michel_game(modules=BOTH, hands={0: ["spoon", "knife"]}, places={0: "infirmary"})
        arrive(state, cards=["knife_spoon", "knife_spoon"])
        follows(state, type="cooperate", player=0, tool="spoon")
        assert state.pending.kind == "combat" and state.pending.neutral == "michelle"
        follows(state, type="weapon", player=0, card="knife", michel_cards=["no_knife"])
        assert known(state, 0) == {} and state.players[0].hand.unknown == 1 and state.pending is None

    def test_the_waiting_message_names_michelle(self):
        state = michel_game(modules=BOTH, hands={0: ["spoon"]}, places={0: "infirmary"})
        arrive(state, cards=["no_knife", "knife_spoon"])
        assert state.pending.kind == "michel_answer" and state.pending.neutral == "michelle"
        answer = breaks(state, "TURN-5", type="search", player=0)
        assert answer.violations[0].message == "Waiting for Carmen to give a Tool to Michelle or fight."


@rule_test("MICH-4")
class TestMich4:
    def test_breaks(self):
        """Cooperation discards one of the Tools shown on the card: not a Shovel for a Spoon/Pickaxe card."""
        state = michel_game(hands={0: ["spoon", "shovel"]}, places={0: "infirmary"})
        arrive(state, cards=["knife_spoon_pickaxe"])
        answer = breaks(state, "MICH-4", type="cooperate", player=0, tool="shovel")
        assert answer.violations[0].message == "The Michel card shows Spoon, not Shovel."

    def test_breaks_which_tool_when_two(self):
        state = michel_game(hands={0: ["spoon", "pickaxe"]}, places={0: "infirmary"})
        arrive(state, cards=["knife_spoon_pickaxe"])
        answer = breaks(state, "MICH-4", type="cooperate", player=0)
        assert answer.violations[0].message == "Choose the Tool to give up: Spoon, Pickaxe."

    def test_follows(self):
        """Knife: cooperate by discarding a shown Tool; no combat, no Beating."""
        state = michel_game(hands={0: ["spoon", "pickaxe"]}, places={0: "infirmary"})
        arrive(state, cards=["knife_spoon_pickaxe"])
        follows(state, type="cooperate", player=0, tool="pickaxe")
        assert known(state, 0) == {"spoon": 1} and state.piles["pickaxe"] == 11
        assert state.players[0].beatings == 0 and state.combat is None and state.pending is None

    def test_no_knife_nothing_happens(self):
        state = michel_game(hands={0: ["spoon"]}, places={0: "infirmary"})
        answer = arrive(state, cards=["no_knife"])
        assert answer.pending is None and known(state, 0) == {"spoon": 1} and state.combat is None

    def test_without_a_shown_tool_combat_starts(self):
        state = michel_game(hands={0: ["spoon", "knife"]}, places={0: "infirmary"})
        answer = arrive(state, cards=["knife_pickaxe_shovel"])
        assert answer.pending["kind"] == "combat" and answer.pending["player"] == 0
        assert answer.pending["neutral"] == "michel"


@rule_test("MICH-5")
class TestMich5:
    def test_breaks(self):
        """Losing with two shown Tools in hand: the player picks one of them, not another card."""
        state = michel_game(hands={0: ["pickaxe", "shovel", "rare"]}, places={0: "infirmary"})
        arrive(state, cards=["knife_pickaxe_shovel"])
        follows(state, type="fight", player=0)
        follows(state, type="give_up", player=0)
        assert state.pending.kind == "michel_tool" and state.pending.options == ["pickaxe", "shovel"]
        breaks(state, "MICH-5", type="choose", player=0, option="rare")

    def test_follows(self):
        """Several Michel cards: each Knife asks for another Weapon; no Knife, the player wins a Search card."""
        state = michel_game(hands={0: ["knife", "blade", "knife"]}, places={0: "infirmary"})
        arrive(state, cards=["knife_shovel"])
        answer = follows(state, type="weapon", player=0, card="knife", michel_cards=["knife_spoon"])
        assert answer.pending["kind"] == "combat" and answer.pending["weapons_played"] == 1
        follows(state, type="weapon", player=0, card="blade", michel_cards=["knife_pickaxe_shovel"])
        answer = follows(state, type="weapon", player=0, card="knife", michel_cards=["no_knife"])
        assert {"type": "combat_end", "winner": 0, "loser": None, "neutral": "michel"} in said(answer)
        assert known(state, 0) == {} and state.players[0].hand.unknown == 1 and state.players[0].beatings == 0
        assert state.piles["knife"] == 20 and state.discard == ["blade"] and state.deck == 77 - 1 - 6 - 1
        assert state.combat is None and state.pending is None

    def test_loss_costs_a_beating_and_the_shown_tool(self):
        state = michel_game(hands={0: ["spoon", "knife", "rare"]}, places={0: "infirmary"})
        arrive(state, cards=["knife_spoon"])
        follows(state, type="fight", player=0)
        follows(state, type="weapon", player=0, card="knife", michel_cards=["knife_shovel"])
        follows(state, type="give_up", player=0)
        assert state.players[0].beatings == 1 and known(state, 0) == {"rare": 1}
        assert state.piles["spoon"] == 11 and state.piles["knife"] == 20

    def test_loss_with_two_shown_tools_the_player_chooses(self):
        state = michel_game(hands={0: ["pickaxe", "shovel"]}, places={0: "infirmary"})
        arrive(state, cards=["knife_pickaxe_shovel"])
        follows(state, type="fight", player=0)
        follows(state, type="give_up", player=0)
        follows(state, type="choose", player=0, option="shovel")
        assert known(state, 0) == {"pickaxe": 1} and state.players[0].beatings == 1 and state.pending is None

    def test_loss_without_a_shown_tool_costs_a_random_card(self):
        state = michel_game(hands={0: ["rare"]}, places={0: "infirmary"})
        arrive(state, cards=["knife_shovel"])
        follows(state, type="give_up", player=0)
        assert known(state, 0) == {} and state.discard == ["rare"] and state.players[0].beatings == 1

    def test_the_player_plays_first(self):
        """Michel plays no Weapon: the player is always the one due to play."""
        state = michel_game(hands={0: ["knife"]}, places={0: "infirmary"})
        answer = arrive(state, cards=["knife_shovel"])
        assert answer.pending["player"] == 0 and answer.pending["weapons_played"] == 0


@rule_test("MICH-6")
class TestMich6:
    def test_breaks(self):
        """The second card shows a Spoon Carmen holds: too late to cooperate."""
        state = michel_game(hands={0: ["spoon", "knife"]}, places={0: "infirmary"})
        arrive(state, cards=["knife_shovel"])
        follows(state, type="weapon", player=0, card="knife", michel_cards=["knife_spoon"])
        answer = breaks(state, "MICH-6", type="cooperate", player=0, tool="spoon")
        assert answer.violations[0].message == "The combat has started: it is too late to give the Tool."

    def test_follows(self):
        """On the first card, cooperation is offered and ends the extortion."""
        state = michel_game(hands={0: ["spoon", "knife"]}, places={0: "infirmary"})
        answer = arrive(state, cards=["knife_spoon"])
        assert answer.pending["options"] == ["cooperate", "fight"]
        follows(state, type="cooperate", player=0, tool="spoon")
        assert known(state, 0) == {"knife": 1} and state.combat is None


@rule_test("MICH-7")
class TestMich7:
    def test_breaks(self):
        """A Michel deck must name Michel cards and hold at least one."""
        with pytest.raises(ConfigError) as error:
            start(modules=MICHEL, house_rules={"michel_deck": {"knife_rare": 2}})
        assert error.value.rule == "MICH-7"
        with pytest.raises(ConfigError) as error:
            start(modules=MICHEL, house_rules={"michel_deck": {"no_knife": 0}})
        assert error.value.rule == "MICH-7"

    def test_follows(self):
        """The default deck: 12 cards, 4 without a Knife."""
        state = start(modules=MICHEL)
        deck = state.michel_deck
        assert len(deck) == 12 and deck.count("no_knife") == 4
        assert state.ruleset.michel_deck == {
            "no_knife": 4,
            "knife_spoon": 3,
            "knife_spoon_pickaxe": 2,
            "knife_pickaxe_shovel": 2,
            "knife_shovel": 1,
        }

    def test_reshuffle_when_empty(self):
        """Two cards for three extortions: the discard is reshuffled into a new deck."""
        state = michel_game(
            hands={0: [], 1: [], 2: []},
            places={0: "infirmary", 1: "infirmary", 2: "infirmary"},
            house_rules={"michel_deck": {"no_knife": 2}},
        )
        follows(state, type="end_turn", player=0)
        answer = follows(state, type="move_neutral", player=0, neutral="michel", die=[5])
        assert state.neutrals == {"michel": "infirmary"}
        assert [e["type"] for e in said(answer) if e["type"].startswith("michel")] == [
            "michel_card",
            "michel_card",
            "michel_reshuffle",
            "michel_card",
        ]
        assert {"type": "michel_reshuffle", "cards": 2} in said(answer)
        assert state.michel_deck == ["no_knife"] and state.michel_discard == ["no_knife"]

    def test_the_app_draws_from_its_deck(self):
        state = michel_game(hands={0: []}, places={0: "infirmary"}, house_rules={"michel_deck": {"no_knife": 3}})
        answer = follows(state, type="move", player=0, die=[5], to="showers")
        assert {"type": "michel_card", "neutral": "michel", "player": 0, "card": "no_knife", "source": "app"} in said(
            answer
        )
        assert len(state.michel_deck) == 2 and state.michel_discard == ["no_knife"]

    def test_a_table_card_leaves_the_app_deck_alone(self):
        state = michel_game(hands={0: []}, places={0: "infirmary"})
        deck = list(state.michel_deck)
        answer = arrive(state, cards=["no_knife"])
        assert {"type": "michel_card", "neutral": "michel", "player": 0, "card": "no_knife", "source": "table"} in said(
            answer
        )
        assert state.michel_deck == deck and state.michel_discard == []


@rule_test("MICH-8")
class TestMich8:
    def test_breaks(self):
        """Outcome rule. The adversarial attempt: answering a Michel extortion in the Warden's Place.
        There is none, so the engine refuses the answer with TURN-5."""
        state = start(hands={0: ["spoon"]}, modules=WARDEN)
        follows(state, type="end_turn", player=0)
        follows(
            state,
            type="move_neutral",
            player=0,
            neutral="michel",
            die=[3],
            to="cell_block",
            michel_cards=["knife_spoon"],
        )
        breaks(state, "TURN-5", type="cooperate", player=0, tool="spoon")

    def test_follows(self):
        """Michel walks into the Cell Block where the Warden stands: nobody there is extorted."""
        state = start(hands={0: ["spoon"]}, modules=WARDEN)
        assert state.warden == "cell_block"
        follows(state, type="end_turn", player=0)
        answer = follows(
            state,
            type="move_neutral",
            player=0,
            neutral="michel",
            die=[3],
            to="cell_block",
            michel_cards=["knife_spoon"],
        )
        assert [e["player"] for e in said(answer) if e["type"] == "neutral_calm"] == [0, 1, 2]
        assert not [e for e in said(answer) if e["type"] == "michel_card"]
        assert state.pending is None and state.active == 1 and known(state, 0) == {"spoon": 1}

    def test_elsewhere_michel_extorts_as_usual(self):
        state = start(hands={0: ["spoon"]}, modules=WARDEN, player_fields={0: {"place": "infirmary"}})
        answer = arrive(state, cards=["knife_spoon"])
        assert answer.pending["kind"] == "michel_answer"
