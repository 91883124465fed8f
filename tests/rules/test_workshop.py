"""The Workshop (WORK-1..3): Improve tool both ways, Develop skills, and the Skill roll on the next Dig."""

from support import breaks, follows, known, rule_test, said, start

WORKSHOP = {"places": ["workshop"]}


def _in_workshop(hand=None, **fields):
    return start(
        3,
        modules=WORKSHOP,
        hands=None if hand is None else {0: hand},
        player_fields={0: {"place": "workshop", **fields}},
    )


@rule_test("WORK-1")
class TestWork1:
    def test_breaks(self):
        """Improve tool is a Workshop action."""
        state = start(3, modules=WORKSHOP, hands={0: ["pickaxe"]})
        breaks(state, "WORK-1", type="improve_tool", player=0, tool="pickaxe")

    def test_breaks_a_spoon_cannot_be_improved(self):
        state = _in_workshop(["spoon"])
        answer = breaks(state, "WORK-1", type="improve_tool", player=0, tool="spoon")
        assert answer.violations[0].message == "Improve tool discards a Pickaxe or a Shovel."

    def test_breaks_without_the_tool(self):
        state = _in_workshop(["shovel"])
        breaks(state, "HAND-1", type="improve_tool", player=0, tool="pickaxe")

    def test_breaks_empty_pile(self):
        """SUP-2: a Shovel needs a Shovel left on the board."""
        state = _in_workshop(["pickaxe"])
        state.piles["shovel"] = 0
        breaks(state, "SUP-2", type="improve_tool", player=0, tool="pickaxe")

    def test_follows(self):
        """A Pickaxe becomes a Shovel."""
        state = _in_workshop(["pickaxe", "rare"])
        follows(state, type="improve_tool", player=0, tool="pickaxe")
        assert known(state, 0) == {"shovel": 1, "rare": 1}
        assert (state.piles["pickaxe"], state.piles["shovel"]) == (11, 10)
        assert state.actions_left == 1

    def test_follows_shovel_to_two_pickaxes(self):
        state = _in_workshop(["shovel"])
        follows(state, type="improve_tool", player=0, tool="shovel")
        assert known(state, 0) == {"pickaxe": 2}
        assert (state.piles["pickaxe"], state.piles["shovel"]) == (9, 11)

    def test_breaks_steal_spoon_gone(self):
        """The Workshop replaces Steal a Spoon: it is offered nowhere."""
        state = _in_workshop()
        breaks(state, "SPOON-1", type="steal_spoon", player=0)

    def test_steal_spoon_message_is_clear(self):
        state = _in_workshop()
        answer = breaks(state, "SPOON-1", type="steal_spoon", player=0)
        assert "(only in: )" not in answer.violations[0].message


@rule_test("WORK-2")
class TestWork2:
    def test_breaks(self):
        state = start(3, modules=WORKSHOP)
        breaks(state, "WORK-2", type="develop_skills", player=0)

    def test_follows(self):
        state = _in_workshop()
        follows(state, type="develop_skills", player=0)
        assert state.players[0].tokens == {"skill": 1}
        assert state.supplies["skill"] == 9 and state.actions_left == 1


@rule_test("WORK-3")
class TestWork3:
    def test_breaks(self):
        """A Dig without a Skill token has no Skill roll to enter."""
        state = start(3, modules=WORKSHOP, hands={0: ["spoon"]})
        answer = breaks(state, "WORK-3", type="dig", player=0, tool="spoon", die=[5])
        assert answer.violations[0].message == "You hold no Skill token: this Dig has no Skill roll."

    def test_follows(self):
        """4 or more: the token is fixed on the Tool and scores 1 more point; it does not go back."""
        state = start(3, modules=WORKSHOP, hands={0: ["pickaxe"]}, player_fields={0: {"tokens": {"skill": 1}}})
        state.supplies["skill"] = 9
        answer = follows(state, type="dig", player=0, tool="pickaxe", die=[4])
        p = state.players[0]
        assert p.tunnel == 3 and p.dug == ["pickaxe"]
        assert p.tokens == {} and p.skills_on_tools == 1
        assert state.supplies["skill"] == 9
        assert {"type": "skill", "player": 0, "points": 1, "tunnel": 3} in said(answer)

    def test_follows_failed_roll(self):
        """3 or less: the token is discarded to its supply, no extra point."""
        state = start(3, modules=WORKSHOP, hands={0: ["pickaxe"]}, player_fields={0: {"tokens": {"skill": 1}}})
        state.supplies["skill"] = 9
        follows(state, type="dig", player=0, tool="pickaxe", die=[3])
        p = state.players[0]
        assert p.tunnel == 2 and p.tokens == {} and p.skills_on_tools == 0
        assert state.supplies["skill"] == 10

    def test_follows_develop_then_dig(self):
        """The whole chain: Develop skills in the Workshop, walk home, Dig next turn with a 6."""
        state = start(2, modules=WORKSHOP, hands={0: ["shovel"]}, player_fields={0: {"place": "workshop"}})
        follows(state, type="develop_skills", player=0)
        follows(state, type="move", player=0, die=[1], to="cell_block")
        follows(state, type="end_turn", player=0)
        follows(state, type="end_turn", player=1)
        follows(state, type="dig", player=0, tool="shovel", die=[6])
        assert state.players[0].tunnel == 4 and state.players[0].skills_on_tools == 1
        assert state.supplies["skill"] == 9

    def test_follows_skill_point_wins(self):
        """The Skill point counts for the target: 10 + Spoon 1 + Skill 1 = 12 wins (3 players)."""
        state = start(
            3, modules=WORKSHOP, hands={0: ["spoon"]}, player_fields={0: {"tunnel": 10, "tokens": {"skill": 1}}}
        )
        answer = follows(state, type="dig", player=0, tool="spoon", die=[4])
        assert answer.winner == 0 and state.players[0].tunnel == 12

    def test_follows_one_roll_per_dig(self):
        """With two tokens, one Dig rolls once and fixes one token."""
        state = start(3, modules=WORKSHOP, hands={0: ["spoon"]}, player_fields={0: {"tokens": {"skill": 2}}})
        answer = follows(state, type="dig", player=0, tool="spoon", die=[5])
        assert state.players[0].tokens == {"skill": 1} and state.players[0].tunnel == 2
        assert [e for e in said(answer) if e["type"] == "roll"] == [
            {"type": "roll", "player": 0, "die": 5, "source": "table", "why": "skill"}
        ]
