"""A screen the whole table sees (issue 14): no hand card and no drawn card in its models,
one hand shown on request until the next action or ten seconds."""

from __future__ import annotations

from companion.app.vm.log import log_view
from companion.app.vm.seat import event_lines
from companion.app.vm.shared import (
    REVEAL_SECONDS,
    HandReveal,
    is_shared,
    public_log_entries,
    shared_pending,
    shared_table,
)
from companion.app.vm.text import Tr
from companion.rules import new_game, parse_action, step

TR = Tr("en")
CONFIG = {"players": [{"name": "Carmen", "hand": ["blade", "spoon"]}, {"name": "Nicholas"},
                      {"name": "Yellow", "hand": ["knife", "knife", "unknown"]}], "seed": 3}
CARDS = ("Blade", "Spoon", "Knife")  # the cards the hands hold, as the screen would name them


def play(state, **action):
    answer = step(state, parse_action(action))
    assert answer.accepted, answer.to_json()
    return answer


def until_combat():
    """The tutorial round to Carmen's Weapon choice: the decision lists her cards."""
    s = new_game(CONFIG)
    play(s, type="move", player=0, die=[1])
    play(s, type="steal_spoon", player=0)
    play(s, type="end_turn", player=0)
    play(s, type="cautious_move", player=1, to="recreational_area")
    play(s, type="end_turn", player=1)
    play(s, type="move", player=2, die=[1])
    play(s, type="extort", player=2, target=0, tool="spoon", weapons=["knife"])
    play(s, type="fight", player=0)
    return s


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_shared_by_default_until_a_phone_joins():
    assert is_shared("auto", 0) and not is_shared("auto", 1)
    assert is_shared("shared", 2) and not is_shared("private", 0)


def test_the_shared_table_names_no_card_in_a_hand():
    s = until_combat()
    table = shared_table(s, TR, set(), None)
    assert all(p.hand_hidden and not p.hand_known and p.reveal == "show" for p in table.players)
    assert [p.hand_size for p in table.players] == [p.hand.size() for p in s.players]
    pend = shared_pending(s, TR, False, None)
    assert pend.locked == 0  # Carmen's Weapons are her cards
    assert not pend.pending.answers and pend.pending.pick is None
    assert not any(card in repr((table, pend)) for card in CARDS[:1])


def test_show_my_hand_until_the_next_action_or_ten_seconds():
    s = until_combat()
    clock = Clock()
    reveal = HandReveal(clock)
    version = 8
    reveal.show(0, version)
    shown = reveal.seat(version)
    table = shared_table(s, TR, set(), shown)
    carmen, others = table.players[0], table.players[1:]
    assert not carmen.hand_hidden and carmen.reveal == "hide" and ("Blade", 1) in carmen.hand_known
    assert all(p.hand_hidden and not p.hand_known for p in others)
    pend = shared_pending(s, TR, False, shown)
    assert pend.locked is None and "Play a Blade" in [a.label for a in pend.pending.answers]
    # the next action hides it
    assert reveal.seat(version + 1) is None
    assert all(p.hand_hidden for p in shared_table(s, TR, set(), reveal.seat(version + 1)).players)
    # and so do ten seconds
    reveal.show(0, version)
    clock.now += REVEAL_SECONDS - 0.5
    assert reveal.seat(version) == 0 and 0 < reveal.left() <= 0.5
    clock.now += 0.5
    assert reveal.seat(version) is None and reveal.left() == 0
    assert shared_pending(s, TR, False, reveal.seat(version)).locked == 0


def test_another_players_reveal_opens_nothing_of_the_decision():
    s = until_combat()
    pend = shared_pending(s, TR, False, 1)
    assert pend.locked == 0 and not pend.pending.answers


def test_a_public_decision_needs_no_reveal():
    s = new_game(CONFIG)
    play(s, type="move", player=0, die=[4])  # a die naming two Places: the destination is public
    pend = shared_pending(s, TR, False, None)
    assert pend.pending.kind == "destination" and pend.locked is None and pend.pending.answers


def test_drawn_cards_are_told_in_public_words():
    s = new_game(CONFIG)
    answer = play(s, type="search", player=0, cards=["blade"])
    private = " ".join(event_lines(answer.events, [p.name for p in s.players], TR, 0))
    public = " ".join(event_lines(answer.events, [p.name for p in s.players], TR, None))
    assert "Blade" in private and "Blade" not in public and "Carmen draws 1 Search card" in public
    entry = {"seq": 1, "kind": "action", "action": {"type": "search", "player": 0, "cards": ["blade"]},
             "answer": {"events": answer.events}}
    lines = log_view(public_log_entries([entry]), [p.name for p in s.players], TR)
    assert lines and "Blade" not in repr(lines) and "Carmen" in lines[0].title
    assert "Blade" in repr(log_view([entry], [p.name for p in s.players], TR))
