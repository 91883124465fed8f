"""A client that drops while the server is sending to it still has its session closed.

Flet ends a connection by marking its session disconnected (it then expires after its grace
period and its screens are freed), but only when its send loop ends without an error; a send to
a client already gone raised one (starlette's WebSocketDisconnect over the server's
ClientDisconnected), and that session was never marked: it lived until the server stopped. A
reconnect storm (`dyo-companion bench storm`) kept 300 MB that way. The door now drops what is
sent to a client already gone (door/peer.py).
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
from pathlib import Path
from typing import Any

from flet_web.fastapi.flet_app_manager import app_manager

from companion.app.door.access import Access
from companion.app.ui.phone.device import TOKEN_PREF

from drivers.browser import AppServer
from drivers.wire import WireClient

GAME = {"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "seed": 5}
CLIENTS = 40


def _sessions() -> dict[str, Any]:
    found: dict[str, Any] = app_manager._FletAppManager__sessions  # type: ignore[attr-defined]
    return found


async def _drop_at_once(url: str, route: str, prefs: dict[str, str], source: str) -> None:
    """Open a seat's screen, and go as soon as it shows, as a phone leaving the wifi does: the
    server may still be sending to it (the screen asks the phone for what it keeps)."""
    async with WireClient(url, source=source, prefs=prefs) as client:
        await client.register(route)
        await client.wait_for("my-hand", timeout=30)


def test_every_session_of_a_dropped_client_is_marked_disconnected(tmp_path: Path) -> None:
    from companion.app.services.joining import JoinService
    from storage import Store

    store = Store(url=f"sqlite:///{tmp_path / 'games.sqlite3'}")
    game_id = store.create_game(GAME)
    secret = store.devices.secret(game_id)
    tokens = [JoinService(store).join(game_id, secret, "127.0.0.1", seat, "test")[1] for seat in range(2)]
    access = Access(lan=True, machine=(ipaddress.ip_network("127.0.0.1/32"),))
    with AppServer(store, tmp_path / "settings.json", access=access) as server:
        url = f"ws://127.0.0.1:{server.port}/ws"
        before = set(_sessions())

        async def storm() -> None:
            await asyncio.gather(
                *(
                    _drop_at_once(
                        url,
                        f"/play/{game_id}",
                        {TOKEN_PREF.format(game=game_id): tokens[n % 2]},
                        f"127.0.0.{2 + n % 200}",
                    )
                    for n in range(CLIENTS)
                )
            )

        asyncio.run(storm())
        deadline = time.monotonic() + 30
        while True:
            made = {key: s for key, s in _sessions().items() if key not in before}
            still = [key for key, s in made.items() if s.expires_at is None]
            if not still or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert made, "no session was made"
        assert not still, f"{len(still)} of {len(made)} sessions of gone clients were never marked disconnected"
    store.close()
