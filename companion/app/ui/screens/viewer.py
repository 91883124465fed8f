"""Whose eyes a table screen is for: the viewer policies of the one table screen.

The referee's console (`Console`, here), a seat's phone and the table view (ui/phone/) are the
same screen (`screens/table.py`) with a different policy: which session it opens, whose menu
and decisions it offers, what its title, buttons and own panel are, how what happened is told,
and what it does on arriving and leaving. A policy only answers; the screen draws.

The console may be the referee's own screen or the one screen the whole table shares (the
"This screen" setting; shared by default). A shared console is drawn through the public eyes the
engine projects (`view`, SPECTATOR): hands show only their size, and "what just happened" is
told in public words, until a player taps "show my hand", which draws it through that seat's
eyes until the next action or `REVEAL_SECONDS`. Which it is never changes by itself (phones
joining change nothing): the console always says it, with the one tap that changes it.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

import flet as ft

from companion.rules import Event, GameState, view

from ...services.news import PRESENCE, SCREEN_CHANGED, devices_topic
from ...services.opening import Opening, Seating, read_seating
from ...services.session import TableSession
from ...vm.call import SaidVM, table_step
from ...vm.log import recent_lines
from ...vm.pending import PendingVM, pending_view
from ...vm.reactions import ReactionsVM, reactions_view
from ...vm.seat import SPECTATOR, event_lines
from ...vm.table import names_of
from ...vm.text import Tr
from ...vm.viewers import Referee
from ..port import AppPort
from ..widgets.common import icon_button
from ..widgets.privacy import screen_privacy
from .live import LiveTable

log = logging.getLogger(__name__)


class Console(Referee):
    """The referee's console: every entry, force, undo and redo, every hand unless the table
    shares the screen, and a link to the table view where phones can reach this server."""

    viewer: int | None = None  # None: the referee's eyes, which see every entry
    won_route = True  # a won game opens the win screen (a device's screen keeps the table)
    follows_seating = False  # what it shows depends on who holds a seat (read again when that changes)
    shows_link = False  # it shows the join link (its secret is read with the seating)

    def __init__(self) -> None:
        self.screen: LiveTable | None = None
        self.seating = Seating()  # who holds a seat, read when the screen opens and on each change
        self.shared = False  # decided when the screen opens, again when its phones change

    def open_session(self, app: AppPort, opening: Opening) -> TableSession:
        return app.services.tables.session(opening.game_id, app.page, opening.table)

    def seen(self, screen: LiveTable) -> tuple[GameState, int | None]:
        """The state the table is drawn from and whose eyes: everything for the referee; on a
        shared screen the engine's public projection, or one seat's while its hand is shown."""
        state = screen.session.state
        if not self.shared:
            return state, None
        eyes = screen.control.revealed_seat()
        eyes = SPECTATOR if eyes is None else eyes
        return view(state, eyes), eyes

    def pending_for(self, state: GameState, tr: Tr, physical: bool) -> PendingVM | None:
        pend = pending_view(state, tr, physical)
        screen = self.screen
        if pend is not None and self.shared and screen is not None and screen.control.revealed_seat() != pend.seat:
            pend.show_hand = None  # a Spy's look at a hand waits for the spy's "show my hand"
        return pend

    def reactions_for(self, state: GameState, tr: Tr) -> ReactionsVM:
        return reactions_view(state, tr)

    def lines_for(self, screen: LiveTable, events: Sequence[Event]) -> list[str]:
        """What just happened, in words, for this screen's viewer (public words when shared)."""
        names = names_of(screen.session.state)
        if self.shared:
            return event_lines(events, names, screen.tr, SPECTATOR)
        return recent_lines(events, names, screen.tr)

    def news_lines(self, screen: LiveTable, events: Sequence[Event]) -> list[str]:
        """What another screen's action did (a phone's, the table view's), told as this screen
        tells its own; a change without events (an undo) only says that the game changed."""
        return self.lines_for(screen, events) or [screen.tr("ui.remote_change")]

    def said(self, screen: LiveTable) -> SaidVM:
        """Beyond whose turn it is: what the table must do with its real box now, if anything
        ("Roll the die for Anna", "Draw a Michel card for Anna")."""
        ctl = screen.control
        step = table_step(
            screen.session.state,
            screen.tr,
            ctl.port.physical(),
            michel_for=ctl.michel_for,
            michel_drawn=ctl.michel_drawn,
            card_asked=ctl.card_asked if ctl.card_for is not None else None,
            die_for=ctl.die_for,
        )
        return SaidVM(cue=step)

    def heard(self, screen: LiveTable, news: bool) -> None:
        """The game changed (`news`: on another screen; else by this screen's own tap)."""

    def title_template(self, screen: LiveTable) -> tuple[str, dict[str, Any]]:
        s = screen.session.state
        return "ui.table_title", {"round": s.round, "player": s.players[s.active].name}

    def back_route(self, screen: LiveTable) -> str | None:
        return "/"

    def actions(self, screen: LiveTable) -> list[ft.Control]:
        tr, app, game = screen.tr, screen.app, screen.game_id
        control = screen.control
        actions = [
            icon_button(
                ft.Icons.UNDO,
                tr("ui.undo"),
                lambda e: control.undo(),
                identifier="nav-undo",
                enabled=screen.session.can_undo,
            ),
            icon_button(
                ft.Icons.REDO,
                tr("ui.redo"),
                lambda e: control.redo(),
                identifier="nav-redo",
                enabled=screen.session.can_redo,
            ),
            icon_button(
                ft.Icons.RECEIPT_LONG, tr("ui.log"), lambda e: app.go(f"/game/{game}/log"), identifier="nav-log"
            ),
            icon_button(
                ft.Icons.CHECKLIST,
                tr("checklist.open"),
                lambda e: app.go(f"/game/{game}/checklist"),
                identifier="nav-checklist",
            ),
            icon_button(
                ft.Icons.EDIT_NOTE,
                tr("correct.open"),
                lambda e: app.go(f"/game/{game}/correct"),
                identifier="nav-correct",
            ),
            icon_button(
                ft.Icons.MENU_BOOK,
                tr("ui.rules"),
                lambda e: app.go("/rules", back=f"/game/{game}"),
                identifier="nav-rules",
            ),
            icon_button(
                ft.Icons.SETTINGS,
                tr("ui.settings"),
                lambda e: app.go("/settings", back=f"/game/{game}"),
                identifier="nav-settings",
            ),
        ]
        if app.services.joinable:  # the table view holds the join QR code: only where phones can reach us
            actions.append(
                icon_button(
                    ft.Icons.QR_CODE_2,
                    tr("join.table_view"),
                    lambda e: app.go(f"/game/{game}/table"),
                    identifier="nav-table-view",
                )
            )
        return actions

    def extra(self, screen: LiveTable, shown: Any) -> tuple[Any, ft.Control | None]:
        """A panel of its own under what answers a tap, and what it shows (a key: the same key,
        nothing to redraw). The console's says whether it shows the hands."""
        key = (self.shared, screen.tr.lang)
        if key == shown:
            return key, None
        return key, screen_privacy(screen.tr, self.shared, lambda shared: self.share(screen, shared))

    @property
    def has_extra(self) -> bool:
        return True

    def share(self, screen: LiveTable, shared: bool) -> None:
        """The table chose, on this screen, whether it shows the hands: saved for the host's
        screens, and told to the game's phones (whose hand notes depend on it)."""
        app = screen.app
        app.save_settings(dataclasses.replace(app.settings, screen="shared" if shared else "private"))
        self.shared = shared
        app.services.tables.screen_changed(app.page, screen.game_id)
        screen.refresh()

    def opened(self, screen: LiveTable, seating: Seating) -> None:
        """The screen is open: follow its devices (a phone taking a seat ends an automatic
        shared screen)."""
        self.screen = screen
        self.seating = seating
        self.shared = self.shares(screen)
        try:
            screen.app.services.news.subscribe(screen.app.page, devices_topic(screen.game_id), self._devices_changed)
        except Exception:
            log.debug("no news for this page", exc_info=True)

    def left(self, screen: LiveTable) -> None:
        """The screen is closing."""
        try:
            screen.app.services.news.unsubscribe(screen.app.page, devices_topic(screen.game_id))
        except Exception:
            pass

    async def _devices_changed(self, topic: str, message: Any) -> None:
        """A device joined, left or was freed: read the table's seating again, off the loop."""
        screen = self.screen
        if screen is None or screen.app.screen is not screen or not isinstance(message, dict):
            return
        if self.follows_seating and message.get("kind") not in PRESENCE:  # online, away: same seats
            try:
                self.seating = await screen.app.services.tables.read(
                    screen.game_id, read_seating, screen.app.services, screen.game_id, self.shows_link
                )
            except Exception:  # a storage problem: keep what was read last
                log.info("cannot read the devices of %s", screen.game_id, exc_info=True)
        if screen.app.screen is screen:
            self.devices_changed(screen, message)

    def shares(self, screen: LiveTable) -> bool:
        """Whether this screen is the table's shared one (the setting, never the phones seated)."""
        return bool(screen.app.settings.shared_screen)

    def devices_changed(self, screen: LiveTable, message: dict[str, Any]) -> None:
        """Another console of the game changed what the host's screens show: follow it."""
        if message.get("kind") == SCREEN_CHANGED:
            screen.app.settings = screen.app.services.settings_file.load()
        shared = self.shares(screen)
        if shared != self.shared:
            self.shared = shared
            screen.refresh()
