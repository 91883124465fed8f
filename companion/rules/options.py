"""What can be done now: concrete candidate actions, judged by `check` itself.

`legal_actions` keeps the candidates `check` accepts; `action_options` groups them by action
type and, for a type with no legal candidate, keeps the violations of a representative one, so
a UI can show every action with its reason. One code path judges both: nothing here decides
legality on its own. The candidates themselves come from `listing`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.i18n import DEFAULT_LANGUAGE, catalog, placeholders

from . import actions as A
from .core import PickAsk, Unseen, judging
from .engine import FirstViolations, check, step
from .errors import Violation
from .events import Event, MichelCard, Roll
from .hand import UNKNOWN
from .inputs import WEAPON_SEARCH_CARD, action_cost, die_destinations, weapon_types
from .listing import Listed, group_of, listed, listed_reactions
from .state import GameState

__all__ = [
    "WEAPON_SEARCH_CARD",
    "ActionOption",
    "MichelDraw",
    "PickAsk",
    "Preview",
    "action_options",
    "candidates",
    "legal_actions",
    "legal_reactions",
    "next_michel_draw",
    "preview",
    "weapon_types",
]


@dataclass
class ActionOption:
    type: str
    legal: list[A.Action] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)  # why a representative one is refused
    cost: int = 0  # actions of the turn it takes (the dearest legal shape; 0: free)
    faces: dict[int, tuple[str, ...]] = field(default_factory=dict)  # a Simple move: die face -> Places

    @property
    def available(self) -> bool:
        return bool(self.legal)


# Refusals that depend only on the moment (who acts, where, when, the actions left) and on the
# fields of `listing.group_of`: once one shape of a group gets one, every other shape of the group would.
MOMENT_KEYS = frozenset(
    {
        "v.no_actions_left",
        "v.wrong_place",
        "v.action_not_in_game",
        "v.extort_once",
        "v.no_search_here",
        "v.no_extort_here",
        "v.no_craft_here",
        "v.no_join_gang_here",
        "v.no_search_after_solitary",
        "v.no_extort_after_solitary",
        "v.no_craft_after_solitary",
        "v.no_join_gang_after_solitary",
        "v.trauma_no_extort",
        "v.trauma_no_join_gang",
        "v.trauma_no_action_cards",
        "v.trauma_no_buy",
        "v.beaten_no_craft",
    }
)
TARGET_KEYS = frozenset({"v.target_not_here"})  # the same, for every shape aimed at the same seat


def candidates(s: GameState, seat: int | None = None, every_type: bool = False) -> list[A.Action]:
    """The shapes worth judging for `seat` now (see `listing.turn_candidates` for `every_type`)."""
    return [a for a, *_ in listed(s, seat, every_type)]


def legal_actions(s: GameState, seat: int | None = None) -> list[A.Action]:
    """Concrete actions `check` accepts now for `seat` (default: whoever must decide)."""
    return _passing(s, listed(s, seat))


def legal_reactions(s: GameState, seat: int) -> list[A.Action]:
    """The out-of-turn actions `check` accepts now for `seat`: a Report in the Warden's report
    window, Corruption tokens, Backgrounds revealed in or after a combat. Its own turn and its
    decisions are left out (`legal_actions` has them, with these)."""
    return _passing(s, listed_reactions(s, seat))


def _passing(s: GameState, shapes: list[Listed]) -> list[A.Action]:
    """The shapes `check` accepts, in order.

    Each passed `check` (`FirstViolations`: `check` stopped at its first refusal, judging once
    per player and class of types what precedes a type's own rules). A shape is skipped
    unjudged only when another shape of its group was refused for the moment alone
    (`MOMENT_KEYS`, `TARGET_KEYS`), which it shares.
    """
    out: list[A.Action] = []
    refused: set[int] = set()
    judge = FirstViolations(s)
    with judging(s):
        for a, group, aimed, admission in shapes:
            if refused and (group in refused or aimed in refused):
                continue
            found = judge(a, admission)
            if found is None:
                out.append(a)
            elif found.key in MOMENT_KEYS:
                refused.add(group)
            elif found.key in TARGET_KEYS:
                refused.add(aimed)
    return out


def _general(chosen: list[Violation], refused: list[list[Violation]]) -> list[Violation]:
    """The representative's reasons, said of every choice when every choice fails alike.

    A type is refused as a whole when each candidate (each Gang, each target...) is refused; a
    reason naming one of them ("Joining the Bikers takes...", "Nicholas is not here") is then
    said without it, with the catalog's general wording (`<key>.any`) and the parameters that
    every candidate shares.
    """
    if len(refused) < 2:
        return chosen
    out = []
    for v in chosen:
        alike = [next((w for w in found if (w.rule, w.key) == (v.rule, v.key)), None) for found in refused]
        general = f"{v.key}.any"
        if (
            any(w is None for w in alike)
            or general not in catalog(DEFAULT_LANGUAGE)
            or all(w.params == v.params for w in alike if w is not None)
        ):
            out.append(v)
            continue
        shared = {k: x for k, x in v.params.items() if all(w is not None and w.params.get(k) == x for w in alike)}
        if not placeholders(catalog(DEFAULT_LANGUAGE)[general]) <= set(shared):
            out.append(v)
            continue
        out.append(Violation(v.rule, general, shared, v.forceable))
    return out


def action_options(s: GameState, seat: int | None = None) -> list[ActionOption]:
    """Every action type worth showing now, legal or not, with the reason when it is not."""
    grouped: dict[str, ActionOption] = {}
    refused: dict[str, list[list[Violation]]] = {}
    shapes: dict[str, list[A.Action]] = {}
    with judging(s):
        for a, *_ in listed(s, seat, every_type=True):
            option = grouped.setdefault(a.TYPE, ActionOption(a.TYPE))
            shapes.setdefault(a.TYPE, []).append(a)
            found = check(s, a)
            if not found:
                option.legal.append(a)
                continue
            refused.setdefault(a.TYPE, []).append(found)
            if not option.violations or len(found) < len(option.violations):
                option.violations = found  # the candidate closest to legal explains best
    for option in grouped.values():
        if option.legal:
            option.violations = []
        else:
            option.violations = _general(option.violations, refused.get(option.type, []))
        _add_inputs(s, option, shapes[option.type])
    return list(grouped.values())


def _add_inputs(s: GameState, option: ActionOption, shapes: list[A.Action]) -> None:
    """The option's price and, for a Simple move, the die table (see `inputs`)."""
    costs: dict[tuple[Any, ...], int] = {}
    for a in option.legal or shapes:
        group = group_of(a)
        if group not in costs:
            costs[group] = action_cost(s, a)
    option.cost = max(costs.values(), default=0)
    if option.type == "move" and s.pending is None and shapes[0].player == s.active:
        option.faces = die_destinations(s, shapes[0].player)


@dataclass(frozen=True)
class Preview:
    """What recording an action would do, as the engine answers it on a copy of the game."""

    accepted: bool
    offence: str | None  # the rule of the Warden offence it would be (WARD-2), else None
    winner: int | str | None  # the seat (or team) it would make win, else None
    michel_draws: int = 0  # Michel cards it would draw from the deck (the table did not list them)
    rolls: int = 0  # dice it would roll (those a table with a real die enters with it)
    # The first card it would pick at random from a hand itself, past the table's `picks`: the
    # card to ask the table for (then preview again with it appended, until this is None).
    pick: PickAsk | None = None


def preview(s: GameState, a: A.Action) -> Preview:
    """A dry run of `a`: the same seeded chance, on a copy, so the game itself is untouched and
    the app can warn before an offence or a win without knowing the rules that cause them.

    On a viewer's state (`view`: a phone's), the run stops at the first card it would draw from
    a face-down pile (the Michel deck, the Trauma stack), whose cards that state does not hold:
    the answer is what happened before it, that draw counted, and nothing after it (so
    `michel_draws` is then the least the action draws, and `pick` is None when no random card
    was picked before that draw). There the hands the viewer may not see hold only unentered
    cards, so a pick from one of them lists every card that state leaves possible."""
    trial = s.copy()
    before = trial.offence  # an offence still open is not this action's (as in `step`)
    try:
        answer = step(trial, a)
    except Unseen as stop:
        drawn = _michel_draws(stop.events) + (stop.pile == "michel")
        offence = trial.offence.rule if trial.offence is not None and trial.offence is not before else None
        return Preview(True, offence, trial.winner, drawn, _rolls(stop.events), stop.asked)
    if not answer.accepted:
        return Preview(False, None, None)
    offence = answer.offence.rule if answer.offence else None
    events = answer.events
    return Preview(True, offence, answer.winner, _michel_draws(events), _rolls(events), answer.asked)


@dataclass(frozen=True)
class MichelDraw:
    """The next Michel card recording an action would draw from the deck (past those the table
    listed with it): the neutral that draws it, the seat it extorts, and the game as it stands at
    that moment (the neutral arrived, the players it found there)."""

    neutral: str
    seat: int
    state: GameState


def next_michel_draw(s: GameState, a: A.Action) -> MichelDraw | None:
    """A dry run of `a` up to the first Michel card it would take from the deck itself, which a
    table drawing the real cards is asked for (None: it takes none). The deck is turned face
    down on a copy, so the run stops there, as a viewer's state does (`preview`)."""
    trial = s.copy()
    trial.michel_deck = [UNKNOWN] * len(trial.michel_deck)
    trial.michel_discard = [UNKNOWN] * len(trial.michel_discard)
    try:
        step(trial, a)
    except Unseen as stop:
        if stop.pile == "michel" and stop.drawn_for is not None:
            neutral, seat = stop.drawn_for
            return MichelDraw(neutral, seat, trial)
    return None


def _michel_draws(events: list[Event]) -> int:
    return sum(1 for e in events if isinstance(e, MichelCard) and e.source != "table")


def _rolls(events: list[Event]) -> int:
    return sum(1 for e in events if isinstance(e, Roll))
