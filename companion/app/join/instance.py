"""One instance of the app without its web server: its own store connection, news, Flet hub and
sessions, whose screens are encoded as a browser's would be (the soak's way, bench.py).

Two of these on one PostgreSQL database are two instances as far as the app can tell: nothing
is shared between them but the database and its notifications. The scale tests and
`bench tables` drive their screens directly (a tap is the screen's own `submit`).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgpack
from flet.pubsub.pubsub_hub import PubSubHub

from .. import flet_costs
from .bench import _ENCODE, _Connection


class Instance:
    def __init__(self, url: str, folder: Path, name: str) -> None:
        from storage import Store

        from ..settings import SettingsFile
        from ..shell import Services
        from .access import Access

        flet_costs.apply()  # as the server does
        self.loop = asyncio.get_running_loop()
        self.executor = ThreadPoolExecutor(2)
        self.hub = PubSubHub(loop=self.loop, executor=self.executor)
        self.store = Store(url=url)
        self.services = Services(
            self.store, SettingsFile(folder / f"settings-{name}.json"), access=Access(shared_key=self._host_key)
        )
        self.sessions: list[Any] = []  # Flet holds its sessions weakly: the server's registry, here
        self.connections: list[_Connection] = []

    def _host_key(self) -> str | None:
        from ..instances import shared_host_key

        return shared_host_key(self.store)

    async def open_screen(self, route: str, device: Any = None) -> Any:
        """One more connected screen: a host's (`device` None) or a phone's seat."""
        from flet.controls.context import _context_page
        from flet.messaging.session import Session

        from ..browser import LAPTOP, PHONE
        from ..shell import App

        connection = _Connection(self.loop, self.hub, self.executor)
        session = Session(connection)
        self.sessions.append(session)
        self.connections.append(connection)
        session.apply_page_patch(LAPTOP if device is None else PHONE)
        msgpack.packb(session.get_page_patch(), default=_ENCODE)
        _context_page.set(session.page)
        app = App(session.page, self.services)
        app.apply_settings()
        app.host = device is None  # what `admit` decides from the address and the host key
        if device is not None:
            app.join_devices = {device.game_id: device}
        app.show(route)
        await app.shown()
        await asyncio.sleep(0)
        return app

    def close_screen(self, app: Any) -> None:
        if app.screen is not None:
            app.screen.leave()

    def close(self) -> None:
        self.services.news.close()
        self.store.close()
        self.executor.shutdown(wait=False)
