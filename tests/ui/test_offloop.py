"""Store calls run off the event loop, in order per game (companion/app/services/offloop.py): while
game A's store call is held, game B's writes and screens go on, and so does the loop itself.

A's calls are held until the test lets them go, not slowed by a fixed time: whatever the test sees
meanwhile happened while A's store was busy, however slow the machine (an upper bound on how long
B took, once half a second, failed now and then on a loaded machine)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from flet.controls.context import _context_page
from flet.messaging.session import Session

from companion.app.services import offloop
from companion.app.services.session import TableSession
from companion.app.services.settings import SettingsFile
from companion.app.ui.shell import App, Services

from .conftest import make_store, settled, show, until
from .test_app_offline import FakeConnection, pack

WAIT = 30.0  # s: the most a test waits for what must come (a loaded machine is slow, not wrong)


class HeldFor:
    """The real store, with every call about one game held, once `hold()` is called, until
    `release()`. A held call that is never let go fails (after `WAIT`): it blocked what should
    have let it go, the loop or the other game."""

    def __init__(self, store: Any, game_id: str) -> None:
        self._store = store
        self.held_game = game_id
        self.released = threading.Event()
        self.released.set()
        self.entered = threading.Event()  # a call of the held game is under way

    def hold(self) -> None:
        self.released.clear()
        self.entered.clear()

    def release(self) -> None:
        self.released.set()

    def __getattr__(self, name: str) -> Any:
        call = getattr(self._store, name)
        if name not in ("load", "submit", "undo", "redo", "events"):
            return call

        def held(game_id: str, *args: Any, **kwargs: Any) -> Any:
            if game_id == self.held_game:
                self.entered.set()
                assert self.released.wait(WAIT), f"the held store call {name} was never let go"
            return call(game_id, *args, **kwargs)

        return held


def test_one_key_runs_in_order_while_another_runs_beside_it() -> None:
    lanes = offloop.Lanes(workers=4)
    done: list[str] = []
    gate = threading.Event()

    def job(name: str, wait: bool = False) -> str:
        if wait:
            assert gate.wait(WAIT)
        done.append(name)
        return name

    first = lanes.submit("A", job, "a1", True)  # held until the gate opens
    later = [lanes.submit("A", job, f"a{i}") for i in range(2, 6)]
    other = lanes.submit("B", job, "b1")
    assert other.result(timeout=WAIT) == "b1" and not first.done() and not any(f.done() for f in later)
    assert lanes.busy("A")
    gate.set()
    assert [f.result(timeout=WAIT) for f in [first, *later]] == ["a1", "a2", "a3", "a4", "a5"]
    assert done == ["b1", "a1", "a2", "a3", "a4", "a5"]
    assert not lanes.busy("A") and not lanes.busy("B")


def test_screens_asking_one_read_while_it_waits_share_it() -> None:
    """Three screens hear of one write while the game's lane is busy: one read serves them, and
    a read asked after it started is a read of its own (it may have begun before the news)."""
    lanes = offloop.Lanes(workers=2)
    gate = threading.Event()
    reads: list[int] = []

    def write() -> None:
        assert gate.wait(WAIT)

    def load(game: str) -> int:
        reads.append(len(reads))
        return len(reads)

    lanes.submit("A", write)
    asked = [lanes.read("A", load, "A") for _ in range(3)]
    assert asked[0] is asked[1] is asked[2]
    other_game = lanes.read("B", load, "B")
    assert other_game is not asked[0] and other_game.result(timeout=WAIT) == 1
    gate.set()
    assert asked[0].result(timeout=WAIT) == 2
    assert lanes.read("A", load, "A").result(timeout=WAIT) == 3 and reads == [0, 1, 2]


def test_an_error_reaches_the_caller_and_the_lane_goes_on() -> None:
    lanes = offloop.Lanes(workers=2)

    def fail() -> None:
        raise ValueError("unreadable")

    failed = lanes.submit("A", fail)
    after = lanes.submit("A", lambda: "next")
    assert after.result(timeout=WAIT) == "next"
    assert isinstance(failed.exception(timeout=WAIT), ValueError)


def test_a_slow_game_delays_neither_another_game_nor_the_loop(tmp_path: Path) -> None:
    real = make_store(tmp_path)
    a = real.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})
    b = real.create_game({"players": [{"name": "Dana"}, {"name": "Eli"}]})
    slow, fast = TableSession(real, a), TableSession(real, b)
    slow.store = held = HeldFor(real, a)

    async def run() -> None:
        held.hold()
        writes = [
            asyncio.create_task(slow.record({"type": "search", "player": 0})),
            asyncio.create_task(slow.record({"type": "end_turn", "player": 0}, 1)),
        ]
        # The loop goes on while A's first write is inside the store: this very wait runs on it.
        await until(held.entered.is_set, "write of game A under way", WAIT)
        quick = await fast.record({"type": "search", "player": 0})
        assert quick.accepted and fast.version == 1
        assert not any(w.done() for w in writes)  # A's first write is still held, the second behind it
        held.release()
        first, second = await asyncio.gather(*writes)
        assert first.accepted and second.accepted  # in order: the end of turn came after the Search
        assert slow.version == 2

    asyncio.run(run())
    assert [e.action["type"] for e in real.events(a)] == ["search", "end_turn"]


async def _apps(store: Any, folder: Path, count: int) -> list[App]:
    """Browser sessions of one server process: one loop, one pubsub hub (the game topics)."""
    loop = asyncio.get_running_loop()
    hub = FakeConnection(loop).pubsubhub
    apps = []
    for _ in range(count):
        connection = FakeConnection(loop)
        connection.pubsubhub = hub
        session = Session(connection)
        pack(session.get_page_patch())
        _context_page.set(session.page)
        app = App(session.page, Services(store, SettingsFile(folder / "settings.json")))
        app.session_keepalive = session
        app.width = 390
        app.start()
        apps.append(app)
    return apps


def test_a_slow_game_does_not_delay_another_games_screens(tmp_path: Path) -> None:
    """Game B's screens hear of B's change and redraw while game A's store call is held."""
    real = make_store(tmp_path)
    a = real.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})
    b = real.create_game({"players": [{"name": "Dana"}, {"name": "Eli"}]})
    store = HeldFor(real, a)

    async def run() -> None:
        apps = await _apps(store, tmp_path, 3)
        for app, game in zip(apps, (a, b, b), strict=True):
            await show(app, f"/game/{game}")
        slow_screen, here, there = (app.screen for app in apps)
        store.hold()
        slow_screen.control.submit({"type": "search", "player": 0})
        await until(store.entered.is_set, "write of game A under way", WAIT)
        there.control.submit({"type": "search", "player": 0})
        await settled(there)
        await until(lambda: here.session.version >= 1, "news of B's write at B's other screen", WAIT)
        assert here.session.version == there.session.version == 1
        assert not slow_screen.writing.done()
        store.release()
        await settled(slow_screen)
        assert slow_screen.session.version == 1

    asyncio.run(run())


