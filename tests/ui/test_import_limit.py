"""The app's import refuses a game file over the limit (companion/gamefile.py) before decoding it,
in the player's language."""

from __future__ import annotations

import asyncio
from pathlib import Path

from companion.gamefile import MAX_BYTES
from storage import Store

from .conftest import make_store, show
from .test_app_offline import new_app


def test_the_apps_import_refuses_a_file_over_the_limit(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    told: list[str] = []

    async def run() -> None:
        app = await new_app(store, tmp_path)
        app.toast = told.append  # type: ignore[method-assign]
        await show(app, "/")
        await app.screen.import_bytes(b" " * (MAX_BYTES + 1))

    try:
        asyncio.run(run())
    finally:
        store.close()
    assert told == ["Could not import that file: The file is larger than 8 MB, the most a game file may be."]
    with Store(str(tmp_path / "games.sqlite3")) as again:
        assert again.list_games() == []
