"""The decisions of docs/decisions.md, where the sources leave a moment open: each with a test
that shows the other reading refused (or not happening) and one that shows the legal counterpart.

A decision that changed what the engine does is rules version 3; a game of an older version
keeps what it was played with, and its test says so.
"""

import pytest

from support import breaks, follows, said, start

MICHEL = {"neutrals": 1}
NO_KNIFE = ["no_knife"] * 3  # the table's Michel cards: each extortion shows who Michel turned to


def extorted(answer) -> list[int]:
    """The players a neutral extorted, in order (one Michel card each)."""
    return [e["player"] for e in said(answer) if e["type"] == "michel_card"]


def calmed(answer) -> list[int]:
    return [e["player"] for e in said(answer) if e["type"] == "neutral_calm"]


class TestGetOutOfHereMovesMichel:
    """MICH-3: Michel moved by "Get Out of Here!" ends a move, so he extorts every player at the
    destination, not only the players the card brought there (rules version 3)."""

    def _reveal(self, version, **fields):
        """Carmen sends everyone to the Cafeteria, where Yellow already stands; Michel leaves the Showers."""
        state = start(modules=MICHEL, rules_version=version, player_fields={2: {"place": "cafeteria"}})
        answer = follows(
            state, type="reveal_background", player=0, card="get_out_of_here", michel_cards=NO_KNIFE, **fields
        )
        assert state.neutrals == {"michel": "cafeteria"}
        return state, answer

    def test_breaks(self):
        """Yellow did not move, Michel came to her: she is extorted too, after Nicholas (clockwise)."""
        state, answer = self._reveal(3, to="cafeteria")
        assert extorted(answer) == [1, 2]
        assert [p.place for p in state.players] == ["cell_block", "cafeteria", "cafeteria"]

    def test_breaks_the_revealer_at_the_destination(self):
        """Carmen sends everyone to her own Place: Michel extorts her with the others."""
        state = start(modules=MICHEL)
        answer = follows(
            state, type="reveal_background", player=0, card="get_out_of_here", to="cell_block", michel_cards=NO_KNIFE
        )
        assert extorted(answer) == [0, 1, 2]

    def test_follows_who_leaves_with_the_bonus(self):
        """Who leaves with the bonus is not at the destination: Michel extorts the other two."""
        state = start(modules=MICHEL, player_fields={0: {"gang": "bikers"}, 2: {"place": "cafeteria"}}, rules_version=3)
        answer = follows(
            state,
            type="reveal_background",
            player=0,
            card="get_out_of_here",
            to="cafeteria",
            own_to="infirmary",
            michel_cards=NO_KNIFE,
        )
        assert extorted(answer) == [1, 2] and state.players[0].place == "infirmary"

    def test_follows_with_the_warden(self):
        """The card moves the Warden there too: Michel keeps calm with everyone (MICH-8)."""
        state = start(modules={"neutrals": 1, "warden": True}, player_fields={2: {"place": "cafeteria"}})
        answer = follows(
            state, type="reveal_background", player=0, card="get_out_of_here", to="cafeteria", michel_cards=NO_KNIFE
        )
        assert extorted(answer) == [] and calmed(answer) == [1, 2]

    @pytest.mark.parametrize("version", [1, 2])
    def test_older_games_extort_only_the_players_brought(self, version):
        state, answer = self._reveal(version, to="cafeteria")
        assert extorted(answer) == [1]


class TestThisIsMyTurfSendsEveryStandee:
    """The bonus of "This Is My Turf." sends "all other standees" in the Cell Block to Solitary:
    Michel's and the Warden's too, as "Get Out of Here!" moves every standee (rules version 3)."""

    def _turf(self, version, warden, where="cell_block"):
        """Carmen, a Biker, walks from the Showers to the Cell Block, where Nicholas and Yellow stand."""
        modules = {"neutrals": 1, "warden": warden}
        setup = {"neutrals": {"michel": where}} | ({"warden": where} if warden else {})
        state = start(
            modules=modules,
            rules_version=version,
            start=setup,
            player_fields={0: {"place": "showers", "gang": "bikers"}},
        )
        answer = follows(state, type="reveal_background", player=0, card="this_is_my_turf", michel_cards=NO_KNIFE)
        assert [p.place for p in state.players] == ["cell_block", "solitary", "solitary"]
        return state, answer

    def test_breaks(self):
        """Michel goes to Solitary and ends his move there: he extorts Nicholas and Yellow (MICH-3);
        Carmen, who came into the Cell Block as he left, is not extorted."""
        state, answer = self._turf(3, warden=False)
        assert state.neutrals == {"michel": "solitary"}
        assert extorted(answer) == [1, 2]

    def test_breaks_the_warden_goes_too(self):
        state, answer = self._turf(3, warden=True)
        assert state.neutrals == {"michel": "solitary"} and state.warden == "solitary"
        assert {"type": "warden_move", "to": "solitary", "why": "this_is_my_turf"} in said(answer)
        assert extorted(answer) == [] and calmed(answer) == [1, 2]

    def test_follows(self):
        """Standees outside the Cell Block stay where they are."""
        state, answer = self._turf(3, warden=True, where="infirmary")
        assert state.neutrals == {"michel": "infirmary"} and state.warden == "infirmary"
        assert extorted(answer) == [] and calmed(answer) == []

    @pytest.mark.parametrize("version", [1, 2])
    def test_older_games_send_only_the_players(self, version):
        """Michel stays in the Cell Block and extorts Carmen as she arrives."""
        state, answer = self._turf(version, warden=False)
        assert state.neutrals == {"michel": "cell_block"}
        assert extorted(answer) == [0]


