"""Composing one action: the questions a chosen action type still asks, one step at a time.

`Composer` asks only for the fields that still vary among the engine's candidates of that type
(destination, recipe, Tool, target, bet...), then the free inputs no candidate list can hold,
as the engine states them (`action_inputs`: drawn cards, Accessories, recipe slots; `preview`:
the dice a real die enters). Every value offered comes from the engine, so the form never
disagrees with the referee.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from companion.rules import (
    ACTION_TYPES,
    Action,
    GameState,
    Inputs,
    action_inputs,
    candidates,
    check,
    parse_action,
    preview,
)

from .questions import ChoiceVM, StepVM, card_label, input_steps
from .reasons import ReasonVM, reasons
from .text import Tr

# Which fields a type's form asks first (the others follow in declaration order).
FIELD_ORDER = {
    "extort": ("target", "tool", "weapons"),
    "play_action": ("card", "target"),
    "reveal_background": ("card", "target", "targets", "to", "own_to", "trauma"),
    "corruption": ("effect", "target", "to"),
    "cautious_move": ("to", "planning"),
    "heal": ("bandage", "trauma"),
}
# Fields the composer never asks (engine bookkeeping, or chance the app supplies).
HIDDEN_FIELDS = {"player", "die", "michel_cards", "force", "changes"}
# Choices shown disabled, with their rule, beside the legal ones.
SHOW_REFUSED = frozenset(
    {
        ("craft", "recipe"),
        ("buy", "item"),
        ("extort", "target"),
        ("dig", "tool"),
        ("join_gang", "gang"),
        ("change_style", "gang"),
        ("cautious_move", "to"),
        ("improve_tool", "tool"),
        ("play_action", "target"),
        ("spy", "target"),
        ("gang_ability", "to"),
        ("bet", "amount"),
    }
)


def _fields(kind: str) -> list[str]:
    cls = ACTION_TYPES[kind]
    names = [f.name for f in dataclasses.fields(cls) if f.name not in HIDDEN_FIELDS]
    first = [f for f in FIELD_ORDER.get(kind, ()) if f in names]
    return first + [f for f in names if f not in first]


def _value_key(value: Any) -> Any:
    return tuple(sorted(value)) if isinstance(value, tuple) else value


class Composer:
    """Builds one action of `kind` for `seat`, asking only what the legal candidates leave open."""

    def __init__(
        self,
        state: GameState,
        seat: int,
        kind: str,
        tr: Tr,
        *,
        physical_dice: bool = False,
        force: bool = False,
        quick: bool = False,
    ) -> None:
        self.state = state
        self.seat = seat
        self.kind = kind
        self.tr = tr
        self.physical_dice = physical_dice
        self.force = force
        self.quick = quick  # skip the optional inputs (a Search without entering the cards drawn)
        every = [a for a in candidates(state, seat, every_type=True) if a.TYPE == kind]
        self.all = every
        self.legal = [a for a in every if not check(state, a)]
        # Forcing (a house rule) chooses among every candidate; otherwise among the legal ones.
        self.pool = list(every if force else self.legal)
        self.answers: dict[str, Any] = {}
        self.history: list[str] = []
        self._extra_done: set[str] = set()
        self._inputs: dict[Action, Inputs] = {}
        self._rolls: dict[Action, int] = {}

    # The composer is a small state machine: `step()` is the current question, `answer()` moves on.

    @property
    def remaining(self) -> list[Action]:
        out = self.pool
        for name, value in self.answers.items():
            if name in _fields(self.kind) and any(hasattr(a, name) for a in out):
                narrowed = [a for a in out if _value_key(getattr(a, name, None)) == _value_key(value)]
                if narrowed:
                    out = narrowed
        return out

    def _varying(self) -> str | None:
        rest = self.remaining
        if not rest:
            return None
        for name in _fields(self.kind):
            if name in self.answers:
                continue
            values = {_value_key(getattr(a, name)) for a in rest}
            if len(values) > 1:
                return name
        return None

    def step(self) -> StepVM | None:
        if not self.pool and not self.force:
            return None
        name = self._varying()
        if name is not None:
            return self._choice_step(name)
        for extra in input_steps(self):
            if extra.field not in self._extra_done and not (self.quick and extra.optional):
                return extra
        return None

    def answer(self, name: str, value: Any) -> None:
        self.answers[name] = tuple(value) if isinstance(value, list) else value
        self._extra_done.add(name)
        self.history.append(name)

    def back(self) -> bool:
        if not self.history:
            return False
        name = self.history.pop()
        self.answers.pop(name, None)
        self._extra_done.discard(name)
        return True

    @property
    def done(self) -> bool:
        return self.step() is None

    @property
    def possible(self) -> bool:
        return bool(self.pool)

    def action(self) -> dict[str, Any]:
        """The action to submit (JSON), from the chosen candidate plus the free answers."""
        rest = self.remaining
        base: dict[str, Any] = rest[0].to_json() if rest else {"type": self.kind, "player": self.seat}
        for name, value in self.answers.items():
            if name.startswith("material_"):
                continue
            if name == "die":
                base["die"] = list(value) if isinstance(value, tuple) else [value]
                continue
            base[name] = list(value) if isinstance(value, tuple) else value
        materials = [self.answers[k] for k in sorted(self.answers) if k.startswith("material_")]
        if materials:
            base["cards"] = materials
        for name in ("cards", "discard", "weapons", "targets"):
            if name in base and base[name] is not None and not isinstance(base[name], list):
                base[name] = list(base[name])
        if self.kind == "search" and not base.get("cards"):
            base.pop("cards", None)
        if self.force:
            base["force"] = True
        return base

    def summary(self) -> list[tuple[str, str]]:
        """What is already decided (asked or the only possibility), as (question, answer) lines."""
        out: list[tuple[str, str]] = []
        rest = self.remaining
        if not rest:
            return out
        first = rest[0]
        later = {step.field for step in input_steps(self)} - set(self.answers)  # asked further on
        for name in _fields(self.kind):
            if name in later:
                continue
            values = {_value_key(getattr(a, name)) for a in rest}
            value = getattr(first, name)
            if len(values) == 1 and not (
                value is None
                or value is False
                or value == ()
                or value == ""
                or (name in ("from_discard", "bandage", "cigarettes") and value == 0)
            ):
                out.append((self.prompt(name), self._label(name, getattr(first, name))))
        for name, value in self.answers.items():
            if name not in _fields(self.kind) and value not in (None, (), []):
                out.append((self.prompt(name), self._label(name, value)))
        return out

    def check(self) -> list[ReasonVM]:
        """Violations of the composed action (empty: legal), for a last look before submitting."""
        try:
            action = parse_action(self.action(), self.state.catalog)
        except Exception:  # a malformed composition is the composer's bug; show it as a refusal
            return [ReasonVM("TURN-5", self.tr("ui.cannot_compose"), False)]
        return reasons(check(self.state, action), self.tr)

    # --- questions -------------------------------------------------------------------------

    def _choice_step(self, name: str) -> StepVM:
        rest = self.remaining
        seen: dict[Any, ChoiceVM] = {}
        for a in rest:
            value = getattr(a, name)
            key = _value_key(value)
            if key not in seen:
                seen[key] = ChoiceVM(value, self._label(name, value), True)
        if not self.force and self._show_refused(name):
            for a in self._similar(name):
                value = getattr(a, name)
                key = _value_key(value)
                if key in seen:
                    continue
                seen[key] = ChoiceVM(
                    value,
                    self._label(name, value),
                    False,
                    reasons(check(self.state, a), self.tr),
                )
        return StepVM(name, "one", self.prompt(name), list(seen.values()))

    def _similar(self, name: str) -> list[Action]:
        """Refused candidates that agree with the answers given so far (to show why they're refused)."""
        out = []
        for a in self.all:
            if all(
                _value_key(getattr(a, k, None)) == _value_key(v)
                for k, v in self.answers.items()
                if k in _fields(self.kind)
            ):
                out.append(a)
        return out

    def _show_refused(self, name: str) -> bool:
        return (self.kind, name) in SHOW_REFUSED

    def inputs(self, chosen: Action) -> Inputs:
        """The engine's free inputs of the chosen candidate (asked once per candidate)."""
        if chosen not in self._inputs:
            self._inputs[chosen] = action_inputs(self.state, chosen)
        return self._inputs[chosen]

    def dice_needed(self, chosen: Action | None) -> int:
        """The dice recording it rolls, as the engine's dry run counts them (forced: as if allowed)."""
        if chosen is None:
            return 0
        if chosen not in self._rolls:
            self._rolls[chosen] = preview(self.state, dataclasses.replace(chosen, force=self.force)).rolls
        return self._rolls[chosen]

    # --- words -------------------------------------------------------------------------------

    def prompt(self, name: str) -> str:
        tr = self.tr
        for key in (f"ui.ask.{self.kind}.{name}", f"ui.ask.{name}"):
            if tr.has(key):
                return tr.raw(key)
        return name.replace("_", " ")

    def _label(self, name: str, value: Any) -> str:
        s, tr, kind = self.state, self.tr, self.kind
        p = s.players[self.seat]
        if value is None:
            return tr("ui.none")
        if name in ("target", "to") and isinstance(value, int) and not isinstance(value, bool):
            return s.players[value].name
        if name == "targets":
            return tr.join(s.players[t].name for t in value)
        if name in ("to", "own_to"):
            return tr.name("place", value)
        if name == "tool":
            return card_label(self.tr, p, value) if kind in ("dig", "improve_tool") else tr.name("card", value)
        if name == "recipe":
            return tr.name("recipe", value)
        if name == "gang":
            return tr.name("gang", value)
        if name == "item":
            shape = next((a for a in self.all if getattr(a, "item", None) == value), None)
            price = None if shape is None else self.inputs(shape).price
            return (
                tr("ui.buy_item", item=tr.name("item", value), price=price)
                if price is not None
                else tr.name("item", value)
            )
        if name == "card":
            if kind in ("reveal_background", "rehabilitate"):
                return tr.name("background", value)
            if kind in ("join_gang", "change_style"):
                return tr.name("ability", value)
            return card_label(self.tr, p, value)
        if name in ("cards", "weapons", "discard"):
            return tr.join(card_label(self.tr, p, c) for c in value) if value else tr("ui.none")
        if name in ("weapon",):
            return card_label(self.tr, p, value)
        if name == "effect":
            return tr.name("effect", value)
        if name == "ability":
            return tr.name("ability", value)
        if name in ("planning", "bandage", "trauma"):
            return tr(f"ui.flag.{kind}.{name}.{'yes' if value else 'no'}")
        if name == "die":
            return tr.join(tr.num(d) for d in (value if isinstance(value, (list, tuple)) else [value]))
        if name.startswith("material_"):
            return card_label(self.tr, p, value)
        return tr.num(value) if isinstance(value, int) else tr.digits(str(value))


def needs_questions(state: GameState, seat: int, kind: str, tr: Tr, physical_dice: bool = False) -> bool:
    return Composer(state, seat, kind, tr, physical_dice=physical_dice).step() is not None
