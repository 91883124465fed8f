"""The engine's public entry points: `check`, `apply`, `step`.

`check` is read-only and returns every violation; `apply` changes the state and returns the
events; `step` does both and answers in the PROTOCOL.md shape. The order of judgement is fixed:
game over, seat, whose decision it is (TURN-4, TURN-5), the price of the action's type
(TURN-1, declared with its check), then the action's own rules, and last the cards the table
drew at random from hands (`picks`, judged by a dry run: see `picks.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, cast

from . import events as ev
from . import handlers  # noqa: F401  (registers every rule)
from .actions import Action
from .core import APPLIES, CHECKS, PRICES, TASKS, Ctx, PickAsk, Unseen, hard, seat_name
from .errors import Violation
from .first_only import FIRST_ONLY, STOPS_EARLY, Refused
from .handlers.common import spend, use_action
from .handlers.warden import note_offence
from .offence import Offence
from .picks import ImpossiblePick
from .state import GameState, Occasion

# Pending decision kind -> the action types that answer it.
ANSWERS: dict[str, frozenset[str]] = {
    "destination": frozenset({"choose"}),
    "extortion_answer": frozenset({"cooperate", "fight"}),
    "combat": frozenset({"weapon", "give_up", "bodybuilding"}),
    "give_weapon": frozenset({"choose"}),
    "kings_choice": frozenset({"choose"}),
    "michel_answer": frozenset({"cooperate", "fight"}),
    "michel_tool": frozenset({"choose"}),
    "neutral_move": frozenset({"move_neutral", "skip_neutral"}),
    "neutral_destination": frozenset({"choose"}),
    "hand_limit": frozenset({"end_turn"}),
    "brawl_response": frozenset({"brawl_response"}),
    "punishment_choice": frozenset({"punishment_choice"}),
}
ANSWER_TYPES = frozenset().union(*ANSWERS.values()) - {"end_turn"}
# Allowed out of turn or during someone else's decision; their own rules judge the moment.
REACTIONS = frozenset({"reveal_background", "corruption", "report"})
# Free actions (TURN-2, LIB-3): they are not "the next action", so a report window stays open.
FREE_ACTIONS = frozenset({"spy"})


@dataclass
class Answer:
    step: int
    accepted: bool
    violations: list[Violation] = field(default_factory=list)
    forced: bool = False
    offence: Offence | None = None
    events: list[ev.Event] = field(default_factory=list)
    pending: dict[str, Any] | None = None
    winner: int | str | None = None
    # The accepted action with its chance outcomes filled in (what a log keeps); not in the JSON answer.
    action: Action | None = None
    # The first card the app picked at random from a hand itself, the table's picks having run
    # out: what `preview` tells the app to ask the table for. Not in the JSON answer.
    asked: PickAsk | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "accepted": self.accepted,
            "violations": [v.to_json(overridden=self.forced) for v in self.violations],
            "offence": None if self.offence is None else self.offence.to_json(),
            "events": [e.to_json() for e in self.events],
            "pending": self.pending,
            "winner": self.winner,
        }


class IllegalAction(ValueError):
    def __init__(self, violations: list[Violation]) -> None:
        super().__init__(violations)
        self.violations = violations

    def __str__(self) -> str:  # rendered only when shown: refusals are frequent, messages are not read
        return "; ".join(f"{v.rule}: {v.message}" for v in self.violations)


def _gate(s: GameState, a: Action) -> list[Violation]:
    """Whose move is it? TURN-4 (out of turn) and TURN-5 (a decision is pending)."""
    pending = s.pending
    kind = a.TYPE
    if pending is not None:
        if kind in ANSWERS.get(pending.kind, ()):
            if a.player == pending.player or (pending.kind == "combat" and kind == "weapon"):
                return []  # the combat handler judges who may play a Weapon (CMB-1, TEAM-5)
            return [hard("TURN-4", "v.not_your_decision", player=seat_name(s, pending.player))]
        if kind in REACTIONS:
            return []
        if kind == "cooperate" and pending.kind == "combat":  # too late to give the Tool
            neutral = s.combat is not None and s.combat.neutral is not None
            return [hard("MICH-6" if neutral else "EXT-2", "v.cooperate_too_late")]
        if pending.kind == "michel_answer":
            return [
                hard("TURN-5", "v.neutral_answer_pending", player=seat_name(s, pending.player), neutral=pending.neutral)
            ]
        return [hard("TURN-5", "v.decision_pending", player=seat_name(s, pending.player), decision=pending.kind)]
    if kind in ANSWER_TYPES:
        return [hard("TURN-5", "v.nothing_to_answer")]
    if kind in REACTIONS:
        return []
    if a.player != s.active:
        return [hard("TURN-4", "v.not_your_turn", player=seat_name(s, s.active))]
    return []


def _admission_class(kind: str) -> tuple[object, ...]:
    """All that `_admit` reads of an action's type: the sets `_gate` looks it up in, the types
    `_gate` names, its price. Types of one class are admitted, or refused with the same
    violation, alike (`FirstViolations`); keep it in step with `_gate`."""
    return (
        frozenset(decision for decision, types in ANSWERS.items() if kind in types),
        kind in ANSWER_TYPES,
        kind in REACTIONS,
        kind if kind in ("weapon", "cooperate") else None,
        PRICES.get(kind, 0),
    )


def _numbered(classes: dict[str, tuple[object, ...]]) -> dict[str, int]:
    """Each type's class as a small number (cheaper to hash, per shape, than the class itself)."""
    numbers: dict[tuple[object, ...], int] = {}
    return {kind: numbers.setdefault(found, len(numbers)) for kind, found in classes.items()}


