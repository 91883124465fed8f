"""Which screen a route shows: the app's screens (screens/) and a phone's (join/)."""

from __future__ import annotations

from typing import Any


def screen_for(app: Any, path: str, query: dict[str, str]) -> Any:
    parts = [p for p in path.split("/") if p]
    head = parts[0] if parts else ""
    if head in ("join", "play"):  # a phone joining, and its seat: open to any browser with the secret
        from .join.screens import device_screen

        return device_screen(app, head, parts[1:], query)
    if not getattr(app, "host", True) and head not in ("rules", "settings"):  # only the host's browsers see games
        from .join.screens import NeutralScreen

        return NeutralScreen(app, query)
    if not parts:
        from .screens.home import HomeScreen

        return HomeScreen(app, query)
    if head == "setup":
        from .screens.setup import SetupScreen

        return SetupScreen(app, query)
    if head == "game" and len(parts) >= 2:
        game_id = parts[1]
        sub = parts[2] if len(parts) > 2 else ""
        if sub == "log":
            from .screens.log import LogScreen

            return LogScreen(app, game_id, query)
        if sub == "correct":
            from .screens.correct import CorrectScreen

            return CorrectScreen(app, game_id, query)
        if sub == "replay":
            from .screens.replay import ReplayScreen

            return ReplayScreen(app, game_id, query)
        if sub == "win":
            from .screens.win import WinScreen

            return WinScreen(app, game_id, query)
        if sub == "table" and app.services.joinable:  # the public table view: the QR code, the devices
            from .join.table_view import table_view_screen

            return table_view_screen(app, game_id, query)
        from .screens.table import TableScreen

        return TableScreen(app, game_id, query)
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
