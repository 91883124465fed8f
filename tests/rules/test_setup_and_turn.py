"""SET-1, SET-2, WIN-1 (setup and goal) and TURN-1..5, HAND-1 (the turn and who may act)."""

import pytest

from companion.rules import ConfigError, new_game

from support import breaks, follows, known, rule_test, said, start


@rule_test("SET-1")
class TestSet1:
    def test_breaks(self):
        """Seven players: the configuration is refused, naming SET-1."""
        with pytest.raises(ConfigError) as error:
            new_game({"players": [{"name": f"P{seat}"} for seat in range(7)]})
        assert error.value.rule == "SET-1"
        assert error.value.message == "SET-1: A game has 2 to 6 players, not 7."

    def test_breaks_with_one_player(self):
        with pytest.raises(ConfigError) as error:
            start(1)
        assert error.value.rule == "SET-1"

    def test_breaks_with_a_seat_not_at_the_table(self):
        """An action by seat 5 in a 3-player game names SET-1."""
        state = start()
        answer = breaks(state, "SET-1", type="search", player=5)
        assert answer.violations[0].message == "There is no seat 5: this game has 3 players."

    @pytest.mark.parametrize("players", [2, 6])
    def test_follows(self, players):
        """2 to 6 players; every standee starts in the Cell Block."""
        state = start(players)
        assert len(state.players) == players
        assert [p.place for p in state.players] == ["cell_block"] * players
        follows(state, type="search", player=0)


@rule_test("SET-2")
class TestSet2:
    def test_breaks(self):
        """The first player must be a seat of the table."""
        with pytest.raises(ConfigError) as error:
            start(3, first_player=3)
        assert error.value.rule == "SET-2"

    def test_breaks_with_a_negative_starting_count(self):
        with pytest.raises(ConfigError) as error:
            start(3, player_fields={1: {"cigarettes": -2}})
        assert error.value.rule == "SET-2"

    def test_follows(self):
        """1 hidden Background and 3 Search cards each; play goes clockwise from the first player."""
        state = start(4, first_player=2)
        assert all(p.hand.known == {} and p.hand.unknown == 3 for p in state.players)
        assert all(p.has_background and p.background is None for p in state.players)
        assert state.deck == 77 - 12 and state.background_deck == 18 - 4
        assert state.active == 2 and state.actions_left == 2
        breaks(state, "TURN-4", type="search", player=0)
        follows(state, type="end_turn", player=2)
        assert state.active == 3
        follows(state, type="end_turn", player=3)
        assert state.active == 0 and state.turn == 3


@rule_test("WIN-1")
class TestWin1:
    def test_breaks(self):
        """Once the game is won, nothing more can be played."""
        state = start(hands={0: ["spoon"]}, player_fields={0: {"tunnel": 11}})
        follows(state, type="dig", player=0, tool="spoon")
        answer = breaks(state, "WIN-1", type="end_turn", player=0)
        assert answer.violations[0].message == "The game is over: Carmen won."
        breaks(state, "WIN-1", type="search", player=1)

    def test_follows(self):
        """Reaching 12 points with 3 players ends the game at once: that player wins."""
        state = start(hands={0: ["pickaxe"]}, player_fields={0: {"tunnel": 10}})
        answer = follows(state, type="dig", player=0, tool="pickaxe")
        assert state.winner == 0 and answer.winner == 0
        assert state.players[0].tunnel == 12
        assert {"type": "win", "winner": 0, "target": 12} in said(answer)

    def test_below_the_target_the_game_goes_on(self):
        state = start(hands={0: ["spoon"]}, player_fields={0: {"tunnel": 10}})
        follows(state, type="dig", player=0, tool="spoon")
        assert state.winner is None and state.players[0].tunnel == 11

    @pytest.mark.parametrize("players, target", [(2, 12), (3, 12), (4, 10), (5, 8), (6, 8)])
    def test_targets(self, players, target):
        assert start(players).target() == target

    def test_a_starting_score_at_the_target_is_refused(self):
        with pytest.raises(ConfigError) as error:
            start(4, player_fields={0: {"tunnel": 10}})
        assert error.value.rule == "WIN-1"


