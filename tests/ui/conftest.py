"""Fixtures for the UI tests: a store on a temporary database, a settings file, a live server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from drivers.browser import AppServer


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


async def until(check: Any, what: str, timeout: float = 60.0) -> None:
    """Wait on the loop until `check()` holds: something done off the loop has arrived (a write,
    its news at another screen, a screen read again and drawn). Check what the screen shows, not
    the store behind it, which changes a moment before the screen is read again and drawn. The
    timeout only fails what never arrives: a loaded machine gets there later, not elsewhere."""
    import asyncio
    import time

    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"no {what} within {timeout:.0f} s"
        await asyncio.sleep(0.01)


async def settled(screen: Any) -> None:
    """Wait until the screen's taps that went to the store (off the loop, offloop.py) are taken in."""
    import asyncio

    while screen.writing is not None and not screen.writing.done():
        await asyncio.wrap_future(screen.writing)


async def monkey_step(app: Any, rng: Any) -> bool:
    """One random move of a monkey at a table screen, through the screen's own handlers and only
    what its viewer is offered (a phone: its seat's turn, decisions and reactions): a reaction now
    and then, a decision's answer or cards, or an action of the turn, its inputs chosen at random.
    False: the screen offers nothing now."""
    table = app.screen
    await settled(table)
    state, policy, tr, ctl = table.session.state, table.policy, app.tr, table.control
    pend = policy.pending_for(state, tr, table.physical().dice)
    reactions = policy.reactions_for(state, tr)
    seat = policy.menu_seat(state)
    if ctl.michel_for is not None:  # the table draws the real Michel cards: which came up
        while ctl.michel_for is not None:
            ctl.pick_michel(rng.choice(list(state.catalog.michel_cards)))
    elif ctl.card_for is not None:  # the table draws a card at random from a real hand: which
        while ctl.card_for is not None and ctl.card_asked is not None:
            ask = ctl.card_asked
            ctl.pick_card(rng.choice([*ask.cards, *(["unknown"] if ask.unknown else [])]))
    elif ctl.die_for is not None:  # the table rolls its real die: the face
        ctl.answer_with_die(ctl.die_for, rng.randint(1, 6))
    elif reactions.others and rng.random() < 0.1:
        ctl.choose_answer(rng.choice(reactions.others))
    elif pend is not None and pend.pick is not None:
        cards = [c for c, _, n in pend.pick.cards for _ in range(n)]
        for card in rng.sample(cards, pend.pick.count):
            ctl.pick.append(card)
        ctl.submit_pick()
    elif pend is not None and pend.answers:
        ctl.choose_answer(rng.choice(pend.answers))
    elif seat is not None:
        from companion.app.vm.actions import action_menu, end_turn_vm

        menu = [a.type for a in action_menu(state, seat, tr) if a.enabled]
        kinds = menu + (["end_turn"] * 3 if end_turn_vm(state, seat, tr) is not None else [])
        if not kinds:
            return False
        ctl.start_action(rng.choice(kinds), quick=rng.random() < 0.5)
        await _compose(table, rng)
    else:
        return False
    await settled(table)
    return True


async def _compose(table: Any, rng: Any) -> None:
    """Answer each input the action asks for at random (a cancelled composer if it never ends)."""
    for _ in range(12):
        await settled(table)
        composer = table.control.composer
        step = composer.step() if composer is not None else None
        if step is None:
            break
        if step.kind == "one":
            options = [c.value for c in step.choices if c.enabled] or [step.choices[0].value]
            table.control.answer(step.field, rng.choice(options))
        elif step.kind == "number":
            table.control.answer(step.field, step.default if step.default is not None else step.low)
        elif step.kind == "die":
            table.control.answer(step.field, [rng.randint(1, 6) for _ in range(step.exact or 1)])
        else:
            pool = [c.value for c in step.choices if c.enabled for _ in range(c.limit or step.high)]
            need = step.exact if step.exact is not None else step.low
            chosen = (
                list(step.default)
                if step.default and len(step.default) == need
                else rng.sample(pool, min(need, len(pool)))
            )
            table.control.answer(step.field, chosen)
    await settled(table)
    if table.control.composer is not None:
        table.control.cancel_action()


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
