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
    kinds = ANSWERS.get(pend.kind, frozenset())
    legal = [a for a in legal_actions(state, seat) if a.TYPE in kinds]
    vm = PendingVM(pend.kind, seat, p.name, seat_color(state, seat), title="")
    _describe(state, pend, vm, tr)
    if pend.kind != "hand_limit":
        vm.answers = [_answer(state, a, tr, physical_dice) for a in legal]
    if pend.kind == "neutral_move" and physical_dice:  # one tap: the neutral, the face and where it goes
        from .dice import neutral_pads

        vm.pads = neutral_pads(state, seat, tr)
        vm.answers = [a for a in vm.answers if a.action.get("type") != "move_neutral"]
    c = state.combat
    if pend.kind == "combat" and state.team_mode and c is not None and c.neutral is None:
        for q in state.players:
            if q.seat in (seat, c.attacker):
                continue
            helps = [a for a in legal_actions(state, q.seat) if a.TYPE == "weapon"]
            vm.helpers += [_answer(state, a, tr, physical_dice) for a in helps]
    return vm


def _name(state: GameState, seat: int | None) -> str:
    return state.players[seat].name if seat is not None else ""


def _describe(state: GameState, pend: Any, vm: PendingVM, tr: Tr) -> None:
    """The decision in words, by its kind: the title, and what else it shows (the die, the Places
    it allows, the cards laid, a Michel card, the cards to discard)."""
    name = vm.player
    if pend.kind == "destination":
        vm.die = pend.die
        vm.title = tr("ui.pending.destination", player=name, die=vm.die)
        vm.highlight = [o for o in pend.options if o in state.board.places]
    elif pend.kind == "neutral_destination":
        vm.die = pend.die
        vm.title = tr(
            "ui.pending.neutral_destination", neutral=tr.name("neutral", pend.neutral), die=vm.die, player=name
        )
        vm.highlight = [o for o in pend.options if o in state.board.places]
    elif pend.kind == "extortion_answer":
        _describe_extortion(state, pend, vm, tr)
    elif pend.kind == "combat":
        _describe_combat(state, vm, tr)
    elif pend.kind == "give_weapon":
        vm.title = tr("ui.pending.give_weapon", player=name, other=_name(state, pend.to))
    elif pend.kind == "kings_choice":
        vm.title = tr("ui.pending.kings_choice", player=name, other=_name(state, pend.from_seat))
    elif pend.kind == "michel_answer":
        vm.title = tr("ui.pending.michel_answer", player=name, neutral=tr.name("neutral", pend.neutral))
        vm.michel_card = tr.name("michel_card", pend.card)
    elif pend.kind == "michel_tool":
        vm.title = tr("ui.pending.michel_tool", player=name, neutral=tr.name("neutral", pend.neutral))
    elif pend.kind == "neutral_move":
        neutrals = state.neutral_names
        vm.title = (
            tr("ui.pending.neutral_move.one", player=name, neutral=neutrals[0])
            if len(neutrals) == 1
            else tr("ui.pending.neutral_move", player=name)
        )
        vm.details = [
            tr("ui.pending.neutral_at", neutral=tr.name("neutral", n), place=tr.name("place", at))
            for n, at in state.neutrals.items()
        ]
    elif pend.kind == "hand_limit":
        _describe_hand_limit(state, pend, vm, tr)
    elif pend.kind == "brawl_response":
        vm.title = tr("ui.pending.brawl_response", player=name)
    elif pend.kind == "punishment_choice":
        vm.title = tr(
            "ui.pending.punishment_choice", player=name, by=_name(state, pend.by), target=_name(state, pend.target)
        )
    else:
        vm.title = tr("ui.pending.generic", player=name, decision=tr.name("decision", pend.kind))


def _describe_extortion(state: GameState, pend: Any, vm: PendingVM, tr: Tr) -> None:
    """An extortion to answer: who demands which tool, the Weapons laid, a hand spied."""
    c = state.combat
    vm.title = tr(
        "ui.pending.extortion_answer",
        player=vm.player,
        attacker=_name(state, pend.attacker),
        tool=tr.name("card", pend.tool),
    )
    if c is not None:
        vm.details.append(tr("ui.pending.laid", cards_text=tr.join(tr.name("card", x) for _, x in c.laid)))
    if pend.show_hand_of is not None:
        whose = state.players[pend.show_hand_of]
        vm.show_hand = (whose.name, hand_words(whose.hand.known, whose.hand.unknown, tr))


