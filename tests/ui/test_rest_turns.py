"""Screens redraw "the rest" of their table in turns, so news of another table is not held up.

After an action every screen of that game sends its headline, then rebuilds the rest of its
table (tens of milliseconds each). A headline of another game arriving meanwhile must wait for
one rebuild at most, not for every screen's.
"""

from __future__ import annotations

import asyncio
import threading

from companion.app.widgets.patch import rest_turn


def test_a_headline_heard_during_a_rebuild_goes_before_the_next_rebuild() -> None:
    order: list[str] = []

    began, queued = threading.Event(), threading.Event()

    async def rest(name: str) -> None:
        async with rest_turn():
            began.set()
            queued.wait(5)  # a rebuild holds the loop; meanwhile another table's news is handed to it
            order.append(name)

    async def main() -> None:
        loop = asyncio.get_running_loop()

        def news() -> None:  # the listening thread hands another table's news to the loop
            began.wait(5)
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
