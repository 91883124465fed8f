"""Who the table waits for, said to them: a seated phone's call, and the console's next step
with the real box.

A phone is called when the game waits for its seat: its turn, a decision of its own, a Weapon a
teammate may play for a combat, a Warden offence it may report. `seat_call` says which, in the
player's words ("Your turn"), with a key that stays the same while the call does, so the phone
nudges its player once per call (ui/phone/nudge.py), not at every change of the table.

On a table that rolls its real die, draws the real Michel cards or the random cards from real
hands, the console says what the table must do now ("Roll the die for Anna", "Draw a Michel card
for Anna"): `table_step`, from what the engine and the screen's questions wait for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.rules import GameState, PickAsk

from .dice import TableChance, next_draw
from .pending import AnswerVM, pending_view
from .reactions import reactions_view
from .text import Tr

TURN, DECISION, HELP, REPORT = "turn", "decision", "help", "report"


@dataclass(frozen=True)
class CallVM:
    """What the game waits for from one seat, said to that seat's player."""

    kind: str  # TURN, DECISION, HELP (a teammate's Weapon for a combat), REPORT (a Warden offence)
    key: tuple[Any, ...]  # the same while the call is the same one: a new key is a new call
    text: str  # "Your turn", "Your decision: cooperate or fight", "You may report Carla..."


@dataclass(frozen=True)
class SaidVM:
    """What a table screen's banner says beyond the table's own headline, for its viewer."""

    headline: str | None = None  # instead of the table's ("Your turn" on the player's own phone)
    cue: str | None = None  # a line under it: what this viewer, or the table, must do now


def seat_call(state: GameState, seat: int, tr: Tr) -> CallVM | None:
    """The call to `seat` now, if any: a decision of its own first, then a Weapon it may play for
    a teammate's combat, a Warden offence it may report, and its turn (the answers and buttons
    its screen offers it: `pending_view`'s helpers, `reactions_view` of its seat)."""
    if state.winner is not None:
        return None
    pend = state.pending
    if pend is not None and pend.player == seat:
        decision = tr.name("decision", pend.kind)
        return CallVM(DECISION, (DECISION, state.turn, pend.kind), tr("join.call_decision", decision=decision))
    if pend is not None:
        shown = pending_view(state, tr)
        if shown is not None and any(a.seat == seat for a in shown.helpers):
            player = state.players[pend.player].name
            return CallVM(HELP, (HELP, state.turn, pend.player), tr("join.call_help", player=player))
    offence = reactions_view(state, tr, seats=(seat,)).offence if state.offence is not None else None
    if offence is not None and any(a.seat == seat for a in offence.reports):
        key = (REPORT, state.turn, offence.offender, offence.rule)
        return CallVM(REPORT, key, tr("join.call_report", player=offence.offender_name))
    if pend is None and state.active == seat:
        return CallVM(TURN, (TURN, state.turn), tr("join.call_turn"))
    return None


def seat_said(call: CallVM | None) -> SaidVM:
    """A seat's own turn or decision is its banner's headline; a Weapon it may play or an offence
    it may report is a line under the table's."""
    if call is None:
        return SaidVM()
    if call.kind in (TURN, DECISION):
        return SaidVM(headline=call.text)
    return SaidVM(cue=call.text)


def table_step(
    state: GameState,
    tr: Tr,
    chance: TableChance,
    *,
    michel_for: dict[str, Any] | None = None,
    michel_drawn: Sequence[str] = (),
    card_asked: PickAsk | None = None,
    die_for: AnswerVM | None = None,
) -> str | None:
    """What the table must do with its real box now, in words (None: nothing from the box).

    `michel_for`, `michel_drawn`, `card_asked` and `die_for` are the console's open questions
    (vm/interaction.py: an action waiting for a Michel card or a random card, an answer waiting
    for the die); whom a Michel card is drawn for is the engine's (`next_michel_draw`); a
    neutral's move waits for the die when the table rolls its own."""
    if state.winner is not None:
        return None
    names = [p.name for p in state.players]
    if chance.michel and michel_for is not None:
        draw = next_draw(state, dict(michel_for, michel_cards=list(michel_drawn)))
        return tr("ui.step_michel_for", player=names[draw.seat]) if draw is not None else tr("ui.step_michel")
    if chance.cards and card_asked is not None:
        return tr("ui.step_card", player=names[card_asked.seat])
    if chance.dice and die_for is not None:
        return tr("ui.step_die", player=names[die_for.seat])
    pend = state.pending
    if chance.dice and pend is not None and pend.kind == "neutral_move":
        return tr("ui.step_neutral_die", player=names[pend.player])
    return None
