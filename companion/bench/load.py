"""The load of `bench tables`: tables of seven screens, each a bare Flet client through the proxy.

A table is the referee's console (with the host key) and six seated phones (their device
tokens), on the wire as a browser's would be: the same handshake, registration, storage
answers and compression. The generator shares the machine with the instances it measures, so
it stays cheap: every socket lives on one event loop (uvloop's when installed, whose TLS is
compiled), a frame is looked at only as far as the news needs (its first bytes, undecoded),
and the actions are chosen on a state kept in memory rather than read back from the store.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from companion.app.services.news import game_topic
from companion.app.ui.phone.device import TOKEN_PREF

from .proxy import UPSTREAM
from drivers.wire import INVOKE, REGISTER, WireClient

NAMES = ["Carmen", "Nicholas", "Yellow", "Dana", "Omar", "Lucia"]
EVERY_S = 10.0  # one action per table every 10 seconds
ANSWERED = (REGISTER, INVOKE)  # the server's frames a browser answers; the rest are screen patches


class Screen(WireClient):
    """A client that keeps frames only until its screen is shown, then only times their arrival."""

    keep = True
    waiting_since: float | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.latencies: list[float] = []
        self.instance = ""  # the address of the instance nginx sent it to

    async def __aenter__(self) -> Screen:
        await super().__aenter__()
        self.instance = self._ws.response.headers.get(UPSTREAM, "")
        return self

    async def _read(self) -> None:
        recv = self._ws.recv
        while True:
            data = await recv()
            if self.waiting_since is not None:
                self.latencies.append((time.perf_counter() - self.waiting_since) * 1000)
                self.waiting_since = None
            # A frame is 0x00 then msgpack's [action, body]: a patch (neither a registration nor
            # a method call) is neither kept nor decoded once the screen is shown.
            if self.keep:
                self.received += data
            elif data[2] not in ANSWERED:
                continue
            await self.take(data)


class Table:
    """A game, its seven screens, and the engine state its next action is chosen on.

    `phase` is when, within every period of `EVERY_S`, its action comes: tables at a club play
    independently, so their actions are spread over the period rather than made together."""

    def __init__(self, game: str, screens: list[Screen], state: Any, version: int, phase: float) -> None:
        self.game, self.screens, self.state, self.version = game, screens, state, version
        self.phase = self.due = phase


class Load:
    def __init__(self, url: str, folder: Path, ws: str, tls: Any) -> None:
        from .instance import Instance

        self.driver = Instance(url, folder, "driver")  # writes and announces as any instance does
        self.ws, self.tls = ws, tls
        self.tables: list[Table] = []
        self.rng = random.Random(7)
        self.anchor: Any = None
        self.writes = 0
        self.write_ms: list[float] = []  # how long each write took to be acknowledged
        self.writer = ThreadPoolExecutor(1)

    async def add_table(self) -> None:
        store, join = self.driver.store, self.driver.services.join
        config = {
            "players": [{"name": n} for n in NAMES],
            "seed": len(self.tables) + 1,
            "house_rules": {"targets": {str(n): 100 for n in range(2, 7)}},
        }
        game = store.create_game(config)
        if self.anchor is None:  # the driver's news needs one screen of its own to hand messages on
            self.anchor = await self.driver.open_screen("/")
        secret = store.devices.secret(game)
        key = self.driver.services.access.host_key
        screens: list[Screen] = []
        for n in range(len(NAMES) + 1):
            prefs = {}
            route = f"/game/{game}?host={key}"
            if n:
                _, token = join.join(game, secret, "127.0.0.1", n - 1, "bench")
                prefs, route = {TOKEN_PREF.format(game=game): token}, f"/play/{game}"
            screen = Screen(self.ws, prefs=prefs, ssl=self.tls)
            await screen.__aenter__()
            await screen.register(route)
            if await screen.wait_for("my-hand" if n else "nav-undo", timeout=60) is None:
                raise RuntimeError("a screen of the benchmark did not open")
            screen.keep = False
            screen.received = b""
            screens.append(screen)
        loaded = store.load(game)
        self.tables.append(Table(game, screens, loaded.game.state.copy(), loaded.version, self.rng.random() * EVERY_S))

    def act(self, table: Table) -> None:
        """Random legal play: the first legal choice, stepped on a copy that becomes the state."""
        from companion.rules import step
        from companion.simulate import RandomTable

        state = table.state
        for candidate in RandomTable(self.rng, state).choices(state):
            action = candidate.to_json()
            after = state.copy()
            if not action.get("force") and step(after, candidate).accepted:
                break
        else:
            return
        before = time.perf_counter()
        self.driver.store.submit(table.game, action, base_version=table.version, key=uuid.uuid4().hex)
        started = time.perf_counter()  # the write is acknowledged: the news starts here
        self.write_ms.append((started - before) * 1000)
        table.state, table.version = after, table.version + 1
        for screen in table.screens:
            screen.waiting_since = started
        self.driver.services.news.publish(
            self.anchor.page, game_topic(table.game), {"version": table.version, "events": []}
        )
        self.writes += 1

    async def run_for(self, seconds: float) -> None:
        """Play for `seconds`; each screen's latencies are of this run only."""
        for table in self.tables:
            for screen in table.screens:
                screen.latencies.clear()
        # The writes run on a thread of their own: choosing a legal action and writing it must
        # not hold up this loop, which timestamps the frames the screens receive.
        loop = asyncio.get_running_loop()
        writing: list[asyncio.Future[None]] = []
        start = time.monotonic()
        end = start + seconds
        for table in self.tables:  # each at its own moment of the period, as it would be at a club
            table.due = start + table.phase
        while (now := time.monotonic()) < end:
            for table in self.tables:
                if now >= table.due:
                    table.due += EVERY_S
                    writing.append(loop.run_in_executor(self.writer, self.act, table))
            await asyncio.sleep(min([end, *(table.due for table in self.tables)]) - now)  # the next one due
        await asyncio.gather(*writing)
        await asyncio.sleep(1.0)

    async def close(self) -> None:
        for table in self.tables:
            for screen in table.screens:
                await screen.close()
        self.driver.close()
        self.writer.shutdown(wait=True)
