"""CRAFT-1 and BEAT-2: where and when a player may Craft."""

from support import breaks, follows, known, play, rule_test, start


@rule_test("CRAFT-1")
class TestCraft1:
    def test_breaks(self):
        state = start(hands={0: ["links", "pike"]})  # everybody starts in the Cell Block
        answer = breaks(state, "CRAFT-1", type="craft", player=0, recipe="pickaxe")
        assert answer.violations[0].message == "No crafting in the Cell Block."

    def test_breaks_with_wrong_materials(self):
        state = start(hands={0: ["links", "container"]}, player_fields={0: {"place": "cafeteria"}})
        breaks(state, "CRAFT-1", type="craft", player=0, recipe="pickaxe", cards=["links", "container"])

    def test_follows(self):
        state = start(hands={0: ["links", "pike", "blade"]}, player_fields={0: {"place": "cafeteria"}})
        follows(state, type="craft", player=0, recipe="pickaxe")
        assert known(state, 0) == {"blade": 1, "pickaxe": 1}
        assert state.piles["pickaxe"] == 10
        assert state.discard == ["links", "pike"]

    def test_unknown_cards_stand_for_the_materials(self):
        state = start(player_fields={0: {"place": "infirmary"}})  # 3 cards nobody entered
        follows(state, type="craft", player=0, recipe="knives")
        assert known(state, 0) == {"knife": 2} and state.players[0].hand.unknown == 1


@rule_test("BEAT-2")
class TestBeat2:
    def test_breaks(self):
        state = start(hands={0: ["links", "pike"]}, player_fields={0: {"place": "cafeteria", "beatings": 1}})
        answer = breaks(state, "BEAT-2", type="craft", player=0, recipe="pickaxe")
        assert answer.violations[0].message == "You have 1 Beating: no Craft."

    def test_breaks_dig_with_two_beatings(self):
        state = start(hands={0: ["spoon"]}, player_fields={0: {"beatings": 2}})
        answer = breaks(state, "BEAT-2", type="dig", player=0, tool="spoon")
        assert answer.violations[0].message == "You have 2 Beatings: no Dig."

    def test_follows(self):
        state = start(hands={0: ["spoon"]}, player_fields={0: {"beatings": 1}})
        follows(state, type="dig", player=0, tool="spoon")
        assert state.players[0].tunnel == 1

    def test_every_violation_is_listed(self):
        state = start(hands={0: ["links", "pike"]}, player_fields={0: {"beatings": 1}})
        answer = play(state, type="craft", player=0, recipe="pickaxe")
        assert {v.rule for v in answer.violations} == {"CRAFT-1", "BEAT-2"}