_ADMISSION_CLASSES = _numbered({kind: _admission_class(kind) for kind in CHECKS})
_UNKNOWN: Hashable = object()


def check(s: GameState, a: Action) -> list[Violation]:
    """Every rule this action breaks now, in order; an empty list means legal."""
    out: list[Violation] = []
    _judge(s, a, out)
    return out


def first_violation(s: GameState, a: Action) -> Violation | None:
    """The first violation `check` would list, or None when it lists none (the action is legal).

    The same judgement, stopped at its first refusal: a listing that only needs to know whether
    a shape passes does not pay for the rules it breaks after that one.
    """
    return _first(_judge, s, a)


def admission_of(a: Action) -> Hashable:
    """What `_admit` reads of an action: its player and its type's `_admission_class` (None for
    an Adjust, judged apart from any turn). Shapes alike in it are admitted, or refused, alike."""
    return None if a.TYPE == "adjust" else (_ADMISSION_CLASSES[a.TYPE], a.player)


class FirstViolations:
    """`first_violation` for many shapes of one unchanged state (a listing).

    What `check` judges before an action's own rules (game over, seat, whose decision, the
    price) is judged once for each `admission_of`, then each shape's own rules. The answers
    are `first_violation`'s, in the same order of judgement.
    """

    __slots__ = ("state", "admitted")

    def __init__(self, s: GameState) -> None:
        self.state = s
        self.admitted: dict[Hashable, Violation | None] = {}

    def __call__(self, a: Action, admission: Hashable = _UNKNOWN) -> Violation | None:
        """`a`'s first violation; `admission`: its `admission_of` (or a number standing for it), if known."""
        s = self.state
        if admission is _UNKNOWN:
            admission = admission_of(a)
        if admission is None or a.picks:  # an Adjust; the table's picks are judged by `_judge`
            return first_violation(s, a)
        admitted = self.admitted
        if admission not in admitted:
            admitted[admission] = _first(_admit, s, a)
        refused = admitted[admission]
        if refused is not None:
            return refused
        return _first(CHECKS[a.TYPE], s, a)


def _first(judge: Callable[[GameState, Action, list[Violation]], object], s: GameState, a: Action) -> Violation | None:
    if STOPS_EARLY:
        try:
            judge(s, a, FIRST_ONLY)
        except Refused as refused:
            return cast(Violation, refused.args[0])
        return None
    out: list[Violation] = []
    judge(s, a, out)
    return out[0] if out else None


def _judge(s: GameState, a: Action, out: list[Violation]) -> None:
    if a.TYPE == "adjust":
        CHECKS["adjust"](s, a, out)
    elif _admit(s, a, out):
        CHECKS[a.TYPE](s, a, out)
    else:
        return
    if a.picks and all(v.forceable for v in out) and (a.force or not out):
        _judge_picks(s, a, out)


