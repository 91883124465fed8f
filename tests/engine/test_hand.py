"""How a hand provides the cards an action uses: entered cards first, then unknown cards standing
for Search cards (HAND-1, SUP-1 read this one answer)."""

from __future__ import annotations

from companion.rules.hand import Hand


def search_card(card: str) -> bool:
    return card in {"blade", "bandana", "cap", "boots"}


def test_entered_cards_are_used_before_unknown_ones() -> None:
    assert Hand({"blade": 1, "cap": 1}, unknown=2).cover(["blade", "cap"], search_card) == ([], {})
    assert Hand({"blade": 1}, unknown=2).cover(["blade"], search_card) == ([], {})


def test_unknown_cards_stand_for_search_cards_counted_in_the_order_named() -> None:
    hand = Hand({"cap": 1}, unknown=3)
    missing, stood_for = hand.cover(["cap", "boots", "cap", "bandana"], search_card)
    assert missing == [] and stood_for == {"boots": 1, "cap": 1, "bandana": 1}
    assert list(stood_for) == ["cap", "boots", "bandana"]  # as first named
    assert Hand({}, unknown=1).cover(["blade"], search_card) == ([], {"blade": 1})
    assert Hand({}, unknown=1).cover(["unknown"], search_card) == ([], {})


def test_what_the_hand_cannot_provide_is_missing() -> None:
    assert Hand({}, unknown=3).cover(["pickaxe"], search_card) == (["pickaxe"], {})  # a board card is always entered
    missing, stood_for = Hand({}, unknown=1).cover(["cap", "bandana"], search_card)
    assert missing == ["cap"] and stood_for == {"bandana": 1}  # the unknown card goes to the first in a fixed order
    assert Hand({"cap": 1}).shortfall(["cap", "cap"], search_card) == ["cap"]