def _describe_combat(state: GameState, vm: PendingVM, tr: Tr) -> None:
    """A combat: against a neutral (with the Michel card drawn) or a player, in the decider's role;
    the Weapons played so far and the tool at stake."""
    c = state.combat
    seat = vm.seat
    if c is not None and c.neutral is not None:
        vm.title = tr("ui.pending.combat_neutral", player=vm.player, neutral=tr.name("neutral", c.neutral))
        vm.michel_card = tr.name("michel_card", c.first_card) if c.first_card else None
    else:
        other = c.attacker if c is not None and seat == c.defender else (c.defender if c is not None else None)
        role = "defender" if c is not None and seat == c.defender else "attacker"
        vm.title = tr(f"ui.pending.combat_{role}", player=vm.player, other=_name(state, other))
    if c is not None:
        played = [
            tr("ui.pending.played_by", player=state.players[who].name, card=tr.name("card", card))
            for who, card in c.laid
        ]
        if played:
            vm.details.append(tr("ui.pending.weapons_so_far", cards_text=tr.join(played)))
        if c.tool and c.attacker is not None:
            vm.details.append(tr("ui.pending.at_stake", tool=tr.name("card", c.tool)))


def _describe_hand_limit(state: GameState, pend: Any, vm: PendingVM, tr: Tr) -> None:
    """Cards over the hand limit: the hand to pick the discards from."""
    p = state.players[vm.seat]
    vm.title = tr("ui.pending.hand_limit", player=vm.player, count=pend.discard, limit=pend.limit)
    cards = [(cd, tr.name("card", cd), n) for cd, n in sorted(p.hand.known.items())]
    if p.hand.unknown:
        cards.append(("unknown", tr.name("card", "unknown"), p.hand.unknown))
    vm.pick = CardPickVM(pend.discard or 0, cards, {"type": "end_turn", "player": vm.seat})


def _answer(state: GameState, a: Any, tr: Tr, physical_dice: bool) -> AnswerVM:
    p = state.players[a.player]
    data = a.to_json()
    kind = a.TYPE
    style = "neutral"
    needs_die = preview(state, a).rolls if physical_dice else 0  # the dice it rolls, as the engine's dry run says
    if kind == "choose":
        label, style = _choice_label(state, p, a.option, tr)
    elif kind == "cooperate":
        label = _cooperate_label(state, a, tr)
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
        alone = state.neutral_names[0] if len(state.neutral_names) == 1 else None
        label = tr("ui.answer.skip_neutral.one", neutral=alone) if alone else tr("ui.answer.skip_neutral")
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


def _choice_label(state: GameState, p: Any, option: Any, tr: Tr) -> tuple[str, str]:
    """A `choose` answer's words and style: what the option means in the decision it answers."""
    pending = state.pending.kind if state.pending is not None else None
    if option == "reroll":
        return tr("ui.answer.reroll"), "neutral"
    if option == "lose":
        return tr("ui.answer.lose"), "danger"
    if pending == "give_weapon":
        return tr("ui.answer.give_weapon", card=_weapon_label(state, p, option, tr)), "neutral"
    if pending in ("kings_choice",):
        return tr("ui.answer.take_card", card=tr.name("card", option)), "neutral"
    if pending == "michel_tool":
        return tr("ui.answer.discard_tool", card=tr.name("card", option)), "neutral"
    return option_label(option, tr), "primary"


def _cooperate_label(state: GameState, a: Any, tr: Tr) -> str:
    """Giving in: the tool handed over, to the neutral or the player who demands it."""
    c = state.combat
    tool = a.tool or (c.tool if c is not None else None)
    if c is not None and c.neutral is not None:
        return tr("ui.answer.cooperate_neutral", tool=tr.name("card", tool), neutral=tr.name("neutral", c.neutral))
    return tr(
        "ui.answer.cooperate",
        tool=tr.name("card", tool),
        player=state.players[c.attacker].name if c is not None and c.attacker is not None else "",
    )


def _weapon_label(state: GameState, p: Any, card: str, tr: Tr) -> str:
    label = tr.name("card", card)
    if card != "unknown" and not p.hand.count(card) and p.hand.unknown:
        return tr("ui.card_from_unknown", card=label)
    return label
