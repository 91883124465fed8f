"""A tap that leaves a number field is not lost under a redrawn screen.

Leaving a field takes its number (`number_field`), and the screen is redrawn with it; a redraw
between the finger going down and coming up replaces or moves what the finger landed on (a line
read back above Record pushed it down), and the tap is lost. So the redraw a field's blur asks for
comes a moment later (`Shell.render`), once the tap is over; Enter redraws at once.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from companion.app.ui.shell import AFTER_TAP_S
from companion.app.ui.widgets.common import LEAVING_FIELD, number_field

from .conftest import make_store, show
from .test_app_offline import new_app


def _field(on_change: Any) -> Any:
    return number_field(2, on_change, low=0, high=9, label="Cigarettes", prefix="t").content


def test_leaving_a_field_hands_its_number_over_as_a_blur_and_enter_does_not() -> None:
    seen: list[tuple[int, bool]] = []
    for leave in ("on_blur", "on_submit"):
        field = _field(lambda v: seen.append((v, LEAVING_FIELD.get())))
        field.value = "5"
        getattr(field, leave)(SimpleNamespace(control=field))
    assert seen == [(5, True), (5, False)]
    assert LEAVING_FIELD.get() is False  # only while the number is handed over


def test_a_redraw_asked_for_by_leaving_a_field_comes_after_the_tap(tmp_path: Path) -> None:
    store = make_store(tmp_path)

    async def run() -> None:
        app = await new_app(store, tmp_path, 1280)
        await show(app, "/setup")
        screen = app.screen
        assert screen is not None
        drawn: list[int] = []
        body = screen.body
        screen.body = lambda: (drawn.append(1), body())[1]  # type: ignore[method-assign]
        token = LEAVING_FIELD.set(True)
        app.render()
        app.render()  # asked twice: drawn once
        LEAVING_FIELD.reset(token)
        assert not drawn, "redrawn while the finger may still be down"
        await asyncio.sleep(AFTER_TAP_S + 0.3)
        assert len(drawn) == 1, "never redrawn with the number taken"
        await asyncio.sleep(AFTER_TAP_S + 0.3)
        assert len(drawn) == 1, "redrawn again and again"
        app.render()  # any other redraw: at once
        assert len(drawn) == 2

    asyncio.run(run())
