"""The composer renders the inputs the engine states (`action_options`, `action_inputs`): the bet's
amounts and numbers, the Accessories Change style takes, a Buy's price, the price of each action
and the dice a real die enters. Each is checked against the game it is asked in."""

from __future__ import annotations

from companion.app.vm.actions import Composer, action_menu
from companion.app.vm.text import Tr
from companion.rules import new_game

TR = Tr("en")


def _game(**fields) -> object:
    return new_game(
        {
            "players": [{"name": "Carmen", **fields}, {"name": "Nicholas"}],
            "seed": 3,
            "modules": {"places": ["gambling_cells", "laundry"]},
        }
    )


def test_a_bet_asks_the_amounts_the_cigarettes_allow_and_every_number():
    state = _game(place="gambling_cells", cigarettes=2)
    composer = Composer(state, 0, "bet", TR)
    amount = composer.step()
    assert amount.field == "amount" and amount.prompt == "Bet how many cigarettes?"
    assert [(c.value, c.enabled) for c in amount.choices] == [(1, True), (2, True), (3, False)]
    assert amount.choices[2].reasons  # the third is refused, with the engine's reason
    composer.answer("amount", 2)
    number = composer.step()
    assert number.field == "number" and [c.value for c in number.choices] == [2, 3, 4, 5, 6]
    composer.answer("number", 5)
    assert composer.done and composer.action() == {"type": "bet", "player": 0, "amount": 2, "number": 5}
    assert composer.check() == []


def test_change_style_asks_one_accessory_fewer_than_joining():
    state = _game(place="laundry", hand=["boots", "ring", "cap"])
    for kind, count in (("join_gang", 2), ("change_style", 1)):
        composer = Composer(state, 0, kind, TR)
        composer.answer("gang", "bikers")
        ask = next(s for s in [composer.step()] if s is not None)
        while ask.field != "cards":
            composer.answer(ask.field, ask.default if ask.default is not None else ask.choices[0].value)
            ask = composer.step()
        assert ask.exact == count and {c.value for c in ask.choices} == set(state.catalog.gangs["bikers"].accessories)


def test_the_menu_says_what_each_action_costs():
    state = _game(place="gambling_cells", tokens={"planning": 1})
    cost = {a.type: a.cost for a in action_menu(state, 0, TR)}
    assert cost["search"] == "1 action" and cost["cautious_move"] == "2 actions"


def test_a_real_die_is_asked_for_the_dice_the_action_rolls():
    state = _game(place="gambling_cells", cigarettes=3)
    bet = Composer(state, 0, "bet", TR, physical_dice=True)
    bet.answer("amount", 1)
    bet.answer("number", 4)
    die = bet.step()
    assert die.kind == "die" and die.exact == 1 and (die.low, die.high) == (1, 6)
    assert Composer(state, 0, "search", TR, physical_dice=True, quick=True).step() is None  # a Search rolls none


def test_a_buy_names_the_price_after_the_discount():
    carmen = {"name": "Carmen", "cigarettes": 9, "place": "recreational_area"}
    state = new_game({"players": [carmen, {"name": "Nicholas"}], "seed": 3, "ruleset": "online-simplified"})
    item, offer = next(iter(state.ruleset.buy.items()))
    state.flags.buy_discount = 1
    composer = Composer(state, 0, "buy", TR)
    ask = composer.step()
    label = next(c.label for c in ask.choices if c.value == item)
    assert label.endswith(f"— {max(0, offer.price - 1)} cigarette" + ("" if offer.price - 1 == 1 else "s"))
