"""A pending decision, as the screen that takes over the table shows it.

Only the legal answers are offered (the engine's `legal_actions` for the deciding seat, plus a
teammate's Weapons in Team mode). The title says who decides and why, in words; the Places a
die result allows are returned for the map to highlight.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.rules import ANSWERS, GameState, legal_actions, preview

from .actions import ReasonVM
from .events import option_label
from .table import seat_color
from .text import Tr


@dataclass
class AnswerVM:
    label: str
    action: dict[str, Any]
    seat: int
    style: str = "neutral"  # "primary", "danger", "neutral"
    needs_die: int = 0  # physical-die mode: this answer rolls (move a neutral, reroll)


@dataclass
class CardPickVM:
    """Choose exactly `count` cards among `cards` (card id, label, how many held)."""

    count: int
    cards: list[tuple[str, str, int]]
    template: dict[str, Any]  # the action; its `discard` is filled with the chosen cards


@dataclass
class PendingVM:
    kind: str
    seat: int
    player: str
    color: str
    title: str
    details: list[str] = field(default_factory=list)
    answers: list[AnswerVM] = field(default_factory=list)
    helpers: list[AnswerVM] = field(default_factory=list)
    pick: CardPickVM | None = None
    highlight: list[str] = field(default_factory=list)
    die: int | None = None
    michel_card: str | None = None
    show_hand: tuple[str, list[str]] | None = None  # Spying: (whose, cards)
    pads: list[Any] = field(default_factory=list)  # real die: each neutral's faces and destinations (vm/dice.py)

    def watched(self, helpers: list[AnswerVM] | None = None) -> PendingVM:
        """The decision as a screen that does not answer it shows it: who decides and why, with
        nothing to tap (no answers, die pads or cards to pick, no hand spied), except `helpers`
        (a teammate's own Weapons, TEAM-5)."""
        return dataclasses.replace(self, answers=[], helpers=list(helpers or []), pick=None, show_hand=None, pads=[])


def hand_words(known: Mapping[str, int], unknown: int, tr: Tr) -> list[str]:
    """A hand shown to someone (Spying, a Spy token): its known cards, then how many nobody entered."""
    out = [
        tr("ui.times", count=n, what=tr.name("card", c)) if n > 1 else tr.name("card", c)
        for c, n in sorted(known.items())
    ]
    if unknown:
        out.append(tr("ui.unknown_cards", count=unknown))
    return out


def pending_view(state: GameState, tr: Tr, physical_dice: bool = False) -> PendingVM | None:
    pend = state.pending
    if pend is None or state.winner is not None:
        return None
    seat = pend.player
    p = state.players[seat]
    names = [q.name for q in state.players]

    def named(seat: int | None) -> str:
        return names[seat] if seat is not None else ""

    kinds = ANSWERS.get(pend.kind, frozenset())
    legal = [a for a in legal_actions(state, seat) if a.TYPE in kinds]
    vm = PendingVM(pend.kind, seat, p.name, seat_color(state, seat), title="")
    c = state.combat
    if pend.kind == "destination":
        vm.die = pend.die
        vm.title = tr("ui.pending.destination", player=p.name, die=vm.die)
        vm.highlight = [o for o in pend.options if o in state.board.places]
    elif pend.kind == "neutral_destination":
        vm.die = pend.die
        vm.title = tr(
            "ui.pending.neutral_destination", neutral=tr.name("neutral", pend.neutral), die=vm.die, player=p.name
        )
        vm.highlight = [o for o in pend.options if o in state.board.places]
    elif pend.kind == "extortion_answer":
        vm.title = tr(
            "ui.pending.extortion_answer", player=p.name, attacker=named(pend.attacker), tool=tr.name("card", pend.tool)
        )
        if c is not None:
            vm.details.append(tr("ui.pending.laid", cards_text=tr.join(tr.name("card", x) for _, x in c.laid)))
        if pend.show_hand_of is not None:
            whose = pend.show_hand_of
            shown = state.players[whose].hand
            vm.show_hand = (names[whose], hand_words(shown.known, shown.unknown, tr))
    elif pend.kind == "combat":
        if c is not None and c.neutral is not None:
            vm.title = tr("ui.pending.combat_neutral", player=p.name, neutral=tr.name("neutral", c.neutral))
            vm.michel_card = tr.name("michel_card", c.first_card) if c.first_card else None
        else:
            other = c.attacker if c is not None and seat == c.defender else (c.defender if c is not None else None)
            role = "defender" if c is not None and seat == c.defender else "attacker"
            vm.title = tr(f"ui.pending.combat_{role}", player=p.name, other=names[other] if other is not None else "")
        if c is not None:
            played = [tr("ui.pending.played_by", player=names[who], card=tr.name("card", card)) for who, card in c.laid]
            if played:
                vm.details.append(tr("ui.pending.weapons_so_far", cards_text=tr.join(played)))
            if c.tool and c.attacker is not None:
                vm.details.append(tr("ui.pending.at_stake", tool=tr.name("card", c.tool)))
    elif pend.kind == "give_weapon":
        vm.title = tr("ui.pending.give_weapon", player=p.name, other=named(pend.to))
    elif pend.kind == "kings_choice":
        vm.title = tr("ui.pending.kings_choice", player=p.name, other=named(pend.from_seat))
    elif pend.kind == "michel_answer":
        vm.title = tr("ui.pending.michel_answer", player=p.name, neutral=tr.name("neutral", pend.neutral))
        vm.michel_card = tr.name("michel_card", pend.card)
    elif pend.kind == "michel_tool":
        vm.title = tr("ui.pending.michel_tool", player=p.name, neutral=tr.name("neutral", pend.neutral))
    elif pend.kind == "neutral_move":
        vm.title = tr("ui.pending.neutral_move", player=p.name)
        vm.details = [
            tr("ui.pending.neutral_at", neutral=tr.name("neutral", n), place=tr.name("place", at))
            for n, at in state.neutrals.items()
        ]
    elif pend.kind == "hand_limit":
        vm.title = tr("ui.pending.hand_limit", player=p.name, count=pend.discard, limit=pend.limit)
        cards = [(cd, tr.name("card", cd), n) for cd, n in sorted(p.hand.known.items())]
        if p.hand.unknown:
            cards.append(("unknown", tr.name("card", "unknown"), p.hand.unknown))
        vm.pick = CardPickVM(pend.discard or 0, cards, {"type": "end_turn", "player": seat})
    elif pend.kind == "brawl_response":
        vm.title = tr("ui.pending.brawl_response", player=p.name)
    elif pend.kind == "punishment_choice":
        vm.title = tr("ui.pending.punishment_choice", player=p.name, by=named(pend.by), target=named(pend.target))
    else:
        vm.title = tr("ui.pending.generic", player=p.name, decision=tr.name("decision", pend.kind))
    if pend.kind != "hand_limit":
        vm.answers = [_answer(state, a, tr, physical_dice) for a in legal]
    if pend.kind == "neutral_move" and physical_dice:  # one tap: the neutral, the face and where it goes
        from .dice import neutral_pads

        vm.pads = neutral_pads(state, seat, tr)
        vm.answers = [a for a in vm.answers if a.action.get("type") != "move_neutral"]
    if pend.kind == "combat" and state.team_mode and c is not None and c.neutral is None:
        for q in state.players:
            if q.seat in (seat, c.attacker):
                continue
            helps = [a for a in legal_actions(state, q.seat) if a.TYPE == "weapon"]
            vm.helpers += [_answer(state, a, tr, physical_dice) for a in helps]
    return vm


def _answer(state: GameState, a: Any, tr: Tr, physical_dice: bool) -> AnswerVM:
    p = state.players[a.player]
    data = a.to_json()
    kind = a.TYPE
    style = "neutral"
    needs_die = preview(state, a).rolls if physical_dice else 0  # the dice it rolls, as the engine's dry run says
    if kind == "choose":
        option = a.option
        if option == "reroll":
            label = tr("ui.answer.reroll")
        elif option == "lose":
            label, style = tr("ui.answer.lose"), "danger"
        elif state.pending is not None and state.pending.kind == "give_weapon":
            label = tr("ui.answer.give_weapon", card=_weapon_label(state, p, option, tr))
        elif state.pending is not None and state.pending.kind in ("kings_choice",):
            label = tr("ui.answer.take_card", card=tr.name("card", option))
        elif state.pending is not None and state.pending.kind == "michel_tool":
            label = tr("ui.answer.discard_tool", card=tr.name("card", option))
        else:
            label, style = option_label(option, tr), "primary"
    elif kind == "cooperate":
        tool = a.tool or (state.combat.tool if state.combat is not None else None)
        if state.combat is not None and state.combat.neutral is not None:
            label = tr(
                "ui.answer.cooperate_neutral",
                tool=tr.name("card", tool),
                neutral=tr.name("neutral", state.combat.neutral),
            )
        else:
            label = tr(
                "ui.answer.cooperate",
                tool=tr.name("card", tool),
                player=state.players[state.combat.attacker].name
                if state.combat is not None and state.combat.attacker is not None
                else "",
            )
    elif kind == "fight":
        label, style = tr("ui.answer.fight"), "primary"
    elif kind == "weapon":
        label, style = tr("ui.answer.weapon", card=_weapon_label(state, p, a.card, tr)), "primary"
        if state.pending is not None and a.player != state.pending.player:
            label = tr("ui.answer.help_weapon", player=p.name, card=_weapon_label(state, p, a.card, tr))
    elif kind == "give_up":
        label, style = tr("ui.answer.give_up"), "danger"
    elif kind == "bodybuilding":
        label = tr("ui.answer.bodybuilding")
    elif kind == "move_neutral":
        label = tr(
            "ui.answer.move_neutral",
            neutral=tr.name("neutral", a.neutral),
            place=tr.name("place", state.neutrals.get(a.neutral)),
        )
        style = "primary"
    elif kind == "skip_neutral":
        label = tr("ui.answer.skip_neutral")
    elif kind == "brawl_response":
        if a.discard is None:
            label, style = tr("ui.answer.take_beating"), "danger"
        else:
            label = tr("ui.answer.discard_weapon", card=_weapon_label(state, p, a.discard, tr))
    elif kind == "punishment_choice":
        label = tr.name("choice", a.choice)
        label = label[:1].upper() + label[1:]
    else:
        label = tr.name("action", kind)
    return AnswerVM(label, data, a.player, style, needs_die)


def _weapon_label(state: GameState, p: Any, card: str, tr: Tr) -> str:
    label = tr.name("card", card)
    if card != "unknown" and not p.hand.count(card) and p.hand.unknown:
        return tr("ui.card_from_unknown", card=label)
    return label


def refusal(violations: list[Any], tr: Tr) -> list[ReasonVM]:
    return [ReasonVM(v.rule, tr.violation(v), v.forceable) for v in violations]
