"""Whose eyes a table screen is for: the viewer policies of the one table screen.

The referee's console (`Console`, here), a seat's phone and the table view (join/) are the
same screen (`screens/table.py`) with a different policy: which session it opens, whose menu
and decisions it offers, what its title, buttons and own panel are, how what happened is told,
and what it does on arriving and leaving. A policy only answers; the screen draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.rules import Event, GameState

from ..session import TableSession
from ..vm.interaction import Referee
from ..vm.log import recent_lines
from ..vm.pending import PendingVM, pending_view
from ..vm.reactions import ReactionsVM, reactions_view
from ..vm.table import names_of
from ..vm.text import Tr
from ..widgets.common import icon_button

if TYPE_CHECKING:
    from .table import TableScreen


class Console(Referee):
    """The referee's console: every hand and entry, force, undo and redo, and a link to the
    table view where phones can reach this server."""

    viewer: int | None = None  # None: the referee's eyes, which see every entry
    won_route = True  # a won game opens the win screen (a device's screen keeps the table)

    def open_session(self, app: Any, game_id: str) -> TableSession:
        return TableSession(app.store, game_id)

    def pending_for(self, state: GameState, tr: Tr, physical: bool) -> PendingVM | None:
        return pending_view(state, tr, physical)

    def reactions_for(self, state: GameState, tr: Tr) -> ReactionsVM:
        return reactions_view(state, tr)

    def lines_for(self, screen: TableScreen, events: Sequence[Event]) -> list[str]:
        """What just happened, in words, for this screen's viewer."""
        return recent_lines(events, names_of(screen.session.state), screen.tr)

    def news_lines(self, screen: TableScreen, events: Sequence[Event]) -> list[str]:
        """What another screen's action did, as this screen words it."""
        return [screen.tr("ui.remote_change")]

    def title_template(self, screen: TableScreen) -> tuple[str, dict[str, Any]]:
        s = screen.session.state
        return "ui.table_title", {"turn": s.turn, "player": s.players[s.active].name}

    def back_route(self, screen: TableScreen) -> str | None:
        return "/"

    def actions(self, screen: TableScreen) -> list[ft.Control]:
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

    def extra(self, screen: TableScreen, shown: Any) -> tuple[Any, ft.Control | None]:
        """A panel of its own under what answers a tap, and what it shows (a key: the same key,
        nothing to redraw). None: no panel."""
        return None, None

    @property
    def has_extra(self) -> bool:
        return False

    def opened(self, screen: TableScreen) -> None:
        """The screen is open (subscriptions, presence)."""

    def left(self, screen: TableScreen) -> None:
        """The screen is closing."""
