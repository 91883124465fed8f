"""The example nginx configuration, started as an operator would use it, with two instances of the
real command behind it on one PostgreSQL database and a phone playing through it.

The test process is a third instance: it writes an action to the store and announces it as any
instance does (news.py), so the phone, wherever nginx sent it, must show it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from companion.app.ui.phone.device import TOKEN_PREF

from drivers.wire import WireClient

GAME = {"players": [{"name": n} for n in ("Carmen", "Nicholas", "Yellow")], "seed": 4}


@pytest.fixture
def hosted(pg_url: str, tmp_path: Path) -> Iterator[Any]:
    from companion.bench import stop_process
    from companion.bench.proxy import Proxy, nginx_binary, start_instance

    if nginx_binary() is None:
        pytest.fail("the proxy test needs nginx: install Debian's package (apt-get install nginx; .ci/run does)")
    procs: list[Any] = []
    proxy = None
    try:
        ports = []
        for _ in range(2):
            proc, port = start_instance(pg_url, tmp_path)
            procs.append(proc)
            ports.append(port)
        proxy = Proxy(tmp_path, ports)
        yield proxy
    finally:
        if proxy is not None:
            proxy.stop()
        for proc in procs:
            stop_process(proc)


def test_a_phone_plays_through_nginx_and_hears_an_action_taken_elsewhere(
    hosted: Any, pg_url: str, tmp_path: Path
) -> None:
    from companion.bench.instance import Instance
    from storage import Store

    # Plain HTTP through the proxy, with TLS checked against the throwaway certificate.
    health = httpx.get(f"https://127.0.0.1:{hosted.port}/api/health", verify=hosted.tls, timeout=10)
    assert health.json() == {"ok": True}

    async def run() -> tuple[list[bool], bool, bool]:
        elsewhere = Instance(pg_url, tmp_path, "test")  # the third instance, in this process
        store: Store = elsewhere.store
        try:
            game = store.create_game(GAME)
            join = elsewhere.services.join
            _, token = join.join(game, store.devices.secret(game), "127.0.0.1", 0, "phone")
            prefs = {TOKEN_PREF.format(game=game): token}
            shown = []
            session = ""
            for _ in range(4):
                # reconnects, each naming the session before (as Flet's client does): nginx sends them to
                # either instance; one that never held that session opens a new one, found by the token
                async with WireClient(hosted.ws, prefs=prefs, ssl=hosted.tls) as phone:
                    phone.session_id = session
                    await phone.register(f"/play/{game}")
                    shown.append(await phone.wait_for("my-hand", timeout=20) is not None)
                    session = phone.session_id
            async with WireClient(hosted.ws, prefs=prefs, ssl=hosted.tls) as phone:
                await phone.register(f"/play/{game}")
                await phone.wait_for("my-hand", timeout=20)
                before = phone.saw("Nicholas's turn")
                table = store.load(game)
                store.submit(game, {"type": "end_turn", "player": 0}, base_version=table.version, key="t-1")
                screen = await elsewhere.open_screen(f"/game/{game}/table")  # listens, so news flows here too
                elsewhere.services.news.publish(
                    screen.page, f"game:{game}", {"version": table.version + 1, "events": []}
                )
                heard = await phone.wait_for("Nicholas's turn", timeout=10) is not None
            return shown, before, heard
        finally:
            elsewhere.close()

    shown, before, heard = asyncio.run(run())
    assert shown == [True, True, True, True]
    assert not before and heard


def test_a_browser_through_the_proxy_is_not_the_host(hosted: Any) -> None:
    """nginx runs on this machine, yet a browser reached through it gets the neutral page."""

    async def run() -> str | None:
        async with WireClient(hosted.ws, ssl=hosted.tls) as client:
            await client.register("/")
            return await client.wait_for("join-neutral", "home-new", timeout=20)

    assert asyncio.run(run()) == "join-neutral"
