"""Which screen a route shows: the app's screens (screens/) and a phone's (join/).

A screen about one stored game is built from that game as read off the loop (`opening.py`):
`game_read_by` names the game a route reads (and whether its screen shows the join link), the
shell reads it in the game's lane, then `screen_for` builds the screen from the `Opening`.
"""

from __future__ import annotations

from typing import Any

from .opening import Opening


def _parts(path: str) -> list[str]:
    return [p for p in path.split("/") if p]


def _host_only(app: Any, head: str) -> bool:
    """Only the host's browsers see games, the setup and the history; anyone sees the rest."""
    return not getattr(app, "host", True) and head not in ("rules", "settings", "join", "play")


def game_read_by(app: Any, path: str) -> tuple[str, bool] | None:
    """The stored game this route's screen is built from, and whether it shows the join link;
    None: the screen reads no game before it is drawn."""
    parts = _parts(path)
    if len(parts) < 2 or _host_only(app, parts[0]):
        return None
    head, game_id = parts[0], parts[1]
    if head == "game":
        sub = parts[2] if len(parts) > 2 else ""
        return game_id, sub == "table" and app.services.joinable
    if head == "play":  # a seat this tab already holds (else the gate reads the token first)
        from .join.screens import seated

        return (game_id, False) if game_id in seated(app) else None
    return None


def screen_for(app: Any, path: str, query: dict[str, str], opening: Opening | None = None) -> Any:
    parts = _parts(path)
    head = parts[0] if parts else ""
    if head in ("join", "play"):  # a phone joining, and its seat: open to any browser with the secret
        from .join.screens import device_screen

        return device_screen(app, head, parts[1:], query, opening)
    if _host_only(app, head):
        from .join.screens import NeutralScreen

        return NeutralScreen(app, query)
    if not parts:
        from .screens.home import HomeScreen

        return HomeScreen(app, query)
    if head == "setup":
        from .screens.setup import SetupScreen

        return SetupScreen(app, query)
    if head == "game" and opening is not None:
        return _game_screen(app, parts[2] if len(parts) > 2 else "", query, opening)
    if head == "rules":
        from .screens.rules import RulesScreen

        return RulesScreen(app, query)
    if head == "history":
        from .screens.history import HistoryScreen

        return HistoryScreen(app, query)
    if head == "settings":
        from .screens.settings import SettingsScreen

        return SettingsScreen(app, query)
    from .screens.home import HomeScreen

    return HomeScreen(app, query)


def _game_screen(app: Any, sub: str, query: dict[str, str], opening: Opening) -> Any:
    if sub == "log":
        from .screens.log import LogScreen

        return LogScreen(app, opening, query)
    if sub == "correct":
        from .screens.correct import CorrectScreen

        return CorrectScreen(app, opening, query)
    if sub == "replay":
        from .screens.replay import ReplayScreen

        return ReplayScreen(app, opening, query)
    if sub == "win":
        from .screens.win import WinScreen

        return WinScreen(app, opening, query)
    if sub == "table" and app.services.joinable:  # the public table view: the QR code, the devices
        from .join.table_view import table_view_screen

        return table_view_screen(app, opening, query)
    from .screens.table import TableScreen

    return TableScreen(app, opening, query)
