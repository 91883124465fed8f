"""The table screens of one game telling each other of a change.

The news carry the new version, the events and the table as recorded, and stay in this process:
each screen takes its own copy of that table (news from another instance, which carry no table,
make it read the store again) and shows only what its viewer may read.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from companion.rules import Event

from ...services.news import DELETED, game_topic
from .. import sound
from ..widgets.patch import rest_turn
from .live import LiveTable

# How long a screen with nothing to do now (nobody's turn or decision it offers) waits before
# rebuilding the rest of its table after another screen's change: the browsers of the table
# draw the headlines meanwhile, instead of sharing the machine with every screen's rebuild.
WATCHING_REST_DELAY = 0.15


class TableNews:
    """One table screen's side of its game's topic."""

    def __init__(self, screen: LiveTable) -> None:
        self.screen = screen
        self.app = screen.app
        self.topic = game_topic(screen.game_id)
        self.waiting = False  # a headline was sent, the rest of the table not yet
        try:
            self.app.services.news.subscribe(self.app.page, self.topic, self._heard)
        except Exception:  # news is a convenience for a second screen on the same game
            pass

    def leave(self) -> None:
        try:
            self.app.services.news.unsubscribe(self.app.page, self.topic)
        except Exception:
            pass

    async def _heard(self, topic: str, message: Any) -> None:
        screen = self.screen
        version = message.get("version", 0) if isinstance(message, dict) else 0
        if self.app.screen is not screen or screen.missing:
            return
        if isinstance(message, dict) and message.get("kind") == DELETED:
            screen.gone()
            return
        table = message.get("table") if isinstance(message, dict) else None
        if table is not None:  # a screen of this process recorded it: taken at once, every headline before any rest
            changed = screen.session.take_news(table)
        else:
            changed = await screen.session.refresh(version)
        if changed:
            events = list(message.get("events") or []) if isinstance(message, dict) else []
            self.show(events)

    def show(self, events: Sequence[Event]) -> None:
        """Another screen changed the game: whose turn it is and what happened go out first.

        Every screen of the game hears of the change at once, and each rebuilds its whole table
        for its own viewer; so each first sends only its headline (a small patch, drawn in one
        frame), and rebuilds the rest once every screen's headline is out. Any redraw meanwhile
        (a tap) draws everything, and the late rebuild then does nothing.
        """
        screen = self.screen
        ctl = screen.control
        ctl.reset()
        ctl.tell(screen.policy.news_lines(screen, events), events)
        screen.policy.heard(screen, news=True)  # a phone whose turn it now is buzzes
        sound.after(screen, events)  # an offence or a roll made on a phone sounds at the table
        self.headline_first(watching=not self._offers_now())

    def _offers_now(self) -> bool:
        """Whether the screen offers its viewer something to do now: the turn's menu, or any
        decision when it answers a seat's (a phone of another seat off its turn, or the table
        view, offers nothing until then)."""
        state = self.screen.session.state
        policy = self.screen.policy
        if policy.menu_seat(state) is not None:
            return True
        return state.pending is not None and any(policy.answers_for(p.seat) for p in state.players)

    def headline_first(self, watching: bool = False) -> None:
        """Send the headline now and the rest of the table in its turn (`rest_turn`), after the
        headlines of the game's other screens: the screen that recorded an action does the same,
        so its rebuild never holds back the news on the others. `watching`: nothing on this
        screen is to be done now, so its rest waits `WATCHING_REST_DELAY` (a tap meanwhile
        draws everything at once)."""
        screen = self.screen
        if not screen.frame_on_page() or screen.scrolled:
            screen.show()  # a scrolled panel goes back to its top first (see `LiveTable._show`)
            return
        try:
            screen.show_headline()
        except RuntimeError:  # not on the page any more
            return
        self.waiting = True
        if not self.app.run_later(self._show_rest, WATCHING_REST_DELAY if watching else 0):
            screen.show()

    async def _show_rest(self, delay: float) -> None:
        await asyncio.sleep(delay)  # at least a pass: the other screens' headlines were queued first
        async with rest_turn():
            if self.waiting and self.app.screen is self.screen:
                try:
                    self.screen.show()
                except RuntimeError:  # the session closed meanwhile: nothing to draw on
                    return
