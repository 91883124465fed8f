"""What an option still needs (`action_options`, `action_inputs`): the engine states each input and
its legal values, so an app renders them. Each answer is checked against the rule that uses it."""

from __future__ import annotations

import random

from companion.rules import (
    ACTION_TYPES,
    action_cost,
    action_inputs,
    action_options,
    candidates,
    die_destinations,
    legal_actions,
    neutral_destinations,
    new_game,
    parse_action,
    preview,
    step,
)
from companion.simulate import random_config

from support import follows, start


def _option(state, kind, seat=0):
    return next(o for o in action_options(state, seat) if o.type == kind)


def test_bet_offers_every_amount_and_number_judged_by_the_cigarettes_held():
    state = start(3, modules={"places": ["gambling_cells"]}, player_fields={0: {"cigarettes": 2}})
    option = _option(state, "bet")
    shapes = {(a.amount, a.number) for a in option.legal}
    assert shapes == {(n, k) for n in (1, 2) for k in range(2, 7)}  # 3 cigarettes are not held
    follows(state, type="bet", player=0, amount=2, number=6, die=[1])


def test_the_price_is_the_one_the_turn_pays():
    """Cautious move takes 2 actions, 1 with a Planning token; Spy and ending the turn are free."""
    state = start(3, modules={"places": ["gambling_cells", "library"]}, player_fields={0: {"tokens": {"spy": 1}}})
    assert _option(state, "cautious_move").cost == 2
    assert _option(state, "search").cost == 1
    assert _option(state, "spy").cost == 0 and _option(state, "end_turn").cost == 0
    planned = start(3, modules={"places": ["gambling_cells"]}, player_fields={0: {"tokens": {"planning": 1}}})
    move = ACTION_TYPES["cautious_move"]
    to = next(p for p in planned.board.places if p != planned.players[0].place)
    assert action_cost(planned, move(player=0, to=to, planning=True)) == 1
    assert action_cost(planned, move(player=0, to=to)) == 2
    assert planned.actions_left == 2  # asking the price leaves the turn as it was


def test_over_random_play_each_legal_action_costs_what_it_is_said_to():
    for seed in range(1, 9):
        rng = random.Random(seed)
        state = new_game(random_config(random.Random(seed), None, seed, "full"))
        for _ in range(60):
            if state.winner is not None:
                break
            a = rng.choice(legal_actions(state))
            before, turn, cost = state.actions_left, state.turn, action_cost(state, a)
            answer = step(state, a)
            assert answer.accepted
            if a.TYPE in ("reveal_background", "play_action") or state.turn != turn:
                continue  # a card's effect may give or take actions; a new turn resets the count
            assert before - state.actions_left == cost, (seed, a)


def test_the_move_carries_its_die_table_and_lucky_number_opens_every_place_on_a_six():
    state = start(3)
    option = _option(state, "move")
    assert option.faces == die_destinations(state, 0)
    assert sorted(option.faces) == sorted(state.board.faces)
    for face, places in option.faces.items():
        for place in places:
            assert step(state.copy(), parse_action({"type": "move", "player": 0, "die": [face], "to": place})).accepted
    lucky = start(3, player_fields={0: {"gang": "bikers", "ability": "lucky_number"}})
    assert set(die_destinations(lucky, 0)[6]) == set(lucky.board.places) - {lucky.players[0].place}
    assert _option(state, "search").faces == {}


def test_a_neutral_die_table_never_enters_the_office():
    state = start(3, modules={"neutrals": 2, "warden": True})
    for neutral in state.neutral_names:
        for places in neutral_destinations(state, neutral).values():
            assert places and "wardens_office" not in places


def test_change_style_takes_one_accessory_fewer_than_joining():
    state = start(
        3, modules={"places": ["laundry"]}, hands={0: ["boots", "ring"]}, player_fields={0: {"place": "laundry"}}
    )
    join = action_inputs(state, ACTION_TYPES["join_gang"](player=0, gang="bikers", cards=("boots", "ring")))
    change = action_inputs(state, ACTION_TYPES["change_style"](player=0, gang="bikers", cards=("boots",)))
    assert (join.accessory_count, change.accessory_count) == (2, 1)
    assert join.accessories == change.accessories == tuple(sorted(state.catalog.gangs["bikers"].accessories))
    follows(state, type="change_style", player=0, gang="bikers", cards=["boots"])


def test_a_search_says_how_many_cards_it_draws_and_the_trauma_takes_one():
    state = start(3)
    search = ACTION_TYPES["search"](player=0)
    n = action_inputs(state, search).draws
    assert n == state.board.search[state.players[0].place] and n > 0
    state.players[0].trauma = "search_minus_one"
    assert action_inputs(state, search).draws == n - 1