class TestCutYouNeedsAnAttackerWithAHand:
    """The Background "I Will Cut You with Your Own Blade!" makes the attacker hand over a Weapon
    "from their hand"; Michel and Michelle hold none (MICH-1): not against them (BG)."""

    def test_breaks(self):
        state = start(hands={0: ["knife"]}, modules=MICHEL, player_fields={0: {"place": "infirmary"}})
        follows(state, type="move", player=0, die=[5], to="showers", michel_cards=["knife_shovel"])
        assert state.pending.kind == "combat" and state.combat.neutral == "michel"
        answer = breaks(state, "BG", type="reveal_background", player=0, card="i_will_cut_you_with_your_own_blade")
        assert answer.violations[0].key == "v.bg_no_attacker_hand"
        assert answer.violations[0].message == (
            "“I Will Cut You with Your Own Blade!” needs an attacker who gives a Weapon from their hand: "
            "Michel has no hand."
        )

    def test_follows(self):
        """Against a player who extorts her, Nicholas reveals it as the combat begins."""
        state = start(
            hands={0: ["knife", "blade"], 1: []},
            player_fields={0: {"place": "cafeteria"}, 1: {"place": "cafeteria"}},
        )
        follows(state, type="extort", player=0, target=1, tool="pickaxe", weapons=["knife"])
        answer = follows(state, type="reveal_background", player=1, card="i_will_cut_you_with_your_own_blade")
        assert answer.pending == {"kind": "give_weapon", "player": 0, "options": ["blade", "lose"], "to": 1}


def warden_table(ability=None, **fields):
    """The Warden in the Cell Block; Nicholas holds a Corruption token; Carmen may be a Biker."""
    player_fields = {0: {"cigarettes": 2}, 1: {"tokens": {"corruption": 1}}}
    if ability is not None:
        player_fields[0].update(gang="bikers", ability=ability)
    for seat, extra in fields.pop("player_fields", {}).items():
        player_fields.setdefault(seat, {}).update(extra)
    return start(modules=fields.pop("modules", {"warden": True}), player_fields=player_fields, **fields)


class TestBikersMovesAreNoMoveAction:
    """OFF-3's Move follows "the Move action" (a Simple or a Cautious move). Master Key and (Not So)
    Free Pass are Gang abilities used "as 1 action", actions of their own like Group Deal: after
    them a Corruption token cannot move the Warden."""

    @pytest.mark.parametrize("ability", ["master_key", "not_so_free_pass"])
    def test_breaks(self, ability):
        state = warden_table(ability)
        follows(state, type="gang_ability", player=0, ability=ability, to="cafeteria")
        answer = breaks(state, "OFF-3", type="corruption", player=1, effect="move", to="cafeteria")
        assert answer.violations[0].key == "v.move_no_occasion"
        assert state.warden == "cell_block"

    @pytest.mark.parametrize("ability", ["master_key", "lucky_number"])
    def test_follows(self, ability):
        """The same Biker's Simple move is one (Lucky Number only changes what its die gives)."""
        state = warden_table(ability)
        follows(state, type="move", player=0, die=[1], to="cafeteria")
        follows(state, type="corruption", player=1, effect="move", to="cafeteria")
        assert state.warden == "cafeteria"


class TestCorruptionMoveWaitsForMichel:
    """A Move that ends in Michel's Place makes him extort at once (MICH-3). While that extortion
    waits for its answer, a Corruption "Move" waits too (TURN-5): moving the Warden in mid-way
    would calm what the move already started (MICH-8). The occasion stays open until the next
    action, so the token may still move her once the extortion is over."""

    def _into_michels_place(self, cards):
        state = warden_table(
            modules={"warden": True, "neutrals": 1},
            hands={0: ["spoon"]},
            player_fields={0: {"place": "infirmary"}},
        )
        follows(state, type="move", player=0, die=[5], to="showers", michel_cards=cards)
        return state

    def test_breaks(self):
        state = self._into_michels_place(["knife_spoon"])
        assert state.pending.kind == "michel_answer"
        answer = breaks(state, "TURN-5", type="corruption", player=1, effect="move", to="showers")
        assert answer.violations[0].key == "v.decision_pending"

    def test_breaks_during_the_combat(self):
        state = self._into_michels_place(["knife_spoon"])
        follows(state, type="fight", player=0)
        assert state.pending.kind == "combat"
        breaks(state, "TURN-5", type="corruption", player=1, effect="move", to="showers")

    def test_follows(self):
        """Carmen gives Michel her Spoon; then Nicholas moves the Warden after her move."""
        state = self._into_michels_place(["knife_spoon"])
        follows(state, type="cooperate", player=0)
        assert state.pending is None
        answer = follows(state, type="corruption", player=1, effect="move", to="showers")
        assert state.warden == "showers"
        assert {"type": "warden_move", "to": "showers", "why": "corruption", "player": 1} in said(answer)

    def test_follows_when_michel_shows_no_knife(self):
        """No Knife: the extortion ends at once and nothing waits."""
        state = self._into_michels_place(["no_knife"])
        follows(state, type="corruption", player=1, effect="move", to="infirmary")
        assert state.warden == "infirmary"


class TestPlayersStartWithoutCigarettes:
    """No source gives a starting number of cigarettes (the Italian example round starts with none):
    the preset number `starting_cigarettes` is 0, and a house rule changes it like the starting hand."""

    def test_official_and_simplified_start_with_none(self):
        for ruleset in ("official", "online-simplified"):
            assert [p.cigarettes for p in start(3, ruleset=ruleset).players] == [0, 0, 0]

    def test_a_house_rule_gives_some_and_a_seat_entered_keeps_its_own(self):
        state = start(3, house_rules={"starting_cigarettes": 3}, player_fields={1: {"cigarettes": 0}})
        assert [p.cigarettes for p in state.players] == [3, 0, 3]
