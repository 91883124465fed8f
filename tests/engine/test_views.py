"""The projection (`companion.rules.views`): no view and no redacted event tells a viewer more than
they may know, over random games with every module.

A view is judged by what it does not depend on: the same state with every secret of that viewer
changed (other seats' entered cards and hidden Backgrounds, the random source, the order of the
Michel deck, the Trauma stack and the Gang piles below their top, the configuration's seed and
starting hands) must give the very same view.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import check, legal_actions, new_game, parse_action, preview, redact_events, step, view
from companion.rules.core import Unseen
from companion.rules.events import EVENTS, Draw, Take
from companion.rules.hand import UNKNOWN, Hand
from companion.rules.views import PUBLIC_EVENT_FIELDS, visible_hands
from companion.simulate import random_config

from support import follows, said, start

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
configs = st.builds(
    lambda seed, players, modules: random_config(random.Random(seed), players, seed, modules),
    st.integers(0, 2**40),
    st.integers(2, 6),
    st.sampled_from(["full", "any"]),
)


def frozen(state) -> str:
    return json.dumps(state.snapshot(), sort_keys=True)


def known_to(state, seat):
    """The seats whose cards `seat` may see now: visible hands, and the loser's under The King's Choice."""
    out = visible_hands(state, seat)
    pend = state.pending
    if seat is not None and pend is not None and pend.player == seat and pend.kind == "kings_choice":
        out.add(pend.from_seat)
    return out


def with_secrets_changed(state, seat, rng: random.Random):
    """The same game as `seat` knows it, with everything `seat` cannot know changed."""
    other = state.copy()
    seen = known_to(state, seat)
    for p in other.players:
        if p.seat not in seen:
            p.hand = Hand({}, p.hand.size())
        if p.seat != seat and p.has_background:
            p.background = rng.choice([None, *other.catalog.backgrounds])
    other.rng.state = rng.getrandbits(64)
    for secret in (other.michel_deck, other.trauma_stack):
        rng.shuffle(secret)
    for pile in other.gang_piles.values():
        below = pile[1:]
        rng.shuffle(below)
        pile[1:] = below
    other.background_discard = [UNKNOWN] * len(other.background_discard)
    other.config = {
        **other.config,
        "seed": rng.getrandbits(32),
        "players": [
            {"name": e.get("name")} | ({"color": e["color"]} if "color" in e else {})
            for e in other.config.get("players", [])
        ],
    }
    return other


def assert_events_redacted(events, seat):
    for raw, ev in zip(events, [e.to_json() for e in redact_events(events, seat)], strict=True):
        kind = raw["type"]
        assert kind in PUBLIC_EVENT_FIELDS, f"event type {kind!r} is not in the projection's list"
        assert set(ev) <= set(raw) | {"type"}
        if kind == "draw" and raw["player"] != seat:
            assert ev["cards"] == [UNKNOWN] * len(raw["cards"])
        if kind == "give" and raw["why"] != "cooperate" and seat not in (raw["player"], raw["to"]):
            assert ev["card"] == UNKNOWN
        if kind == "spy" and seat not in (raw["player"], raw["target"]):
            assert ev["hand"] is None


@SETTINGS
@given(config=configs, seed=st.integers(0, 10**6), length=st.integers(10, 90))
def test_no_view_and_no_event_tells_a_viewer_more_than_they_know(config, seed, length):
    state = new_game(config)
    rng = random.Random(seed)
    viewers = [None, *range(len(state.players))]
    for _ in range(length):
        if state.winner is not None:
            break
        legal = legal_actions(state)
        if rng.random() < 0.3:  # somebody else's reaction (a report, Corruption, a Background)
            legal += legal_actions(state, rng.randrange(len(state.players)))
        answer = step(state, rng.choice(legal))
        assert answer.accepted
        for seat in viewers:
            mine = view(state, seat)
            assert frozen(mine) == frozen(view(with_secrets_changed(state, seat, rng), seat))
            for p in mine.players:
                if p.seat not in known_to(state, seat):
                    assert p.hand.known == {} and p.hand.size() == state.players[p.seat].hand.size()
            assert "seed" not in mine.config
            assert_events_redacted(said(answer), seat)


def test_a_view_can_be_judged_like_the_game():
    """A seat's phone lists its own legal actions from its view; another seat's cards are not in it."""
    state = start(hands={0: ["blade", "links"], 1: ["rare", "boots", "ring"]})
    mine = view(state, 0)
    assert dict(mine.players[0].hand.known) == {"blade": 1, "links": 1}
    assert mine.players[1].hand.known == {} and mine.players[1].hand.size() == 3
    assert {a.TYPE for a in legal_actions(mine, 0)} == {a.TYPE for a in legal_actions(state, 0)}


@pytest.mark.parametrize("version", [1, 2])
def test_a_phone_judges_a_correction_by_the_games_rules(version: int):
    """A view keeps the game's rules version: a phone's correction screen judges an 11th Blade
    as the game will (refused from version 2: every Blade lies face up in the discard pile)."""
    state = start(start={"discard": ["blade"] * 10}, rules_version=version)
    mine = view(state, 0)
    assert mine.rules_version == state.rules_version == version
    blade = parse_action({"type": "adjust", "player": 0, "changes": [{"path": "players.0.hand", "add": ["blade"]}]})
    judged = {"mine": check(mine, blade), "game": check(state, blade)}
    assert [v.rule for v in judged["mine"]] == [v.rule for v in judged["game"]] == ([] if version == 1 else ["SUP-1"])


def test_a_view_is_previewed_up_to_its_first_face_down_card():
    """A phone warns before an offence or a win from its own view (`preview`): walking into
    Michel's Place draws a Michel card its view does not hold, so the dry run stops there, with
    that draw counted; the game's own state runs it through."""
    state = start(modules={"neutrals": 1, "warden": True}, player_fields={0: {"place": "infirmary"}})
    move = parse_action({"type": "move", "player": 0, "die": [5], "to": "showers"})
    mine, whole = preview(view(state, 0), move), preview(state, move)
    assert mine.accepted and mine.michel_draws == whole.michel_draws == 1
    assert (mine.offence, mine.winner, mine.rolls) == (whole.offence, whole.winner, whole.rolls) == (None, None, 1)
    with pytest.raises(Unseen):  # the view holds the deck's size, not its cards
        step(view(state, 0), move)