def _judge_picks(s: GameState, a: Action, out: list[Violation]) -> None:
    """HAND-1 for the cards the table says it drew at random from hands (`picks`).

    Whose hand a pick comes from, and what that hand holds by then, is known only once the
    action's effects reach it, so the action is run on a copy; it is judged only when it would
    be applied (legal, or forced past rules that may be forced). A viewer's state (`view`)
    runs up to its first face-down draw: the picks after it are the game's own state to judge.
    """
    try:
        _apply(s.copy(), a, [])
    except ImpossiblePick as refused:
        out.append(refused.problem)
    except Unseen:
        pass


def _admit(s: GameState, a: Action, out: list[Violation]) -> bool:
    """What is judged before an action's own rules; False when nothing more is judged."""
    if s.winner is not None:
        out.append(hard("WIN-1", "v.game_over", winner=_winner_name(s)))
        return False
    if not 0 <= a.player < len(s.players):
        out.append(hard("SET-1", "v.no_such_seat", seat=a.player, count=len(s.players)))
        return False
    gate = _gate(s, a)
    if gate:
        out += gate
        return False
    price = PRICES.get(a.TYPE)
    if price:
        spend(s, out, price)
    return True


def _winner_name(s: GameState) -> str:
    return s.winner if isinstance(s.winner, str) else seat_name(s, s.winner)


def _advance(s: GameState, ctx: Ctx) -> None:
    """Run the agenda until the game waits for a decision (or is won)."""
    ctx.schedule_arrivals()
    while s.pending is None and s.agenda and s.winner is None:
        item = s.agenda.pop(0)
        TASKS[item["do"]](s, item, ctx)
        ctx.schedule_arrivals()


def apply(s: GameState, a: Action) -> list[ev.Event]:
    """Apply a legal (or forced) action and return its events; IllegalAction otherwise."""
    violations = check(s, a)
    if violations and (not a.force or any(not v.forceable for v in violations)):
        raise IllegalAction(violations)
    return _apply(s, a, violations).events


def _starts_new_action(s: GameState, a: Action) -> bool:
    """A new action closes the Warden's report window and the Corruption occasions (WARD-3, OFF-3)."""
    if a.TYPE in REACTIONS or a.TYPE in ANSWER_TYPES or a.TYPE in FREE_ACTIONS or a.TYPE == "adjust":
        return False
    return not (a.TYPE == "end_turn" and s.pending is not None)


def _apply(s: GameState, a: Action, violations: list[Violation]) -> Ctx:
    ctx = Ctx(s, a)
    if violations:
        ctx.emit(ev.Forced(player=a.player, rules=tuple(v.rule for v in violations), ruling=a.ruling or None))
    new_action = _starts_new_action(s, a)
    place = s.players[a.player].place if 0 <= a.player < len(s.players) else None
    if new_action:
        s.offence = None
        s.defeats = []  # the moment "after losing a combat" has passed
        s.michel_queue.clear()  # cards the table listed for an earlier move are not carried over
        # Ending a turn closes the windows without being an action anyone can react to.
        s.occasion = None if a.TYPE == "end_turn" else Occasion(action=a.TYPE, player=a.player, place=place)
    s.michel_queue.extend(a.michel_cards)  # they serve every extortion this action leads to (MICH-3)
    use_action(s, PRICES.get(a.TYPE, 0))  # the price its check asked for (TURN-1)
    APPLIES[a.TYPE](s, a, ctx)
    if new_action and place is not None:
        note_offence(s, ctx, a.player, a.TYPE, place)
    _advance(s, ctx)
    if ctx.dice:
        ctx.emit(ev.UnusedDice(die=tuple(ctx.dice)))
    leftover = ctx.chance.leftover()
    if leftover:
        ctx.emit(ev.UnusedOutcomes(outcomes=tuple(dict(r) for r in leftover)))
    s.step += 1
    return ctx


def step(s: GameState, a: Action) -> Answer:
    """Judge and, when legal (or forced), apply one action: the engine's answer."""
    violations = check(s, a)
    if violations and (not a.force or any(not v.forceable for v in violations)):
        return Answer(step=s.step, accepted=False, violations=violations, pending=s.pending_json(), winner=s.winner)
    offence_before = s.offence
    ctx = _apply(s, a, violations)
    return Answer(
        step=s.step,
        accepted=True,
        violations=violations,
        forced=bool(violations),
        offence=s.offence if s.offence is not offence_before else None,
        events=ctx.events,
        pending=s.pending_json(),
        winner=s.winner,
        action=ctx.resolved(),
        asked=ctx.asked,
    )
