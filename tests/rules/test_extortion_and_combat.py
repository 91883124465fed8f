"""EXT-1, EXT-2 (extortion), CMB-1..3 (combat) and BEAT-1 (at most 2 Beatings)."""

import pytest

from companion.rules import ConfigError

from support import breaks, follows, known, rule_test, said, start


def duel(attacker=("knife", "knife"), defender=("spoon", "blade"), place="cafeteria", fields=None, **config):
    """Carmen (0) and Nicholas (1) in one Place with known hands; Yellow (2) in the Showers."""
    player_fields = {0: {"place": place}, 1: {"place": place}, 2: {"place": "showers"}}
    for seat, extra in (fields or {}).items():
        player_fields[seat].update(extra)
    return start(hands={0: list(attacker), 1: list(defender), 2: ["knife"]}, player_fields=player_fields, **config)


@rule_test("EXT-1")
class TestExt1:
    def test_breaks(self):
        """The target must stand in your Place."""
        state = duel()
        answer = breaks(state, "EXT-1", type="extort", player=0, target=2, tool="spoon", weapons=["knife"])
        assert answer.violations[0].message == "Yellow is not in the Cafeteria with you."

    def test_breaks_twice_in_a_turn(self):
        state = duel(house_rules={"actions_per_turn": 3})
        follows(state, type="extort", player=0, target=1, tool="shovel", weapons=["knife"])
        follows(state, type="weapon", player=1, card="blade")
        follows(state, type="give_up", player=0)
        answer = breaks(state, "EXT-1", type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        assert answer.violations[0].message == "You have already extorted this turn."

    def test_breaks_yourself(self):
        state = duel()
        breaks(state, "EXT-1", type="extort", player=0, target=0, tool="spoon", weapons=["knife"])

    def test_breaks_without_a_weapon_in_hand(self):
        """No Weapon in a fully known hand: the Knife to lay is not there (HAND-1)."""
        state = duel(attacker=("links",))
        breaks(state, "HAND-1", type="extort", player=0, target=1, tool="spoon", weapons=["knife"])

    def test_follows(self):
        """1 action: the Weapon is laid, and the target holding the Tool must answer."""
        state = duel()
        answer = follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        assert state.actions_left == 1 and state.flags.extorted
        assert known(state, 0) == {"knife": 1} and state.combat.laid == [(0, "knife")]
        assert answer.pending == {
            "kind": "extortion_answer",
            "player": 1,
            "options": ["cooperate", "fight"],
            "attacker": 0,
            "tool": "spoon",
        }


@rule_test("EXT-2")
class TestExt2:
    def test_breaks(self):
        """Against Sturdiness the intimidation takes 2 Weapons."""
        state = duel(fields={1: {"gang": "bratva", "ability": "sturdiness"}})
        answer = breaks(state, "EXT-2", type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        assert answer.violations[0].message == "Intimidating Nicholas takes 2 Weapons."

    def test_breaks_two_weapons_against_an_ordinary_target(self):
        state = duel()
        breaks(state, "EXT-2", type="extort", player=0, target=1, tool="spoon", weapons=["knife", "knife"])

    def test_breaks_cooperating_once_combat_has_begun(self):
        state = duel()
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="fight", player=1)
        answer = breaks(state, "EXT-2", type="cooperate", player=1)
        assert answer.violations[0].message == "The combat has started: it is too late to give the Tool."

    def test_follows(self):
        """The target gives the Tool: no combat, the intimidation Knife goes back to its pile."""
        state = duel()
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        assert state.piles["knife"] == 17
        follows(state, type="cooperate", player=1)
        assert known(state, 0) == {"knife": 1, "spoon": 1} and known(state, 1) == {"blade": 1}
        assert state.piles["knife"] == 18 and state.combat is None and state.pending is None
        assert [p.beatings for p in state.players] == [0, 0, 0]

    def test_without_the_tool_combat_starts_at_once(self):
        state = duel()
        answer = follows(state, type="extort", player=0, target=1, tool="pickaxe", weapons=["knife"])
        assert answer.pending["kind"] == "combat" and answer.pending["player"] == 1
        assert state.combat.started

    def test_sturdiness_with_two_weapons(self):
        state = duel(fields={1: {"gang": "bratva", "ability": "sturdiness"}})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife", "knife"])
        assert state.combat.laid == [(0, "knife"), (0, "knife")] and known(state, 0) == {}


@rule_test("CMB-1")
class TestCmb1:
    def test_breaks(self):
        """The defender plays first: the attacker's Weapon is refused."""
        state = duel()
        follows(state, type="extort", player=0, target=1, tool="pickaxe", weapons=["knife"])
        answer = breaks(state, "CMB-1", type="weapon", player=0, card="knife")
        assert answer.violations[0].message == "It is Nicholas's turn to play a Weapon."

    def test_breaks_an_outsider_playing(self):
        state = duel()
        follows(state, type="extort", player=0, target=1, tool="pickaxe", weapons=["knife"])
        breaks(state, "CMB-1", type="weapon", player=2, card="knife")

    def test_follows(self):
        """Alternate Weapons, defender first; the first who won't play loses."""
        state = duel(defender=("blade", "knife", "rare"))
        follows(state, type="extort", player=0, target=1, tool="pickaxe", weapons=["knife"])
        assert state.pending.player == 1
        follows(state, type="weapon", player=1, card="blade")
        assert state.pending.player == 0
        follows(state, type="weapon", player=0, card="knife")
        assert state.pending.player == 1
        answer = follows(state, type="give_up", player=1)
        assert {"type": "combat_end", "winner": 0, "loser": 1} in said(answer)
        assert state.players[1].beatings == 1 and state.combat is None

    def test_card_values_are_never_compared(self):
        """A Blade answers a Knife just as well; the attacker without Weapons loses."""
        state = duel(attacker=("knife",), defender=("blade",))
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="weapon", player=1, card="blade")
        breaks(state, "HAND-1", type="weapon", player=0, card="knife")
        follows(state, type="give_up", player=0)
        assert state.players[0].beatings == 1 and state.players[1].beatings == 0