def test_the_log_is_read_off_the_loop_and_drawn_when_it_arrives(tmp_path: Path) -> None:
    real = make_store(tmp_path)
    game = real.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})
    real.submit(game, {"type": "search", "player": 0}, base_version=0)

    async def run() -> None:
        (app,) = await _apps(real, tmp_path, 1)
        await show(app, f"/game/{game}/log")
        log = app.screen
        assert log.entries is None  # nothing read on the loop: the screen says it is reading
        await settled(log)
        assert [e.action["type"] for e in log.entries] == ["search"]

    asyncio.run(run())


def test_opening_a_slow_games_screen_delays_neither_the_loop_nor_another_game(tmp_path: Path) -> None:
    """A table is drawn once its game was read off the loop: while game A's read is held, game
    B's screens go on hearing of B's changes."""
    real = make_store(tmp_path)
    a = real.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})
    b = real.create_game({"players": [{"name": "Dana"}, {"name": "Eli"}]})
    store = HeldFor(real, a)

    async def run() -> None:
        opener, here, there = await _apps(store, tmp_path, 3)
        await show(here, f"/game/{b}")
        await show(there, f"/game/{b}")
        store.hold()
        opener.show(f"/game/{a}")
        assert opener.screen is None  # nothing built, nothing read on the loop
        await until(store.entered.is_set, "read of game A under way", WAIT)
        there.screen.control.submit({"type": "search", "player": 0})
        await settled(there.screen)
        await until(lambda: here.screen.session.version >= 1, "news of B's write at B's other screen", WAIT)
        assert opener.opening is not None and not opener.opening.done()
        store.release()
        await opener.shown()
        assert type(opener.screen).__name__ == "TableScreen" and opener.screen.game_id == a

    asyncio.run(run())
