"""The tutorial round's coach: what the guide does next and why, for a game of the tutorial.

The engine says whether a game is the tutorial and how far its log follows the guide
(`tutorial_progress`); this turns that into words: the step, what happens, why it is legal
with the rules it shows (their text as the flags cite it), and what the table may do now.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules import Game, is_tutorial, tutorial_progress

from .text import Tr


@dataclass(frozen=True)
class CoachVM:
    title: str
    text: str  # what happens at this step (or that the round is over / off the path)
    why: str = ""  # why it is legal
    rules: list[tuple[str, str]] = field(default_factory=list)  # (rule id, its text)
    die_hint: str = ""  # with the real die: which face the guide rolled
    action: dict[str, Any] | None = None  # the guide's action, for "Play this step"
    phase: str = "step"  # "step" | "done" | "off"


def coach_view(game: Game, tr: Tr, physical_dice: bool = False) -> CoachVM | None:
    """The coach of a tutorial game, or None for any other game."""
    if not is_tutorial(game.config):
        return None
    progress = tutorial_progress(game.log)
    if progress.played_on:  # a normal game now
        return None
    if progress.off_path:
        return CoachVM(tr("tutorial.off_title"), tr("tutorial.off_text", step=progress.done + 1), phase="off")
    step = progress.next
    if step is None:
        return CoachVM(tr("tutorial.done_title"), tr("tutorial.done_text"), phase="done")
    die = step.action.get("die")
    return CoachVM(
        tr("tutorial.title", step=step.number, total=progress.total),
        tr(f"tutorial.step.{step.number}.do"),
        tr(f"tutorial.step.{step.number}.why"),
        [(rule, tr.rule(rule)) for rule in step.rules],
        tr("tutorial.die_hint", die=die[0]) if die and physical_dice else "",
        dict(step.action),
    )