@rule_test("TURN-1")
class TestTurn1:
    def test_breaks(self):
        """A third action in a turn of 2 is refused."""
        state = start(player_fields={0: {"place": "cafeteria"}})
        follows(state, type="steal_spoon", player=0)
        follows(state, type="steal_spoon", player=0)
        answer = breaks(state, "TURN-1", type="steal_spoon", player=0)
        assert answer.violations[0].message == "That costs 1 action; you have 0 left."

    def test_follows(self):
        """Two actions, a basic one and the Place action; the next player then has 2."""
        state = start(player_fields={0: {"place": "cafeteria"}})
        follows(state, type="search", player=0, cards=["links", "pike"])
        assert state.actions_left == 1
        follows(state, type="steal_spoon", player=0)
        assert state.actions_left == 0 and known(state, 0) == {"links": 1, "pike": 1, "spoon": 1}
        follows(state, type="end_turn", player=0)
        assert state.active == 1 and state.actions_left == 2


@rule_test("TURN-2")
class TestTurn2:
    def test_breaks(self):
        """A turn-time Background cannot be revealed on another player's turn."""
        state = start(player_fields={1: {"beatings": 1}})
        answer = breaks(state, "TURN-2", type="reveal_background", player=1, card="i_got_strong_bones_they_say")
        assert answer.violations[0].message == "Free actions happen during your own turn; it is Carmen's turn."

    def test_breaks_a_passive_ability_used_as_an_action(self):
        """An ability not marked "as 1 action" is not used as an action."""
        state = start(player_fields={0: {"gang": "crew", "ability": "collect"}})
        breaks(state, "TURN-2", type="gang_ability", player=0, ability="collect")

    def test_follows(self):
        """Revealing a Background costs no action, even after the last action of the turn."""
        state = start(player_fields={0: {"beatings": 2, "place": "cafeteria"}})
        follows(state, type="steal_spoon", player=0)
        follows(state, type="steal_spoon", player=0)
        assert state.actions_left == 0
        follows(state, type="reveal_background", player=0, card="i_got_strong_bones_they_say")
        assert state.players[0].beatings == 1 and state.actions_left == 0 and state.active == 0


@rule_test("TURN-3")
class TestTurn3:
    ELEVEN = ["links"] * 5 + ["pike"] * 3 + ["rare"] * 3

    def test_breaks(self):
        """11 cards at the end of the turn: discard 1 first."""
        state = start(hands={0: self.ELEVEN})
        answer = breaks(state, "TURN-3", type="end_turn", player=0)
        assert answer.violations[0].message == "You hold 11 cards: discard 1 to end your turn (limit 10)."

    def test_breaks_discarding_too_many(self):
        state = start(hands={0: self.ELEVEN})
        breaks(state, "TURN-3", type="end_turn", player=0, discard=["rare", "rare"])

    def test_breaks_discarding_within_the_limit(self):
        state = start()
        breaks(state, "TURN-3", type="end_turn", player=0, discard=["unknown"])

    def test_follows(self):
        """The player chooses the card; it goes to the discard pile and the turn passes."""
        state = start(hands={0: self.ELEVEN})
        follows(state, type="end_turn", player=0, discard=["rare"])
        assert known(state, 0) == {"links": 5, "pike": 3, "rare": 2}
        assert state.discard == ["rare"] and state.active == 1

    def test_a_turn_ended_by_a_card_asks_for_the_discard(self):
        """Sent to Solitary by her own card, Carmen must still come down to 10 before the next turn."""
        state = start(hands={0: ["solitary_confinement"] + ["links"] * 11})
        answer = follows(state, type="play_action", player=0, card="solitary_confinement", target=0)
        assert answer.pending == {"kind": "hand_limit", "player": 0, "options": [], "discard": 1, "limit": 10}
        breaks(state, "TURN-3", type="end_turn", player=0)
        follows(state, type="end_turn", player=0, discard=["links"])
        assert known(state, 0) == {"links": 10} and state.active == 1 and state.pending is None

    def test_ten_cards_need_no_discard(self):
        state = start(hands={0: self.ELEVEN[:10]})
        follows(state, type="end_turn", player=0)
        assert state.players[0].hand.size() == 10 and state.active == 1


