"""Redrawing a screen in place, as small patches.

A screen keeps its structure between redraws (columns, slots, cards) and only changes what is
new; `Patch` finds which of its parts changed (by a cheap signature of each) and sends what
answers a tap first, the rest a frame later, so the browser draws the answer at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any

import flet as ft

from ..port import AppPort

REST_DELAY = 0.012  # about a frame: the browser starts drawing the tap's answer before the rest arrives
_REST_TURNS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = weakref.WeakKeyDictionary()


@contextlib.asynccontextmanager
async def rest_turn() -> AsyncIterator[None]:
    """The turn of the screens sending "the rest" on this loop (every session of the process).

    A screen's rest (its table rebuilt, the changed parts diffed and sent) takes milliseconds
    to tens of them, and every screen of a game does its own after an action; news of another
    table arriving meanwhile would wait for all of them. Taken in turns, each ending one pass of
    the loop after its work, what was queued meanwhile (a headline) runs before the next rest:
    it waits for one at most.
    """
    loop = asyncio.get_running_loop()
    lock = _REST_TURNS.get(loop)
    if lock is None:
        lock = _REST_TURNS[loop] = asyncio.Lock()
    async with lock:
        yield
        await asyncio.sleep(0)


def signature(control: ft.Control) -> tuple[Any, ...]:
    """What a redraw may have changed in a part: its children's identities and its own state."""
    children = getattr(control, "controls", None)
    content = getattr(control, "content", None)
    own = tuple(getattr(control, name, None) for name in ("visible", "height", "bgcolor", "label", "value"))
    if children is not None:
        return own + tuple(map(id, children))
    if isinstance(control, ft.Semantics) and control.content is not None and hasattr(control.content, "bgcolor"):
        box = control.content
        inner = getattr(box, "content", None)  # a Container: the box the Semantics names
        texts = tuple((c.value, c.color) for c in getattr(inner, "controls", []) if isinstance(c, ft.Text))
        rows = tuple(tuple(map(id, c.controls)) for c in getattr(inner, "controls", []) if isinstance(c, ft.Row))
        return own + (box.bgcolor,) + texts + rows
    return own + (id(content),)


def buttons_key(controls: Sequence[ft.Control]) -> tuple[Any, ...]:
    """What a row of buttons shows and does (a button's handler is the same screen's): equal
    keys, the same buttons, so the ones already sent can stay."""
    return tuple(
        (
            type(c),
            getattr(c, "identifier", None),
            getattr(c, "label", None),
            getattr(getattr(c, "content", None), "icon", None),
            getattr(getattr(c, "content", None), "disabled", None),
        )
        for c in controls
    )


class Patch:
    """The parts of one screen to watch, and the ones still to send after a tap's first patch."""

    def __init__(self, app: AppPort) -> None:
        self.app = app
        self._rest: list[ft.Control] = []
        self._scheduled = False

    @property
    def busy(self) -> bool:
        """Parts are still to be sent (a tap's rest, a frame after its answer)."""
        return bool(self._rest) or self._scheduled

    @staticmethod
    def before(parts: Iterable[ft.Control]) -> list[tuple[Any, ...]]:
        return [signature(c) for c in parts]

    @staticmethod
    def changed(parts: Sequence[ft.Control], before: Sequence[tuple[Any, ...]]) -> list[ft.Control]:
        return [c for c, old in zip(parts, before, strict=True) if signature(c) != old]

    def later(self, controls: Iterable[ft.Control]) -> None:
        """Send these a frame after what answers the tap (not while the browser is away: the
        next redraw sends them then)."""
        self._rest.extend(c for c in controls if c not in self._rest)
        if self._rest and not self._scheduled:
            self._scheduled = self.app.run_later(self._send)

    async def _send(self) -> None:
        await asyncio.sleep(REST_DELAY)
        async with rest_turn():
            controls, self._rest = self._rest, []
            self._scheduled = False
            try:
                for control in controls:
                    control.update()
            except RuntimeError:  # the screen changed meanwhile: the new one draws itself
                return
