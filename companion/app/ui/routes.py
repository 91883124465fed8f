"""Which screen a route shows: the app's screens (screens/) and a phone's (phone/).

Most screens are built from something stored: a game (`Opening`: the table in any viewer's
eyes, its log, corrections, replay, final standings) or the lists of games (`Listing`: home,
the history). `read_for` says what a route reads; the shell reads it off the loop, in its lane
(opening.py), then `screen_for` builds the screen from it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..services.opening import LISTS, Opening, read_listing, read_opening
from .port import AppPort, ShownScreen


@dataclass(frozen=True)
class Read:
    """What a route's screen is built from: `fn(*args)`, run off the loop in lane `lane`."""

    lane: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]


def _parts(path: str) -> list[str]:
    return [p for p in path.split("/") if p]


def _host_only(app: AppPort, head: str) -> bool:
    """Only the host's browsers see games, the setup and the history; anyone sees the rest."""
    return not getattr(app, "host", True) and head not in ("rules", "settings", "join", "play")


def read_for(app: AppPort, path: str) -> Read | None:
    """What this route's screen reads before it is drawn; None: it reads nothing first."""
    parts = _parts(path)
    head = parts[0] if parts else ""
    if _host_only(app, head) or head in ("setup", "rules", "settings", "join"):
        return None
    services = app.services
    if head == "game" and len(parts) >= 2:
        link = len(parts) > 2 and parts[2] == "table" and services.joinable  # the host's table view
        return Read(parts[1], read_opening, (services, parts[1], link))
    if head == "play":  # a seat this tab already holds (else the gate reads the token first)
        from .phone.device import seated

        if len(parts) >= 2 and parts[1] in seated(app):
            return Read(parts[1], read_opening, (services, parts[1]))
        return None
    return Read(LISTS, read_listing, (services, head == "history"))  # home (any other route) or the history


def screen_for(app: AppPort, path: str, query: dict[str, str], read: Any = None) -> ShownScreen:
    """The screen of `path`, built from what `read_for` named, as read (`read`)."""
    parts = _parts(path)
    head = parts[0] if parts else ""
    if head in ("join", "play"):  # a phone joining, and its seat: open to any browser with the secret
        from .phone.screens import device_screen

        return device_screen(app, head, parts[1:], query, read)
    if _host_only(app, head):
        from .phone.screens import NeutralScreen

        return NeutralScreen(app, query)
    if head == "setup" and parts[1:] == ["checklist"]:  # the checklist of the setup being filled in
        from .screens.checklist import ChecklistScreen

        return ChecklistScreen.of_setup(app, query)
    if head == "setup":
        from .screens.setup import SetupScreen

        return SetupScreen(app, query)
    if head == "game" and len(parts) >= 2:
        return _game_screen(app, parts[2] if len(parts) > 2 else "", query, read)
    if head == "rules":
        from .screens.rules import RulesScreen

        return RulesScreen(app, query)
    if head == "settings":
        from .screens.settings import SettingsScreen

        return SettingsScreen(app, query)
    if head == "history":
        from .screens.history import HistoryScreen

        return HistoryScreen(app, query, read)
    from .screens.home import HomeScreen

    return HomeScreen(app, query, read)


def _game_screen(app: AppPort, sub: str, query: dict[str, str], opening: Opening) -> ShownScreen:
    if sub == "log":
        from .screens.log import LogScreen

        return LogScreen(app, opening, query)
    if sub == "correct":
        from .screens.correct import CorrectScreen

        return CorrectScreen(app, opening, query)
    if sub == "replay":
        from .screens.replay import ReplayScreen

        return ReplayScreen(app, opening, query)
    if sub == "checklist":
        from .screens.checklist import ChecklistScreen

        return ChecklistScreen.of_game(app, opening, query)
    if sub == "win":
        from .screens.win import WinScreen

        return WinScreen(app, opening, query)
    if sub == "table" and app.services.joinable:  # the public table view: the QR code, the devices
        from .phone.table_view import table_view_screen

        return table_view_screen(app, opening, query)
    from .screens.table import TableScreen

    return TableScreen(app, opening, query)