def test_triad_slots_list_the_held_substitutes():
    ability, subs = next(iter(start(3).catalog.substitutes.items()))
    slot, cards = next(iter(subs.items()))
    card = sorted(cards)[0]
    state = start(
        3, hands={0: [card]}, player_fields={0: {"gang": start(3).catalog.ability_gang[ability], "ability": ability}}
    )
    recipe = next(r for r in state.catalog.recipes.values() if slot in r.materials)
    needs = action_inputs(state, ACTION_TYPES["craft"](player=0, recipe=recipe.id))
    assert (slot, (slot, card)) in needs.materials
    plain = start(3, hands={0: [card]})
    assert action_inputs(plain, ACTION_TYPES["craft"](player=0, recipe=recipe.id)).materials == ()


def test_the_dry_run_counts_the_dice_a_real_die_enters():
    state = start(3)
    assert preview(state, ACTION_TYPES["move"](player=0)).rolls == 1
    assert preview(state, ACTION_TYPES["search"](player=0)).rolls == 0


def test_the_hand_limit_trauma_is_catalog_data():
    state = start(3)
    p = state.players[0]
    assert state.catalog.hand_limit_traumas <= set(state.catalog.traumas)
    for trauma in state.catalog.traumas:
        p.trauma = trauma
        limited = trauma in state.catalog.hand_limit_traumas
        assert state.hand_limit(p) == (state.ruleset.trauma_hand_limit if limited else state.ruleset.hand_limit)


def test_the_hand_inputs_of_a_sale_an_exchange_and_a_turn_over_the_limit():
    for ruleset, printed in (("official", 1), ("online-simplified", None)):  # the cards' printed total, or prices
        state = start(3, hands={0: ["spoon", "knife"]}, ruleset=ruleset)
        sell = next(a for a in candidates(state, 0, every_type=True) if a.TYPE == "sell")
        needs = action_inputs(state, sell)
        assert needs.hand_cards == (1, 2) and needs.printed_total == printed
    full = start(3, hands={0: ["unknown"] * 12})
    assert action_inputs(full, ACTION_TYPES["end_turn"](player=0)).discard == 12 - full.hand_limit(full.players[0])
    assert action_inputs(start(3), ACTION_TYPES["end_turn"](player=0)).discard == 0


def test_extort_lists_each_weapon_with_the_copies_the_hand_may_lay():
    state = start(3, hands={0: ["knife", "knife", "unknown"]}, player_fields={1: {"place": "cell_block"}})
    extort = ACTION_TYPES["extort"](player=0, target=1, tool="spoon", weapons=("knife",))
    assert dict(action_inputs(state, extort).weapons) == {"knife": 2, "blade": 1}  # the unknown card may be a Blade


def test_a_modules_actions_are_options_only_in_a_game_that_plays_it():
    """The menu shows what the options list: the Warden's and Team mode's actions need their module."""
    module_only = {"attract_warden", "bribe", "corruption", "report", "exchange"}
    every_place = list(start(3).catalog.dig_in_places)
    for state in (start(3), start(3, modules={"places": every_place[:4]})):
        assert not {o.type for o in action_options(state, 0)} & module_only
    warden = start(3, modules={"warden": True})
    assert {"attract_warden", "bribe"} <= {o.type for o in action_options(warden, 0)}


def test_over_random_play_the_dry_run_counts_one_die_for_each_rolling_answer():
    """Moving a neutral, Bodybuilding and a reroll roll one die; the other answers none."""
    rolling = {"move_neutral", "bodybuilding"}
    met = set()
    for seed in range(1, 13):
        rng = random.Random(seed)
        state = new_game(random_config(random.Random(seed), None, seed, "full"))
        for _ in range(100):
            if state.winner is not None:
                break
            if state.pending is not None and state.pending.kind != "brawl_response":
                for a in legal_actions(state):
                    rolls = a.TYPE in rolling or (a.TYPE == "choose" and a.option == "reroll")
                    assert preview(state, a).rolls == int(rolls), (seed, a)
                    met.add(a.TYPE)
            step(state, rng.choice(legal_actions(state)))
    assert {"move_neutral", "skip_neutral", "choose"} <= met


def test_a_buy_states_its_price_with_the_backgrounds_discount():
    state = start(3, ruleset="online-simplified")
    item = next(iter(state.ruleset.buy))
    buy = ACTION_TYPES["buy"](player=0, item=item)
    full = state.ruleset.buy[item].price
    assert action_inputs(state, buy).price == full
    state.flags.buy_discount = 1
    assert action_inputs(state, buy).price == max(0, full - 1)
