"""The Library (LIB-1..3): Rehabilitate, Study, and the Spy token used during your own turn."""

from support import breaks, follows, rule_test, said, start

LIBRARY = {"places": ["library"]}


def _in_library(**fields):
    return start(3, modules=LIBRARY, player_fields={0: {"place": "library", **fields}})


@rule_test("LIB-1")
class TestLib1:
    def test_breaks(self):
        """Rehabilitate is a Library action."""
        state = start(3, modules=LIBRARY)
        answer = breaks(state, "LIB-1", type="rehabilitate", player=0)
        assert answer.violations[0].message == "Rehabilitate is not possible in the Cell Block (only in: Library)."

    def test_breaks_empty_background_deck(self):
        state = _in_library()
        state.background_deck = 0
        breaks(state, "LIB-1", type="rehabilitate", player=0)

    def test_follows(self):
        """An unused Background is discarded and a new one drawn, for 1 action."""
        state = _in_library(background="too_fast_for_you")
        deck = state.background_deck
        answer = follows(state, type="rehabilitate", player=0, card="i_got_strong_bones_they_say")
        p = state.players[0]
        assert state.background_discard == ["too_fast_for_you"]
        assert state.background_deck == deck - 1
        assert p.has_background and p.background == "i_got_strong_bones_they_say"
        assert state.actions_left == 1
        assert {"type": "rehabilitate", "player": 0} in said(answer)

    def test_follows_after_the_background_was_used(self):
        """A used Background is not discarded again: just draw; the new one can be revealed later."""
        state = _in_library(background="too_fast_for_you")
        follows(state, type="reveal_background", player=0, card="too_fast_for_you")
        deck = state.background_deck
        follows(state, type="rehabilitate", player=0, card="i_got_strong_bones_they_say")
        p = state.players[0]
        assert state.background_discard == [] and state.background_deck == deck - 1
        assert p.has_background and p.revealed == ["too_fast_for_you"]
        p.beatings = 1
        follows(state, type="reveal_background", player=0, card="i_got_strong_bones_they_say")
        assert p.beatings == 0 and p.revealed == ["too_fast_for_you", "i_got_strong_bones_they_say"]


@rule_test("LIB-2")
class TestLib2:
    def test_breaks(self):
        state = start(3, modules=LIBRARY)
        breaks(state, "LIB-2", type="study", player=0)

    def test_breaks_empty_supply(self):
        state = _in_library()
        state.supplies["spy"] = 0
        breaks(state, "SUP-6", type="study", player=0)

    def test_follows(self):
        state = _in_library()
        follows(state, type="study", player=0)
        assert state.players[0].tokens == {"spy": 1}
        assert state.supplies["spy"] == 9 and state.actions_left == 1


@rule_test("LIB-3")
class TestLib3:
    def test_breaks(self):
        """No Spy token, no look."""
        state = start(3, modules=LIBRARY)
        answer = breaks(state, "LIB-3", type="spy", player=0, target=1)
        assert answer.violations[0].message == "You have no Spy token."

    def test_breaks_spying_on_yourself(self):
        state = start(3, modules=LIBRARY, player_fields={0: {"tokens": {"spy": 1}}})
        breaks(state, "LIB-3", type="spy", player=0, target=0)

    def test_breaks_out_of_turn(self):
        """Spy use is not a reaction (TURN-4 names LIB-3): only during your own turn."""
        state = start(3, modules=LIBRARY, player_fields={1: {"tokens": {"spy": 1}}})
        breaks(state, "TURN-4", type="spy", player=1, target=0)

    def test_follows(self):
        """Anywhere (here the Cell Block), free: the token goes back to the Library's supply."""
        state = start(3, modules=LIBRARY, player_fields={0: {"tokens": {"spy": 2}}})
        answer = follows(state, type="spy", player=0, target=2)
        assert state.players[0].tokens == {"spy": 1}
        assert state.supplies["spy"] == 9
        assert state.actions_left == 2
        assert {"type": "spy", "player": 0, "target": 2, "hand": {"known": {}, "unknown": 3}} in said(answer)

    def test_follows_after_the_last_action(self):
        """Costing no action, a Spy token can still be used with no action left."""
        state = start(3, modules=LIBRARY, player_fields={0: {"tokens": {"spy": 1}}})
        state.actions_left = 0
        follows(state, type="spy", player=0, target=1)
        assert state.players[0].tokens == {}
