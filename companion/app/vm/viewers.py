"""Whose eyes a table screen is for (the referee's console, a seat's phone, the table view), as
far as taps are concerned: whose menu it offers, whose decisions it may answer, whether it may
record a refused action anyway or rewind the log."""

from __future__ import annotations

from typing import Protocol

from companion.rules import GameState


class Viewer(Protocol):
    """Whose screen it is, as far as taps are concerned."""

    may_force: bool  # "record anyway" (a house rule wins over the referee): the referee's call
    may_rewind: bool  # undo and redo
    stale_text: str  # what a write refused as stale says ("the table changed")

    def menu_seat(self, state: GameState) -> int | None:
        """The seat whose turn menu this screen offers (None: no menu)."""
        ...

    def answers_for(self, seat: int) -> bool:
        """Whether this screen answers `seat`'s decisions."""
        ...

    def refused_before_store(self, error: Exception) -> bool:
        """Handle a write the session refused before the store (a phone's seat); False: not one."""
        ...


class Referee:
    """The referee's console: every seat's menu and decisions, force and rewind."""

    may_force = True
    may_rewind = True
    stale_text = "ui.stale"

    def menu_seat(self, state: GameState) -> int | None:
        return state.active

    def answers_for(self, seat: int) -> bool:
        return True

    def refused_before_store(self, error: Exception) -> bool:
        return False