@rule_test("TURN-4")
class TestTurn4:
    def test_breaks(self):
        """Nicholas cannot act on Carmen's turn."""
        state = start()
        answer = breaks(state, "TURN-4", type="search", player=1)
        assert answer.violations[0].message == "It is Carmen's turn."

    def test_breaks_answering_someone_else_s_decision(self):
        state = start(hands={0: ["knife"], 1: ["spoon"]})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        breaks(state, "TURN-4", type="fight", player=2)

    def test_follows(self):
        """Answering an extortion is a reaction the rules allow out of turn."""
        state = start(hands={0: ["knife"], 1: ["spoon"]})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        assert state.pending.kind == "extortion_answer" and state.pending.player == 1
        follows(state, type="cooperate", player=1)
        assert known(state, 0) == {"spoon": 1} and known(state, 1) == {}
        assert state.pending is None and state.active == 0


@rule_test("TURN-5")
class TestTurn5:
    def test_breaks(self):
        """While Nicholas must answer the extortion, Carmen cannot go on with her turn."""
        state = start(hands={0: ["knife"], 1: ["spoon"]})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        answer = breaks(state, "TURN-5", type="search", player=0)
        assert answer.violations[0].message == "Waiting for Nicholas to cooperate or fight."

    def test_breaks_an_answer_without_a_question(self):
        state = start()
        answer = breaks(state, "TURN-5", type="choose", player=0, option="cafeteria")
        assert answer.violations[0].message == "There is no decision to answer."

    def test_follows(self):
        """A die face naming two Places leaves a destination decision; its answer moves the player."""
        state = start()
        answer = follows(state, type="move", player=0, die=[4])
        assert answer.pending == {
            "kind": "destination",
            "player": 0,
            "options": ["cafeteria", "recreational_area"],
            "die": 4,
            "effects": True,
        }
        breaks(state, "TURN-5", type="search", player=0)
        follows(state, type="choose", player=0, option="recreational_area")
        assert state.players[0].place == "recreational_area" and state.pending is None
        assert state.actions_left == 1


@rule_test("HAND-1")
class TestHand1:
    def test_breaks(self):
        """A hand of known cards only: no Shovel to Dig."""
        state = start(hands={0: ["spoon"]})
        answer = breaks(state, "HAND-1", type="dig", player=0, tool="shovel")
        assert answer.violations[0].message == "Carmen has no Shovel in hand."

    def test_breaks_an_unknown_card_is_never_a_tool(self):
        """Tools come from the board, so they are always known: an unknown card cannot be one."""
        state = start()
        breaks(state, "HAND-1", type="dig", player=0, tool="spoon")

    def test_follows(self):
        """A card nobody entered is taken as the card the action needs."""
        state = start(player_fields={0: {"place": "recreational_area"}})
        follows(state, type="sell", player=0, cards=["ring", "unknown"], cigarettes=3)
        assert known(state, 0) == {} and state.players[0].hand.unknown == 1
        assert state.discard == ["ring", "unknown"] and state.players[0].cigarettes == 3


def test_a_round_is_one_turn_of_every_player_from_the_first():
    """The table counts rounds: the engine's `round` moves on when play comes back to the first
    player (here the second seat), whoever ended each turn; views carry it too."""
    from companion.rules import round_of, view

    state = start(3, first_player=1)
    rounds = []
    for _ in range(7):
        rounds.append((state.turn, state.round, state.active))
        follows(state, type="end_turn", player=state.active)
    assert rounds == [(1, 1, 1), (2, 1, 2), (3, 1, 0), (4, 2, 1), (5, 2, 2), (6, 2, 0), (7, 3, 1)]
    assert view(state, 0).round == 3
    assert [round_of(turn, 2) for turn in range(1, 6)] == [1, 1, 2, 2, 3]