def test_a_brawl_answered_from_a_phone_is_previewed_through_the_rolls():
    """What is to happen after a decision (the agenda: who is asked next, who rolls) is in every
    view: a phone answering a Brawl with a Weapon previews the answer, and the last one the rolls."""
    state = start(
        3,
        modules={"places": ["gymnasium"]},
        first_player=1,
        hands={0: ["knife"], 1: ["blade"], 2: ["knife"]},
        player_fields={seat: {"place": "gymnasium"} for seat in range(3)},
    )
    follows(state, type="brawl", player=1, weapon="blade")
    follows(state, type="brawl_response", player=2, discard="knife")
    answer = parse_action({"type": "brawl_response", "player": 0, "discard": "knife"})
    mine = view(state, 0)
    assert mine.agenda == state.agenda and mine.agenda is not state.agenda
    assert preview(mine, answer).rolls == preview(state, answer).rolls == 2


@SETTINGS
@given(config=configs, seed=st.integers(0, 10**6), length=st.integers(5, 60))
def test_every_action_a_phone_lists_can_be_previewed_from_its_view(config, seed, length):
    """What a phone shows before a tap (an offence, a win, the dice and Michel cards to enter)
    comes from its view: every action it lists previews there, with the game's own offence."""
    state = new_game(config)
    rng = random.Random(seed)
    for _ in range(length):
        if state.winner is not None:
            break
        for seat in range(len(state.players)):
            mine = view(state, seat)
            for action in legal_actions(mine, seat):
                seen = preview(mine, action)
                assert seen.accepted and seen.offence == preview(state, action).offence, action
        assert step(state, rng.choice(legal_actions(state))).accepted


