"""Screens, one per route. Each builds its app bar and body from view models and forwards taps."""

from __future__ import annotations

from typing import Any


def screen_for(app: Any, path: str, query: dict[str, str]) -> Any:
    parts = [p for p in path.split("/") if p]
    head = parts[0] if parts else ""
    if head in ("join", "play"):  # a phone joining, and its seat: open to any browser with the secret
        from ..join.screens import device_screen
        return device_screen(app, head, parts[1:], query)
    if not getattr(app, "host", True) and head not in ("rules", "settings"):  # only the host's browsers see games
        from ..join.screens import NeutralScreen
        return NeutralScreen(app, query)
    if not parts:
        from .home import HomeScreen
        return HomeScreen(app, query)
    if head == "setup":
        from .setup import SetupScreen
        return SetupScreen(app, query)
    if head == "game" and len(parts) >= 2:
        game_id = parts[1]
        sub = parts[2] if len(parts) > 2 else ""
        if sub == "log":
            from .log import LogScreen
            return LogScreen(app, game_id, query)
        if sub == "correct":
            from .correct import CorrectScreen
            return CorrectScreen(app, game_id, query)
        if sub == "replay":
            from .replay import ReplayScreen
            return ReplayScreen(app, game_id, query)
        if sub == "win":
            from .win import WinScreen
            return WinScreen(app, game_id, query)
        if sub == "table" and app.services.joinable:  # the public table view: the QR code, the devices
            from ..join.table_view import TableViewScreen
            return TableViewScreen(app, game_id, query)
        from .table import TableScreen
        return TableScreen(app, game_id, query)
    if head == "rules":
        from .rules import RulesScreen
        return RulesScreen(app, query)
    if head == "history":
        from .history import HistoryScreen
        return HistoryScreen(app, query)
    if head == "settings":
        from .settings import SettingsScreen
        return SettingsScreen(app, query)
    from .home import HomeScreen
    return HomeScreen(app, query)
