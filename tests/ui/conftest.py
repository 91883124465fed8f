"""Fixtures for the UI tests: a store on a temporary database, a settings file, a live server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .harness import AppServer


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A browser test whose browser stopped answering runs once more: on a loaded machine
    headless chromium's renderer now and then crashes or hangs. Any other failure fails at once."""
    for item in items:
        if item.path.name.startswith("test_e2e_"):
            item.add_marker(pytest.mark.flaky(reruns=1, only_rerun=["BrowserStuck"]))


def make_store(folder: Path) -> Any:
    """The real store on a temporary SQLite file."""
    from storage import Store

    return Store(url=f"sqlite:///{folder / 'games.sqlite3'}")


@pytest.fixture
def store(tmp_path: Path) -> Any:
    return make_store(tmp_path)


@pytest.fixture
def settings_path(tmp_path: Path) -> Path:
    return tmp_path / "settings.json"


def write_settings(path: Path, **values: Any) -> None:
    path.write_text(json.dumps(values), encoding="utf-8")


@pytest.fixture
def server(store: Any, settings_path: Path):
    with AppServer(store, settings_path) as srv:
        yield srv


async def show(app: Any, route: str) -> None:
    """Show `route` and wait until its screen is drawn (a game's screen reads it off the loop first)."""
    app.show(route)
    await app.shown()


async def settled(screen: Any) -> None:
    """Wait until the screen's taps that went to the store (off the loop, offloop.py) are taken in."""
    import asyncio

    while screen.writing is not None and not screen.writing.done():
        await asyncio.wrap_future(screen.writing)


def drawn(page: Any) -> list[Any]:
    """Every control on a Flet page, depth first (what a test without a browser looks at)."""
    import flet as ft

    found: list[Any] = []

    def walk(control: ft.Control) -> None:
        found.append(control)
        for name in ("controls", "content", "actions", "rows", "columns", "cells", "label"):
            child = getattr(control, name, None)
            for c in child if isinstance(child, list) else [child]:
                if isinstance(c, ft.Control):
                    walk(c)

    for view in page.views:
        walk(view)
    return found


def identified(page: Any, pattern: str) -> list[Any]:
    """The controls on a page whose test identifier matches `pattern` (a regular expression)."""
    import re

    return [c for c in drawn(page) if re.fullmatch(pattern, getattr(c, "identifier", None) or "")]


def expanded_without_bounds(page: Any) -> list[str]:
    """Controls set to expand inside a Row or Column that wraps or scrolls, which has no edge to
    expand to: Flutter cannot lay that out (a wrapping row with an expanding name painted the
    setup grey, from that row down, while every control in it stayed tappable)."""
    import flet as ft

    return [
        f"{type(child).__name__} in a {'wrapping' if parent.wrap else 'scrolling'} {type(parent).__name__}"
        for parent in drawn(page)
        if isinstance(parent, ft.Row | ft.Column) and (parent.wrap or parent.scroll is not None)
        for child in parent.controls
        if child.expand
    ]
