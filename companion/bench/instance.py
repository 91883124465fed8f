"""One instance of the app without its web server: its own store connection, news, Flet hub and
sessions, whose screens are encoded as a browser's would be (the sync soak of bench.py runs on one).

Two of these on one PostgreSQL database are two instances as far as the app can tell: nothing
is shared between them but the database and its notifications. The scale tests and
`bench tables` drive their screens directly (a tap is the screen's own `submit`).
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgpack
from flet.controls.base_control import BaseControl
from flet.messaging.connection import Connection
from flet.messaging.protocol import configure_encode_object_for_msgpack
from flet.pubsub.pubsub_hub import PubSubHub

from companion.app.host import flet_costs, flet_diff

from drivers.browser import LAPTOP, PHONE

_ENCODE = configure_encode_object_for_msgpack(BaseControl)


class ScreenConnection(Connection):
    """A Flet connection that encodes what it would send (as the real one does) and drops it,
    noting when it sent its first message since `first_at` was last cleared."""

    def __init__(self, loop: Any, hub: PubSubHub, executor: ThreadPoolExecutor) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # Flet left it unannotated
        self.loop = loop
        self.executor = executor
        self.pubsubhub = hub
        self.sent = 0
        self.first_at: float | None = None

    def send_message(self, message: Any) -> None:
        self.sent += len(msgpack.packb([message.action, message.body], default=_ENCODE))
        if self.first_at is None:
            self.first_at = time.perf_counter()


class Instance:
    def __init__(self, url: str, folder: Path, name: str) -> None:
        from companion.app.door.access import Access
        from companion.app.services.settings import SettingsFile
        from companion.app.services.shared import Services
        from storage import Store

        flet_costs.apply()  # as the server does
        flet_diff.apply()
        self.loop = asyncio.get_running_loop()
        self.executor = ThreadPoolExecutor(2)
        self.hub = PubSubHub(loop=self.loop, executor=self.executor)
        self.store = Store(url=url)
        self.services = Services(
            self.store, SettingsFile(folder / f"settings-{name}.json"), access=Access(shared_key=self._host_key)
        )
        # Each open screen's session and connection: Flet holds sessions weakly, so this is the
        # server's registry of them.
        self.screens: dict[Any, tuple[Any, ScreenConnection]] = {}

    def _host_key(self) -> str | None:
        from companion.app.host.instances import shared_host_key

        return shared_host_key(self.store)

    async def open_screen(self, route: str, device: Any = None) -> Any:
        """One more connected screen: a host's (`device` None) or a phone's seat."""
        from flet.controls.context import _context_page
        from flet.messaging.session import Session

        from companion.app.ui.shell import App

        connection = ScreenConnection(self.loop, self.hub, self.executor)
        session = Session(connection)
        # As a browser registering: its window's size, then the first page sent (encoding it is
        # what lets Flet diff later changes against it).
        session.apply_page_patch(LAPTOP if device is None else PHONE)
        msgpack.packb(session.get_page_patch(), default=_ENCODE)
        _context_page.set(session.page)
        app = App(session.page, self.services)
        app.apply_settings()
        app.host = device is None  # what `admit` decides from the address and the host key
        if device is not None:
            app.join_devices = {device.game_id: device}
        self.screens[app] = (session, connection)
        app.show(route)
        await app.shown()
        await asyncio.sleep(0)
        return app

    def connection(self, app: Any) -> ScreenConnection:
        return self.screens[app][1]

    def close_screen(self, app: Any) -> None:
        """The screen's browser goes away: it leaves its table and its session is let go."""
        if app.screen is not None:
            app.screen.leave()
        self.screens.pop(app, None)

    def close(self) -> None:
        self.services.news.close()
        self.store.close()
        self.executor.shutdown(wait=False)
