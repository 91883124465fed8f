"""Ending a turn in one tap: End the turn, with the decision it leaves answered in the same tap.

With Michel & Michelle in play, ending a turn leaves its player one decision (MICH-2): move a
neutral, or (where the rules allow it) leave them where they are. The engine says so by a dry
run of End the turn on a copy of the game: the decision it leaves, with its legal answers (and,
with a real die, each neutral's faces and where they lead). The menu offers those answers under
End the turn, so one tap ends the turn and moves a neutral; a table that said once that the
neutrals stay (Settings) gets End the turn leaving them, one tap too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules import ActionOption, GameState, parse_action, step

from .actions import ActionVM, end_turn_vm
from .dice import PadVM, neutral_pads
from .pending import AnswerVM, pending_view
from .text import Tr

SKIP = "skip_neutral"


@dataclass
class TurnEndVM:
    """End the turn, and what the same tap may answer of the decision it leaves."""

    end_turn: ActionVM
    title: str = ""  # "End the turn and move a neutral:" when `moves` or `pads` are offered
    moves: list[AnswerVM] = field(default_factory=list)  # the app rolls: which neutral moves
    pads: list[PadVM] = field(default_factory=list)  # a real die: each neutral's faces and Places
    leave: AnswerVM | None = None  # leave them where they are (the rules let them stay)
    stays: bool = False  # the table's setting: End the turn itself leaves them (`leave` is its second write)

    @property
    def then(self) -> dict[str, Any] | None:
        """What the End the turn button records after ending the turn (None: nothing more)."""
        return self.leave.action if self.stays and self.leave is not None else None


def decision_after_end_turn(state: GameState, seat: int) -> GameState | None:
    """The game as ending `seat`'s turn now would leave it, when that leaves `seat` the neutrals'
    decision (the engine's dry run on a copy); None otherwise (no neutrals, a hand to discard
    first, another decision)."""
    if not state.neutral_names:
        return None
    trial = state.copy()
    try:
        answer = step(trial, parse_action({"type": "end_turn", "player": seat}, state.catalog))
    except Exception:  # refused before it is judged (a malformed state): End the turn alone
        return None
    pend = trial.pending
    if not answer.accepted or pend is None or pend.kind != "neutral_move" or pend.player != seat:
        return None
    return trial


def turn_end_view(
    state: GameState,
    seat: int,
    tr: Tr,
    options: list[ActionOption] | None = None,
    *,
    physical_dice: bool = False,
    neutrals_stay: bool = False,
) -> TurnEndVM | None:
    """End the turn for `seat`, with the neutrals' answers the same tap may give."""
    base = end_turn_vm(state, seat, tr, options)
    if base is None:
        return None
    after = decision_after_end_turn(state, seat) if base.enabled else None
    # Its answers as words (no die asked of them: with a real die the pads carry the faces).
    decision = pending_view(after, tr) if after is not None else None
    if after is None or decision is None:
        return TurnEndVM(base)
    leave = next((a for a in decision.answers if a.action.get("type") == SKIP), None)
    if neutrals_stay and leave is not None:
        base.hint = tr("ui.end_turn_neutrals_stay")
        return TurnEndVM(base, leave=leave, stays=True)
    if physical_dice:  # one tap: the neutral, the face and where it goes
        return TurnEndVM(base, tr("ui.end_turn_and_move"), [], neutral_pads(after, seat, tr), leave)
    moves = [a for a in decision.answers if a.action.get("type") != SKIP]
    return TurnEndVM(base, tr("ui.end_turn_and_move"), moves, [], leave)