@rule_test("CMB-2")
class TestCmb2:
    def test_breaks(self):
        """The King's Choice takes a card the loser holds: not one they don't."""
        state = duel(
            attacker=("knife", "knife"),
            defender=("links", "rare"),
            fields={0: {"gang": "cartel", "ability": "the_kings_choice"}},
        )
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="give_up", player=1)
        assert state.pending.kind == "kings_choice" and state.pending.options == ["links", "rare"]
        breaks(state, "CMB-2", type="choose", player=0, option="blade")

    def test_the_refusal_names_the_options_plainly(self):
        state = duel(
            attacker=("knife", "knife"),
            defender=("links", "rare"),
            fields={0: {"gang": "cartel", "ability": "the_kings_choice"}},
        )
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="give_up", player=1)
        answer = breaks(state, "CMB-2", type="choose", player=0, option="blade")
        assert answer.violations[0].message == "Choose one of: Links, Rare item."

    def test_follows(self):
        """The attacker won and the defender holds the Tool: the attacker takes it; 1 Beating."""
        state = duel(defender=("spoon", "rare"))
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="fight", player=1)
        follows(state, type="give_up", player=1)
        assert known(state, 0) == {"knife": 1, "spoon": 1} and known(state, 1) == {"rare": 1}
        assert [p.beatings for p in state.players] == [0, 1, 0]

    def test_the_defender_wins_and_takes_a_random_card(self):
        state = duel(attacker=("knife", "links"), defender=("blade",))
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="weapon", player=1, card="blade")
        follows(state, type="give_up", player=0)
        assert [p.beatings for p in state.players] == [1, 0, 0]
        assert known(state, 0) == {} and known(state, 1) == {"links": 1}

    def test_without_the_tool_the_attacker_takes_a_random_card(self):
        state = duel(defender=("rare",))
        follows(state, type="extort", player=0, target=1, tool="shovel", weapons=["knife"])
        answer = follows(state, type="give_up", player=1)
        assert known(state, 0) == {"knife": 1, "rare": 1} and known(state, 1) == {}
        assert {"type": "give", "player": 1, "to": 0, "card": "rare", "why": "combat"} in said(answer)

    def test_an_empty_hand_gives_nothing(self):
        state = duel(defender=())
        follows(state, type="extort", player=0, target=1, tool="shovel", weapons=["knife"])
        follows(state, type="give_up", player=1)
        assert known(state, 0) == {"knife": 1} and state.players[1].beatings == 1


@rule_test("CMB-3")
class TestCmb3:
    def test_breaks(self):
        """Outcome rule. The adversarial attempt: re-use the intimidation Knife after the combat.
        It was discarded, so the engine refuses the sale with HAND-1."""
        state = duel(attacker=("knife",), place="recreational_area")
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="cooperate", player=1)
        breaks(state, "HAND-1", type="sell", player=0, cards=["knife"], cigarettes=1)

    def test_follows(self):
        """Every Weapon played, intimidation included: Knives to their pile, Blades to the discard."""
        state = duel(attacker=("knife", "blade"), defender=("blade", "knife"))
        assert state.piles["knife"] == 17
        follows(state, type="extort", player=0, target=1, tool="pickaxe", weapons=["knife"])
        follows(state, type="weapon", player=1, card="blade")
        follows(state, type="weapon", player=0, card="blade")
        follows(state, type="weapon", player=1, card="knife")
        answer = follows(state, type="give_up", player=0)
        assert state.piles["knife"] == 19 and state.discard == ["blade", "blade"]
        assert {
            "type": "discard",
            "player": None,
            "cards": ["knife", "blade", "blade", "knife"],
            "why": "combat",
        } in said(answer)
        assert known(state, 0) == {} and known(state, 1) == {}


@rule_test("BEAT-1")
class TestBeat1:
    def test_breaks(self):
        """A correction to 3 Beatings is refused."""
        state = start()
        answer = breaks(state, "BEAT-1", type="adjust", player=0, changes=[{"path": "players.1.beatings", "set": 3}])
        assert answer.violations[0].message == "players.1.beatings must be a whole number from 0 to 2."

    def test_breaks_at_setup(self):
        with pytest.raises(ConfigError) as error:
            start(player_fields={0: {"beatings": 3}})
        assert error.value.rule == "BEAT-1"

    def test_follows(self):
        """A Beating beyond 2 is not taken."""
        state = duel(defender=("rare",), fields={1: {"beatings": 2}})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        answer = follows(state, type="give_up", player=1)
        assert state.players[1].beatings == 2
        assert {"type": "beating", "player": 1, "count": 0, "total": 2, "why": "combat"} in said(answer)
