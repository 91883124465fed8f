"""Screens redraw "the rest" of their table in turns, so news of another table is not held up.

After an action every screen of that game sends its headline, then rebuilds the rest of its
table (tens of milliseconds each). A headline of another game arriving meanwhile must wait for
one rebuild at most, not for every screen's.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from companion.app.ui.widgets.patch import rest_turn

from .conftest import until

WAIT = 60.0  # s: the most a test waits for what must come (a loaded machine is slow, not wrong)


def test_a_headline_heard_during_a_rebuild_goes_before_the_next_rebuild() -> None:
    order: list[str] = []

    began, queued = threading.Event(), threading.Event()

    async def rest(name: str) -> None:
        async with rest_turn():
            began.set()
            queued.wait(WAIT)  # a rebuild holds the loop; meanwhile another table's news is handed to it
            order.append(name)

    async def main() -> None:
        loop = asyncio.get_running_loop()

        def news() -> None:  # the listening thread hands another table's news to the loop
            began.wait(WAIT)
            loop.call_soon_threadsafe(order.append, "headline")
            queued.set()

        listener = threading.Thread(target=news)
        listener.start()
        await asyncio.gather(rest("rest 1"), rest("rest 2"), rest("rest 3"))
        listener.join()

    asyncio.run(main())
    assert order == ["rest 1", "headline", "rest 2", "rest 3"]


def test_each_loop_has_its_own_turns() -> None:
    """Servers in tests and workers each run their own loop: a turn never crosses them (a lock
    waited on in one loop cannot be waited on in another)."""

    async def rest() -> None:
        async with rest_turn():
            pass

    async def two_rests() -> None:
        await asyncio.gather(rest(), rest())  # the second waits for the first

    asyncio.run(two_rests())
    asyncio.run(two_rests())


def test_the_screen_that_recorded_an_action_rebuilds_after_every_headline(tmp_path: Path) -> None:
    """A tap's screen sends its headline, the other screens of the game theirs (each taking the
    table the news carry, with no read of the store), and only then does any screen rebuild the
    rest: the tapping screen's rebuild never holds back the news on the phones."""
    from companion.bench.instance import Instance

    async def run() -> tuple[list[tuple[str, str]], int]:
        one = Instance(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path, "one")
        try:
            game = one.store.create_game({"players": [{"name": n} for n in ("Ann", "Bo", "Cy")], "seed": 3})
            secret = one.store.devices.secret(game)
            referee = await one.open_screen(f"/game/{game}")
            apps = {"referee": referee}
            for seat in range(3):
                device, _ = one.services.join.join(game, secret, "127.0.0.1", seat, "test phone")
                apps[f"phone {seat}"] = await one.open_screen(f"/play/{game}", device)
            order: list[tuple[str, str]] = []
            for name, app in apps.items():
                _note(app.screen, "show_headline", "headline", name, order)
                _note(app.screen, "refresh", "rest", name, order)
            reads = []
            load = one.store.load
            one.store.load = lambda game_id: reads.append(game_id) or load(game_id)
            referee.screen.control.submit({"type": "search", "player": 0})
            await until(lambda: sum(kind == "rest" for kind, _ in order) == len(apps), "rebuild of every screen", WAIT)
            return order, len(reads)
        finally:
            one.close()

    order, reads = asyncio.run(run())
    headlines = [i for i, (kind, _) in enumerate(order) if kind == "headline"]
    rests = [i for i, (kind, _) in enumerate(order) if kind == "rest"]
    assert len(headlines) == len(rests) == 4, order
    assert max(headlines) < min(rests), order
    assert order[0] == ("headline", "referee"), order
    assert reads == 0  # the phones took the table the news carried


def test_a_screen_with_nothing_to_do_now_rebuilds_after_the_others(tmp_path: Path, monkeypatch: Any) -> None:
    """The screens that offer something now (the referee's, the phone whose turn it is) rebuild
    the rest at once; a phone of another seat, and the table view, wait `WATCHING_REST_DELAY`,
    so the browsers draw every headline before the machine is busy with their rebuilds. That
    wait is held here until the first two have rebuilt: a slow machine cannot blur the two."""
    from companion.app.ui.screens import table_news
    from companion.bench.instance import Instance

    held = 7.5  # a delay of its own, so only the watching screens' wait is held
    monkeypatch.setattr(table_news, "WATCHING_REST_DELAY", held)

    async def run() -> tuple[list[str], list[str]]:
        opened, waiting = asyncio.Event(), []

        async def sleep(seconds: float) -> None:
            if seconds == held:
                waiting.append(seconds)
                await opened.wait()
            else:
                await asyncio.sleep(seconds)

        monkeypatch.setattr(table_news, "asyncio", SimpleNamespace(sleep=sleep))
        one = Instance(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path, "one")
        try:
            game = one.store.create_game({"players": [{"name": n} for n in ("Ann", "Bo", "Cy")], "seed": 3})
            secret = one.store.devices.secret(game)
            apps = {"referee": await one.open_screen(f"/game/{game}")}
            apps["table view"] = await one.open_screen(f"/game/{game}/table")
            for seat in range(3):
                device, _ = one.services.join.join(game, secret, "127.0.0.1", seat, "test phone")
                apps[f"phone {seat}"] = await one.open_screen(f"/play/{game}", device)
            rebuilt: list[str] = []
            for name, app in apps.items():
                _noted_rebuild(app.screen, name, rebuilt)
            apps["referee"].screen.control.submit({"type": "end_turn", "player": 0})
            deciding = {"referee", "phone 1"}  # Bo's turn now
            await until(
                lambda: deciding <= set(rebuilt) and len(waiting) == 3,
                "rebuild of Bo's screens while the others wait their turn",
                WAIT,
            )
            first = list(rebuilt)
            opened.set()
            await until(lambda: len(rebuilt) == len(apps), "rebuild of every screen", WAIT)
            return first, rebuilt
        finally:
            one.close()

    first, rebuilt = asyncio.run(run())
    assert sorted(first) == ["phone 1", "referee"], rebuilt  # the others waited their turn
    assert sorted(rebuilt[2:]) == ["phone 0", "phone 2", "table view"], rebuilt


def _noted_rebuild(screen: Any, name: str, rebuilt: list[str]) -> None:
    """Note when the screen first rebuilds the rest of its table (`refresh`)."""
    original = screen.refresh

    def noted(*args: Any, **kwargs: Any) -> Any:
        if name not in rebuilt:
            rebuilt.append(name)
        return original(*args, **kwargs)

    screen.refresh = noted


def _note(screen: Any, method: str, kind: str, name: str, order: list[tuple[str, str]]) -> None:
    """Record each call of one screen's `method` (the screen calls it through itself)."""
    original = getattr(screen, method)

    def noted(*args: Any, **kwargs: Any) -> Any:
        order.append((kind, name))
        return original(*args, **kwargs)

    setattr(screen, method, noted)
