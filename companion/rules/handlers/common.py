"""Checks shared by many actions: action budget, Place restrictions, places of actions."""

from __future__ import annotations

from typing import TypeVar

from ..core import hard, violation
from ..errors import Violation
from ..state import GameState, Player

T = TypeVar("T")

# Which rule forbids an action type in a restricted Place.
RESTRICTION_RULE = {"solitary": "SOL-1", "psychiatric_ward": "PSY-1", "wardens_office": "OFF-2"}


def checked(value: T | None) -> T:
    """A value the engine's flow guarantees here (a target or destination the check required, the
    decision a choice answers, whose Weapon is due): a missing one is the engine's own bug."""
    assert value is not None, "a value the engine guarantees here is missing"
    return value


def spend(s: GameState, out: list[Violation], cost: int = 1) -> None:
    """TURN-1: an action needs actions left."""
    if s.actions_left < cost:
        out.append(violation("TURN-1", "v.no_actions_left", cost=cost, left=s.actions_left))


def use_action(s: GameState, cost: int = 1) -> None:
    """Spend actions of the turn (never below zero, even for a forced action)."""
    s.actions_left = max(0, s.actions_left - cost)


def restricted(s: GameState, p: Player, what: str, out: list[Violation], default_rule: str) -> bool:
    """A Place forbidding Search, Extort, Craft or Join a Gang (SOL-1, PSY-1, OFF-2, CRAFT-1)."""
    info = s.board.places[p.place]
    if getattr(info, f"no_{what}"):
        rule = RESTRICTION_RULE.get(info.id) or RESTRICTION_RULE.get(info.role, default_rule)
        if info.id != info.role and info.id not in RESTRICTION_RULE and info.team is None:
            rule = "DI-3"  # a Dig In Place keeps the restrictions of the Place it covers
        out.append(violation(rule, f"v.no_{what}_here", place=p.place))
        return True
    return after_solitary(s, p, what, out)


def after_solitary(s: GameState, p: Player, what: str, out: list[Violation]) -> bool:
    """SOL-1 binds the whole turn that began in Solitary Confinement, wherever the player went
    since: the Place they stand in now cannot lift it (WARD-7 restates it; the engine cites SOL-1)."""
    solitary = s.board.places[s.board.solitary]
    if p.seat == s.active and s.flags.started_in_solitary and getattr(solitary, f"no_{what}"):
        out.append(violation("SOL-1", f"v.no_{what}_after_solitary"))
        return True
    return False


def place_action(s: GameState, p: Player, action: str, rule: str, out: list[Violation]) -> bool:
    """A Place action is only possible where the Place offers it (§6, DI-2)."""
    if action in s.board.places[p.place].actions:
        return True
    where = [pid for pid, info in s.board.places.items() if action in info.actions]
    if not where:
        homes = [pid for pid, info in s.catalog.places.items() if action in info.actions]
        out.append(violation(rule, "v.action_not_in_game", action=action, places=homes))
    else:
        out.append(violation(rule, "v.wrong_place", action=action, place=p.place, places=where))
    return False


def trauma_forbids(p: Player, trauma: str, out: list[Violation]) -> None:
    if p.trauma == trauma:
        out.append(violation("PSY-3", f"v.trauma_{trauma}", trauma=trauma))


def valid_seat(s: GameState, seat: int | None, out: list[Violation], rule: str) -> bool:
    if seat is None:
        out.append(hard(rule, "v.target_needed"))  # not forceable: the effect needs somebody
        return False
    if not 0 <= seat < len(s.players):
        out.append(hard("SET-1", "v.no_such_seat", seat=seat, count=len(s.players)))
        return False
    return True