@SETTINGS
@given(config=configs, seed=st.integers(0, 10**6), length=st.integers(5, 60))
def test_a_phone_may_enter_every_card_the_game_allows_for_a_random_pick(config, seed, length):
    """A phone asks the table for the cards drawn at random from its own view (`preview`'s
    `pick`): the cards it lists hold every card the game's own state allows (what the view
    cannot see is still possible there), so the real card can always be entered from a phone."""
    state = new_game(config)
    rng = random.Random(seed)
    for _ in range(length):
        if state.winner is not None:
            break
        action = rng.choice(legal_actions(state))
        mine = view(state, action.player)
        picks: tuple[str, ...] = ()
        while (whole := preview(state, dataclasses.replace(action, picks=picks)).pick) is not None:
            seen = preview(mine, dataclasses.replace(action, picks=picks))
            assert seen.accepted, (action, picks)
            if seen.pick is not None:
                assert (seen.pick.seat, seen.pick.taker, seen.pick.why) == (whole.seat, whole.taker, whole.why)
                assert set(whole.cards) <= set(seen.pick.cards) and seen.pick.unknown >= whole.unknown
            picks += (rng.choice([*whole.cards, *([UNKNOWN] if whole.unknown else [])]),)
        assert step(state, dataclasses.replace(action, picks=picks)).accepted


def test_spying_shows_the_extorters_hand_to_the_extorted_only():
    state = start(
        hands={0: ["knife", "rare"], 1: ["pickaxe"]},
        player_fields={0: {"place": "cafeteria"}, 1: {"place": "cafeteria", "gang": "bratva", "ability": "spying"}},
    )
    follows(state, type="extort", player=0, target=1, tool="pickaxe", weapons=["knife"])
    assert dict(view(state, 1).players[0].hand.known) == {"rare": 1}
    assert view(state, 2).players[0].hand.known == {} and view(state, None).players[0].hand.known == {}


def test_a_spy_token_shows_the_hand_in_the_spys_event_only():
    state = start(
        hands={1: ["rare", "boots"]}, modules={"places": ["library"]}, player_fields={0: {"tokens": {"spy": 1}}}
    )
    answer = follows(state, type="spy", player=0, target=1)
    spy = next(e for e in said(answer) if e["type"] == "spy")
    assert redact_events([spy], 0)[0].hand == {"known": {"boots": 1, "rare": 1}, "unknown": 0}
    assert redact_events([spy], 2)[0].hand is None and redact_events([spy], None)[0].hand is None


def test_an_unlisted_event_field_is_blank(monkeypatch):
    """Allow-list: a field the projection does not name never reaches a viewer, not even its owner."""
    monkeypatch.setitem(PUBLIC_EVENT_FIELDS, "draw", frozenset({"player", "why"}))
    assert redact_events([Draw(player=0, cards=("blade",), why="search")], 0)[0].cards == ()
    monkeypatch.delitem(PUBLIC_EVENT_FIELDS, "take")
    take = Take(player=0, card="blade", count=1, why="steal_spoon")
    assert redact_events([take], 0)[0].to_json() == {
        "type": "take",
        "player": None,
        "card": None,
        "count": None,
        "why": None,
    }


def test_every_field_of_every_event_type_is_listed():
    """A new event field is private until it is named here (unused outcomes name nothing: the referee's)."""
    for kind, cls in EVENTS.items():
        names = {f.name.rstrip("_") for f in dataclasses.fields(cls)}
        assert PUBLIC_EVENT_FIELDS.get(kind, frozenset()) <= names, kind
        if kind != "unused_outcomes":
            assert names == PUBLIC_EVENT_FIELDS[kind], kind


def test_another_seats_decision_keeps_its_kind_but_not_their_cards():
    state = start(
        hands={0: ["knife"], 1: ["rare", "links"]},
        player_fields={
            0: {"place": "cafeteria", "gang": "cartel", "ability": "the_kings_choice"},
            1: {"place": "cafeteria"},
        },
    )
    follows(state, type="extort", player=0, target=1, tool="shovel", weapons=["knife"])
    follows(state, type="give_up", player=1)
    assert state.pending.kind == "kings_choice"
    assert view(state, 0).pending.options == ["links", "rare"]
    assert view(state, 2).pending.options == [] and view(state, 2).pending.kind == "kings_choice"
