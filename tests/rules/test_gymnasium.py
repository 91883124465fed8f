"""The Gymnasium (GYM-1..2): Brawl with every other player's answer and roll, Workout and the
Bodybuilding token inside a combat."""

from support import breaks, follows, known, rule_test, said, start

GYM = {"places": ["gymnasium"]}


def _brawl_room(hands, first=1, players=4, **extra):
    """Everybody in the Gymnasium; seat `first` plays."""
    return start(
        players,
        modules=extra.pop("modules", GYM),
        hands=hands,
        first_player=first,
        player_fields={seat: {"place": "gymnasium"} for seat in range(players)},
        **extra,
    )


@rule_test("GYM-1")
class TestGym1:
    def test_breaks(self):
        """Brawl only in the Gymnasium."""
        state = start(3, modules=GYM, hands={0: ["knife"]})
        breaks(state, "GYM-1", type="brawl", player=0, weapon="knife")

    def test_breaks_without_a_weapon(self):
        state = _brawl_room({1: ["rare"]})
        answer = breaks(state, "GYM-1", type="brawl", player=1, weapon="rare")
        assert answer.violations[0].message == "Rare item is not a Weapon: only Knives and Blades are."

    def test_breaks_answer_with_a_non_weapon(self):
        state = _brawl_room({1: ["knife"], 2: ["rare"]})
        follows(state, type="brawl", player=1, weapon="knife")
        breaks(state, "GYM-1", type="brawl_response", player=2, discard="rare")

    def test_breaks_answers_out_of_order(self):
        """The players answer in turn, clockwise from the brawler."""
        state = _brawl_room({1: ["knife"], 3: ["knife"]})
        follows(state, type="brawl", player=1, weapon="knife")
        breaks(state, "TURN-4", type="brawl_response", player=3, discard="knife")

    def test_follows(self):
        """Nicholas brawls: Yellow discards, Dana takes a Beating, Carmen discards; then Yellow rolls 2
        (to Solitary) and Carmen 3 (stays). Nicholas never rolls; Eli in the Showers is not involved."""
        state = start(
            5,
            modules=GYM,
            first_player=1,
            hands={0: ["knife"], 1: ["blade"], 2: ["knife"], 3: ["knife"], 4: ["knife"]},
            player_fields={seat: {"place": "gymnasium"} for seat in range(4)} | {4: {"place": "showers"}},
        )
        answer = follows(state, type="brawl", player=1, weapon="blade")
        assert {"type": "brawl", "player": 1, "place": "gymnasium", "players": [2, 3, 0]} in said(answer)
        assert answer.pending == {"kind": "brawl_response", "player": 2, "options": ["weapon", "beating"]}
        follows(state, type="brawl_response", player=2, discard="knife")
        follows(state, type="brawl_response", player=3, discard=None)
        answer = follows(state, type="brawl_response", player=0, discard="knife", die=[2, 3])
        rolls = [(e["player"], e["die"]) for e in said(answer) if e["type"] == "roll"]
        assert rolls == [(2, 2), (0, 3)]
        assert [p.place for p in state.players] == ["gymnasium", "gymnasium", "solitary", "gymnasium", "showers"]
        assert [p.beatings for p in state.players] == [0, 0, 0, 1, 0]
        assert [known(state, seat) for seat in range(5)] == [{}, {}, {}, {"knife": 1}, {"knife": 1}]
        assert state.discard == ["blade"] and state.piles["knife"] == 20 - 2
        assert state.pending is None and state.actions_left == 1 and state.active == 1

    def test_follows_to_the_psychiatric_ward(self):
        """A roll of 1 with the Psychiatric Ward in play sends there and draws a Trauma."""
        state = _brawl_room(
            {1: ["knife"], 2: ["knife"]}, players=3, modules={"places": ["gymnasium", "psychiatric_ward"]}
        )
        top = state.trauma_stack[0]
        follows(state, type="brawl", player=1, weapon="knife")
        follows(state, type="brawl_response", player=2, discard="knife")
        follows(state, type="brawl_response", player=0, discard=None, die=[1])
        assert state.players[2].place == "psychiatric_ward" and state.players[2].trauma == top
        assert state.players[0].beatings == 1

    def test_follows_alone(self):
        """Nobody else in the Gymnasium: the Weapon is discarded and nothing else happens."""
        state = start(3, modules=GYM, hands={0: ["knife"]}, player_fields={0: {"place": "gymnasium"}})
        answer = follows(state, type="brawl", player=0, weapon="knife")
        assert answer.pending is None and state.piles["knife"] == 20 and state.actions_left == 1


