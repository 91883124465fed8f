"""What the deciding player can do now: the turn's menu, and the questions before recording.

`action_menu` turns the engine's `action_options` into buttons: legal ones enabled, the others
disabled with the rule they break (never hidden unless the action does not exist in this game),
each with the price in actions the engine states. The form that composes one action is
`composer.Composer`; it is importable from here too, as the table reads both together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules import ACTION_TYPES, ActionOption, GameState, action_inputs, action_options, parse_action, preview

from .composer import Composer, needs_questions
from .dice import move_pad
from .questions import ChoiceVM, StepVM
from .reasons import ReasonVM, reasons
from .text import Tr

__all__ = [
    "ActionVM",
    "ChoiceVM",
    "Composer",
    "ConfirmVM",
    "MenuVM",
    "ReasonVM",
    "StepVM",
    "action_menu",
    "confirm_view",
    "cost_label",
    "end_turn_vm",
    "hint",
    "menu_view",
    "needs_questions",
    "offence_warning",
    "reasons",
]

# Basic actions (any Place), in menu order; everything else is a Place action or a free one.
BASIC = (
    "search",
    "move",
    "cautious_move",
    "craft",
    "join_gang",
    "play_action",
    "extort",
    "exchange",
    "attract_warden",
    "gang_ability",
)
FREE_ORDER = ("reveal_background", "spy", "corruption")
# Actions recorded with one tap; their optional inputs (the cards drawn) have their own button.
QUICK = {"search"}


@dataclass
class ActionVM:
    type: str
    label: str
    group: str  # "place", "basic", "free"
    enabled: bool
    cost: str
    reasons: list[ReasonVM] = field(default_factory=list)
    hint: str = ""
    details: bool = False  # a tap records it at once; a second button also asks the optional inputs
    warning: str = ""  # the rule of the Warden offence doing it now would be (the engine's dry run)
    pad: Any = None  # a real die: the faces with their Places, one tap per move (vm/dice.py)

    @property
    def rules(self) -> list[str]:
        return [r.rule for r in self.reasons]

    @property
    def forceable(self) -> bool:
        return bool(self.reasons) and all(r.forceable for r in self.reasons)


def _wrong_place_elsewhere(option: ActionOption) -> bool:
    """A Place action refused because the player stands elsewhere (or its Place isn't in this game)."""
    return any(v.key == "v.wrong_place" for v in option.violations)


def action_menu(
    state: GameState, seat: int, tr: Tr, options: list[ActionOption] | None = None, physical_dice: bool = False
) -> list[ActionVM]:
    """The turn's actions for `seat` (the active player), in menu order, each with its state;
    with a real die, a legal Simple move carries its die pad."""
    if state.winner is not None or state.pending is not None or seat != state.active:
        return []
    p = state.players[seat]
    here = state.board.places[p.place].actions
    out: list[ActionVM] = []
    pad = physical_dice  # a real die: a legal Simple move carries its pad
    by_type = {o.type: o for o in (options if options is not None else action_options(state, seat))}
    for kind, option in by_type.items():
        if kind in ("end_turn", "report"):  # a module's actions are options only in a game that plays it
            continue
        if kind in FREE_ORDER:
            if kind == "spy" and not p.tokens.get("spy"):
                continue
            if kind == "corruption" and not option.legal:
                continue
            group = "free"
        elif kind in BASIC:
            group = "basic"
        else:  # a Place action: only where the player stands, unless a card makes it legal elsewhere
            if kind not in here and not option.legal:
                continue
            if not option.legal and _wrong_place_elsewhere(option) and kind not in here:
                continue
            group = "place"
        out.append(
            ActionVM(
                type=kind,
                label=tr.name("action", kind),
                group=group,
                enabled=option.available,
                cost=cost_label(state, kind, option, tr),
                reasons=reasons(option.violations, tr),
                hint=hint(state, seat, kind, tr),
                details=kind in QUICK and option.available,
                warning=offence_warning(state, option),
                pad=move_pad(state, seat, tr, option.faces) if pad and kind == "move" and option.available else None,
            )
        )
    order = {k: i for i, k in enumerate(BASIC + FREE_ORDER)}
    groups = {"place": 0, "basic": 1, "free": 2}
    out.sort(key=lambda a: (groups[a.group], order.get(a.type, 50), a.label))
    return out


def offence_warning(state: GameState, option: ActionOption) -> str:
    """The rule a legal action would break under the Warden's eyes ("" when none): an offence
    depends on the action and the Place, not on its details, so any legal candidate tells."""
    if state.warden is None or not option.legal:
        return ""
    return preview(state, option.legal[0]).offence or ""


@dataclass
class MenuVM:
    """The turn's menu as the table reads it: what can be done first, the rest folded away."""

    legal: list[ActionVM]
    refused: list[ActionVM]  # shown under "Not possible now (N)", each with its rule
    end_turn: ActionVM | None
    end_first: bool  # only free actions are left: ending the turn is the one prominent action


def menu_view(actions: list[ActionVM], end_turn: ActionVM | None) -> MenuVM:
    legal = [a for a in actions if a.enabled]
    done = not any(a.group != "free" for a in legal)
    return MenuVM(legal, [a for a in actions if not a.enabled], end_turn, end_turn is not None and done)


@dataclass
class ConfirmVM:
    title: str
    text: str


def confirm_view(state: GameState, action: dict[str, Any], tr: Tr) -> ConfirmVM | None:
    """Ask once before recording an action that wins the game or is a Warden offence; the
    engine says which by a dry run on a copy of the game."""
    try:
        parsed = parse_action(action, state.catalog)
    except Exception:  # malformed: the engine's refusal will say why when it is submitted
        return None
    seen = preview(state, parsed)
    label = tr.name("action", parsed.TYPE)
    texts = []
    title = ""
    if seen.winner is not None:
        winner = tr(f"ui.team_{seen.winner}") if isinstance(seen.winner, str) else state.players[seen.winner].name
        title = tr("ui.confirm_win_title", action_label=label, player=winner)
        texts.append(tr("ui.confirm_win_text"))
    if seen.offence:
        place = state.players[parsed.player].place
        title = title or tr("ui.warden_here", rule=seen.offence)
        texts.append(tr("ui.confirm_offence_text", action_label=label, place=place, rule=seen.offence))
    return ConfirmVM(title, " ".join(texts)) if title else None


def end_turn_vm(state: GameState, seat: int, tr: Tr, options: list[ActionOption] | None = None) -> ActionVM | None:
    if state.winner is not None or state.pending is not None or seat != state.active:
        return None
    by_type = {o.type: o for o in (options if options is not None else action_options(state, seat))}
    option = by_type.get("end_turn")
    if option is None:
        return None
    over = action_inputs(state, ACTION_TYPES["end_turn"](player=seat)).discard
    # Ending with too many cards is possible: the form asks what to discard.
    enabled = option.available
    return ActionVM(
        "end_turn",
        tr.name("action", "end_turn"),
        "turn",
        enabled,
        cost_label(state, "end_turn", option, tr),
        reasons(option.violations, tr),
        hint=tr("ui.hint_end_turn_discard", count=over) if over > 0 else "",
    )


def cost_label(state: GameState, kind: str, option: ActionOption, tr: Tr) -> str:
    """The price the engine states: "free", or the actions of the turn it takes."""
    return tr("ui.cost_actions", count=option.cost) if option.cost else tr("ui.cost_free")


def hint(state: GameState, seat: int, kind: str, tr: Tr) -> str:
    """A few words on what the action does here (how many cards a Search draws...)."""
    p = state.players[seat]
    if kind == "search":
        return tr("ui.hint_search", count=action_inputs(state, ACTION_TYPES["search"](player=seat)).draws)
    if kind == "move":
        return tr("ui.hint_move")
    if kind == "steal_spoon":
        return tr("ui.hint_pile", count=state.piles.get("spoon", 0), card=tr.name("card", "spoon"))
    if kind == "heal":
        return tr("ui.hint_heal", count=p.beatings)
    if kind == "dig":
        return tr("ui.hint_dig", count=p.tunnel, target=state.target())
    if kind == "sell" and state.ruleset.sell is None:
        return tr("ui.hint_sell")
    return ""
