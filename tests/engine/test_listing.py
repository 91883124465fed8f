"""The generated listing equals the exhaustive one it replaced, and `check` accepts all of it."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import check, legal_actions, legal_reactions, new_game, step
from companion.rules.options import candidates
from companion.simulate import random_config

from .exhaustive import exhaustive_legal_actions, exhaustive_legal_reactions
from support import follows, start

configs = st.builds(
    lambda seed, players, modules: random_config(random.Random(seed), players, seed, modules),
    st.integers(0, 2**40),
    st.integers(2, 6),
    st.sampled_from(["base", "full", "any"]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs, picks=st.lists(st.integers(0, 10**6), min_size=20, max_size=150))
def test_legal_actions_equal_the_exhaustive_listing(config, picks):
    """Over random play in the base game and with every module, the lazy listing (groups refused
    for the moment, shapes built once, first_violation) never drops a legal action nor lists an
    illegal one, in the same order."""
    state = new_game(config)
    for pick in picks:
        if state.winner is not None:
            break
        legal = legal_actions(state)
        assert legal == exhaustive_legal_actions(state), state.summary()
        for seat in range(len(state.players)):
            assert legal_actions(state, seat) == exhaustive_legal_actions(state, seat)
            assert legal_reactions(state, seat) == exhaustive_legal_reactions(state, seat)
        assert all(check(state, a) == [] for a in legal)
        assert step(state, legal[pick % len(legal)]).accepted


def test_seeded_games_list_what_the_exhaustive_listing_lists():
    """A fixed sweep as well, so Team mode, every Dig In Place and long games are always met;
    and the out-of-turn actions alone (`legal_reactions`), so a Report, Corruption and combat
    Backgrounds are met too."""
    seen_in_reactions = 0
    for seed in range(1, 31):
        modules = "full" if seed % 2 else "any"
        rng = random.Random(seed)
        state = new_game(random_config(random.Random(seed), None if modules == "any" else 6, seed, modules))
        for _ in range(150):
            if state.winner is not None:
                break
            for seat in [None, *range(len(state.players))]:
                assert legal_actions(state, seat) == exhaustive_legal_actions(state, seat), (seed, state.step, seat)
            for seat in range(len(state.players)):
                reactions = legal_reactions(state, seat)
                assert reactions == exhaustive_legal_reactions(state, seat), (seed, state.step, seat)
                seen_in_reactions += bool(reactions)
            assert step(state, rng.choice(legal_actions(state))).accepted
    assert seen_in_reactions > 100, seen_in_reactions


def _buys(state):
    return [a.item for a in legal_actions(state) if a.TYPE == "buy"]


def test_buy_is_listed_away_from_its_place_only_where_i_know_a_guy_allows_it():
    """Buy is built for judging where the Place sells, and elsewhere only while I Know a Guy lets
    the player buy there (not from the Cell Block): the listing still equals `check`'s."""
    state = start(player_fields={0: {"place": "cafeteria", "cigarettes": 6}})
    assert _buys(state) == [] and not [a for a in candidates(state) if a.TYPE == "buy"]  # not even judged
    follows(state, type="reveal_background", player=0, card="i_know_a_guy")
    assert "knife" in _buys(state)
    assert legal_actions(state) == exhaustive_legal_actions(state)

    state = start(player_fields={0: {"cigarettes": 6}})
    follows(state, type="reveal_background", player=0, card="i_know_a_guy")
    assert state.board.places[state.players[0].place].role == "cell_block"
    assert _buys(state) == []
    assert legal_actions(state) == exhaustive_legal_actions(state)


def test_a_trauma_heal_is_listed_only_where_heal_is_offered():
    """Healing a Trauma without a bandage takes the Place that heals (HEAL-1): elsewhere no such
    shape is built, let alone judged."""
    ward = {"places": ["psychiatric_ward"]}
    state = start(modules=ward, player_fields={0: {"place": "cafeteria", "trauma": "no_buy", "beatings": 1}})
    assert not [a for a in candidates(state) if a.TYPE == "heal"]  # not even judged
    assert legal_actions(state) == exhaustive_legal_actions(state)
    infirmary = next(pid for pid, info in state.board.places.items() if "heal" in info.actions)
    state = start(modules=ward, player_fields={0: {"place": infirmary, "trauma": "no_buy", "beatings": 1}})
    heals = [a for a in legal_actions(state) if a.TYPE == "heal"]
    assert any(a.trauma for a in heals) and legal_actions(state) == exhaustive_legal_actions(state)


def test_a_turn_with_no_action_left_builds_only_its_free_shapes():
    """With no action left, no priced shape is built, nor a Cautious move (it takes 1 or 2):
    only Spy, Background reveals and End turn, which the listing still judges."""
    state = start()
    state.players[0].tokens.update(spy=1, planning=1)
    state.actions_left = 0
    built = {a.TYPE for a in candidates(state)}
    assert built <= {"spy", "reveal_background", "end_turn"} and {"spy", "end_turn"} <= built
    assert legal_actions(state) == exhaustive_legal_actions(state)
    state.actions_left = 1
    assert {"cautious_move", "search", "move"} <= {a.TYPE for a in candidates(state)}


def test_spent_backgrounds_and_buys_above_the_cigarettes_are_not_built():
    """A Background somebody has spent cannot be revealed again (BG) and a Buy above the
    cigarettes is refused (BUY-1): neither is built for judging, but a full menu keeps both so
    it can say why."""
    state = start(player_fields={0: {"place": "cafeteria"}})
    state.players[0].background = None
    state.players[1].revealed.append("i_know_a_guy")
    reveals = {a.card for a in candidates(state) if a.TYPE == "reveal_background"}
    assert "i_know_a_guy" not in reveals and reveals
    assert "i_know_a_guy" in {a.card for a in candidates(state, every_type=True) if a.TYPE == "reveal_background"}
    assert legal_actions(state) == exhaustive_legal_actions(state)

    shop = next(pid for pid, info in state.board.places.items() if "buy" in info.actions)
    state = start(player_fields={0: {"place": shop, "cigarettes": 2}})
    cheap = {a.item for a in candidates(state) if a.TYPE == "buy"}
    assert cheap and cheap < {a.item for a in candidates(state, every_type=True) if a.TYPE == "buy"}
    assert _buys(state) == sorted(cheap, key=list(state.ruleset.buy).index)
    assert legal_actions(state) == exhaustive_legal_actions(state)
