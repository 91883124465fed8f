"""The console on a screen the whole table sees: public boards, words and decisions.

`Sharing` is the table screen's part that decides, per render, whether the screen is shared
(Settings, else shared until a phone joins) and then builds what it shows from the engine's
public view (vm/shared.py), with at most one hand shown on its owner's request.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..vm.pending import PendingVM
from ..vm.seat import event_lines
from ..vm.shared import REVEAL_SECONDS, HandReveal, is_shared, shared_pending, shared_table
from ..vm.table import TableVM, build_table, names_of


class Sharing:
    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.reveal = HandReveal()
        self.on = False
        self.locked: int | None = None  # the seat whose reveal opens the decision on screen
        self.drawn: int | None = None  # the seat whose hand the last render showed

    def update(self) -> bool:
        """Whether the screen is shared now (asked once per render)."""
        app, screen = self.screen.app, self.screen
        mode = app.settings.screen
        joined = len(app.services.join.listing(screen.game_id)) if mode == "auto" else 0
        self.on = screen.viewer is None and is_shared(mode, joined)
        return self.on

    @property
    def shown(self) -> int | None:
        return self.reveal.seat(self.screen.session.version) if self.on else None

    def table(self, state: Any, tr: Any, highlight: set[str]) -> TableVM:
        self.drawn = self.shown
        if not self.on:
            return build_table(state, tr, highlight, viewer=self.screen.viewer)
        return shared_table(state, tr, highlight, self.drawn)

    def pending(self, state: Any, tr: Any, physical: bool) -> PendingVM | None:
        """The decision; on a shared screen its cards only behind their owner's reveal."""
        self.locked = None
        vm = shared_pending(state, tr, physical, self.shown)
        if vm is None:
            return None
        self.locked = vm.locked
        return vm.pending

    def lines(self, events: list[dict[str, Any]]) -> list[str] | None:
        """What just happened in public words (None: not shared, the screen's own words)."""
        if not self.on:
            return None
        return event_lines(events, names_of(self.screen.session.state), self.screen.tr, None)

    def toggle(self, seat: int) -> None:
        """"Show my hand" or "Hide my hand" was tapped; a shown hand hides itself in time."""
        screen = self.screen
        if self.shown == seat:
            self.reveal.hide()
        else:
            self.reveal.show(seat, screen.session.version)
            screen.app.run_later(self._hide_in_time)
        screen.refresh()

    async def _hide_in_time(self) -> None:
        await asyncio.sleep(REVEAL_SECONDS + 0.05)
        screen = self.screen
        if screen.app.screen is screen and self.drawn is not None and self.shown is None:
            screen.refresh()