def _fight(tokens=1, defender_hand=("knife",)):
    """Carmen extorts Nicholas, who holds Bodybuilding tokens; Nicholas is due to play."""
    state = start(
        2,
        modules=GYM,
        hands={0: ["knife", "knife", "knife"], 1: list(defender_hand)},
        player_fields={1: {"tokens": {"bodybuilding": tokens}}},
    )
    answer = follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
    assert answer.pending["options"] == ["weapon", "give_up", "bodybuilding"]
    return state


@rule_test("GYM-2")
class TestGym2:
    def test_breaks(self):
        """Workout only in the Gymnasium."""
        state = start(3, modules=GYM)
        breaks(state, "GYM-2", type="workout", player=0)

    def test_breaks_bodybuilding_without_a_token(self):
        state = _fight()
        follows(state, type="bodybuilding", player=1, die=[2])
        answer = breaks(state, "GYM-2", type="bodybuilding", player=1, die=[5])
        assert answer.violations[0].message == "You have no Bodybuilding token."

    def test_follows(self):
        """Workout takes a token."""
        state = start(3, modules=GYM, player_fields={0: {"place": "gymnasium"}})
        follows(state, type="workout", player=0)
        assert state.players[0].tokens == {"bodybuilding": 1}
        assert state.supplies["bodybuilding"] == 9 and state.actions_left == 1

    def test_follows_four_exempts(self):
        """4: the token is spent and Nicholas is exempt: the attacker must play next."""
        state = _fight()
        answer = follows(state, type="bodybuilding", player=1, die=[4])
        assert state.players[1].tokens == {} and state.supplies["bodybuilding"] == 10
        assert known(state, 1) == {"knife": 1}
        assert answer.pending["player"] == 0 and answer.pending["options"] == ["weapon", "give_up"]
        assert {"type": "exempt", "player": 1} in said(answer)

    def test_follows_six_returns_the_token(self):
        state = _fight()
        follows(state, type="bodybuilding", player=1, die=[6])
        assert state.players[1].tokens == {"bodybuilding": 1} and state.supplies["bodybuilding"] == 9
        assert state.pending.player == 0

    def test_follows_three_must_still_play(self):
        """3: the token is lost and Nicholas must play (or give up) as usual."""
        state = _fight()
        answer = follows(state, type="bodybuilding", player=1, die=[3])
        assert state.players[1].tokens == {} and state.supplies["bodybuilding"] == 10
        assert answer.pending["player"] == 1 and answer.pending["options"] == ["weapon", "give_up"]
        follows(state, type="weapon", player=1, card="knife")
        assert state.pending.player == 0

    def test_follows_against_michel(self):
        """A fight with Michel is a fight too: a 5 exempts Carmen, Michel's next card has no Knife,
        so she wins and draws 1 Search card without playing a Weapon."""
        state = start(
            2,
            modules={"neutrals": 1, "places": ["gymnasium"]},
            start={"neutrals": {"michel": "cafeteria"}},
            hands={0: ["rare"]},
            player_fields={0: {"tokens": {"bodybuilding": 1}}},
        )
        answer = follows(state, type="move", player=0, die=[1], to="cafeteria", michel_cards=["knife_spoon"])
        assert answer.pending["options"] == ["weapon", "give_up", "bodybuilding"]
        follows(state, type="bodybuilding", player=0, die=[5], michel_cards=["no_knife"])
        p = state.players[0]
        assert p.beatings == 0 and p.tokens == {} and p.hand.to_json() == {"known": {"rare": 1}, "unknown": 1}
        assert state.combat is None and state.pending is None

    def test_follows_exempt_defender_wins(self):
        """Two exemptions in a row win a fight with no Weapon of one's own: the attacker gives up."""
        state = _fight(tokens=2, defender_hand=())
        follows(state, type="bodybuilding", player=1, die=[5])
        follows(state, type="weapon", player=0, card="knife")
        follows(state, type="bodybuilding", player=1, die=[4])
        follows(state, type="give_up", player=0)
        assert (state.players[0].beatings, state.players[1].beatings) == (1, 0)
        assert known(state, 0) == {} and known(state, 1) == {"knife": 1}  # the winner's random card
        assert state.piles["knife"] == 20 - 1
