"""The LAN door, tried as a stranger on the table's wifi would: a bare websocket client (no
browser) against the real server, misbehaving on purpose.

The server runs as `--lan` does, with this machine narrowed to 127.0.0.1 so that another
loopback address (127.0.0.2) plays a device on the network, and 127.0.0.3 plays a reverse proxy
listed in `--forwarded-allow-ips`.
"""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import logging
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from companion.app.door.access import Access
from companion.app.door.limits import DoorLimits

from drivers.browser import AppServer
from drivers.wire import WireClient

MACHINE = "127.0.0.1"
DEVICE = "127.0.0.2"
PROXY = "127.0.0.3"
GAME = {"players": [{"name": "Carmen"}, {"name": "Nicholas"}, {"name": "Yellow"}], "seed": 5}
NEUTRAL = "join-neutral"
CONSOLE = "Carmen"  # every host screen of this game names its players; the neutral page never does
WRONG_KEY = "W" * 22
WAIT = 30.0  # s: the most a test waits for the server to have done what it must (a loaded machine is slow)


@pytest.fixture(scope="module")
def door(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from storage import Store

    folder = tmp_path_factory.mktemp("door")
    store = Store(url=f"sqlite:///{folder / 'games.sqlite3'}")
    access = Access(
        lan=True,
        machine=(ipaddress.ip_network(f"{MACHINE}/32"),),
        proxies=(ipaddress.ip_network(f"{PROXY}/32"),),
        limits=DoorLimits(keyless_per_address=1000),  # these tests open many sessions from one address
    )
    with AppServer(store, folder / "settings.json", access=access) as server:
        server.game_id = store.create_game(GAME)
        server.ws = f"ws://127.0.0.1:{server.port}/ws"
        yield server
    store.close()


@pytest.fixture(autouse=True)
def fresh_limiter(door: Any) -> None:
    """Each test starts with no address locked out (the lockouts are what some tests build up)."""
    from companion.app.door.tokens import RateLimiter

    door.services.join.limiter = RateLimiter()


async def _visit(
    door: Any, route: str, *, source: str = DEVICE, headers: dict[str, str] | None = None, patch_ip: bool = True
) -> str | None:
    """Register on `route` from `source`, patch the page's address to this machine's at once
    (and again), and say which of the neutral page or the console the server sent."""
    async with WireClient(door.ws, source=source, headers=headers) as client:
        await client.register(route, client_ip=MACHINE)
        if patch_ip:
            for _ in range(3):
                await client.patch_page(client_ip=MACHINE, client_user_agent="Mozilla/5.0", _host=True)
        return await client.wait_for(CONSOLE, NEUTRAL, timeout=10)


def test_a_patched_address_never_opens_the_console(door: Any) -> None:
    async def fifty() -> list[str | None]:
        return [await _visit(door, f"/game/{door.game_id}") for _ in range(50)]

    seen = asyncio.run(fifty())
    assert seen == [NEUTRAL] * 50


def test_this_machine_gets_the_console(door: Any) -> None:
    """The same client from this machine's own address is the host: the test above can fail."""
    assert asyncio.run(_visit(door, f"/game/{door.game_id}", source=MACHINE)) == CONSOLE


def test_the_lockout_holds_when_the_address_is_patched(door: Any) -> None:
    async def run() -> tuple[list[str | None], str | None]:
        wrong = [await _visit(door, f"/game/{door.game_id}?host={WRONG_KEY}{i}") for i in range(5)]
        right = await _visit(door, f"/game/{door.game_id}?host={door.access.host_key}")
        return wrong, right

    wrong, right = asyncio.run(run())
    assert wrong == [NEUTRAL] * 5
    assert right == NEUTRAL, "the right key opened the console during the lockout"
    assert door.services.join.limiter.wait(DEVICE) > 0
    assert door.services.join.limiter.wait(MACHINE) == 0


def test_the_host_key_opens_the_console_from_the_network(door: Any) -> None:
    assert asyncio.run(_visit(door, f"/game/{door.game_id}?host={door.access.host_key}")) == CONSOLE


def test_the_join_lockout_counts_the_connection_not_the_patch(door: Any) -> None:
    secret = door.services.store.devices.secret(door.game_id)

    async def run() -> tuple[list[str | None], str | None]:
        wrong = [await _wait_join(door, f"/join/{door.game_id}?key={WRONG_KEY}{i}") for i in range(5)]
        return wrong, await _wait_join(door, f"/join/{door.game_id}?key={secret}")

    wrong, right = asyncio.run(run())
    assert wrong == ["join-refused"] * 4 + ["join-locked"]
    assert right == "join-locked"


async def _wait_join(door: Any, route: str) -> str | None:
    async with WireClient(door.ws, source=DEVICE) as client:
        await client.register(route)
        await client.patch_page(client_ip=MACHINE)
        return await client.wait_for("join-refused", "join-locked", "join-seat-0", timeout=10)


def test_a_forwarded_header_from_anyone_else_is_ignored(door: Any) -> None:
    headers = {"X-Forwarded-For": MACHINE}
    assert asyncio.run(_visit(door, f"/game/{door.game_id}", headers=headers)) == NEUTRAL

    async def spread() -> None:  # fresh forwarded addresses do not escape the lockout either
        for i in range(5):
            await _visit(door, f"/?host={WRONG_KEY}{i}", headers={"X-Forwarded-For": f"10.9.0.{i}"})

    asyncio.run(spread())
    assert door.services.join.limiter.wait(DEVICE) > 0


def test_behind_an_allowed_proxy_a_client_is_never_the_host(door: Any) -> None:
    for forwarded in (MACHINE, "::1", f"10.1.1.1, {MACHINE}", "", "garbage"):
        headers = {"X-Forwarded-For": forwarded} if forwarded else {}
        assert asyncio.run(_visit(door, f"/game/{door.game_id}", source=PROXY, headers=headers)) == NEUTRAL, forwarded
    via_key = f"/game/{door.game_id}?host={door.access.host_key}"
    assert asyncio.run(_visit(door, via_key, source=PROXY, headers={"X-Forwarded-For": "10.2.2.2"})) == CONSOLE


def test_behind_an_allowed_proxy_lockouts_count_the_forwarded_client(door: Any) -> None:
    async def run() -> None:
        for i in range(5):
            await _visit(door, f"/?host={WRONG_KEY}{i}", source=PROXY, headers={"X-Forwarded-For": "10.3.3.3"})

    asyncio.run(run())
    limiter = door.services.join.limiter
    assert limiter.wait("10.3.3.3") > 0
    assert limiter.wait(PROXY) == 0 and limiter.wait("10.3.3.4") == 0


def _http(source: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=source), timeout=10)


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"])
def test_no_api_explorer_or_schema(door: Any, path: str) -> None:
    with _http(DEVICE) as client:
        answer = client.get(f"{door.url}{path}")
    assert answer.status_code == 404
    assert "swagger" not in answer.text.lower() and "openapi" not in answer.text.lower()


ODD_PATHS = [
    "/oauth_callback?state=x",
    "/api/games/%00/export",
    "/api/games/x/export?host=%ff%fe",
    f"/api/games/{'a' * 5000}/export",
    "/game/%00/setup.html?lang=%ff",
    "/api/games/%00/bgstats.json?lang=%ff",
    "/setup/checklist.html?config=%ff%fe",
    f"/setup/checklist.html?config={'A' * 20000}",
    "/assets/../../pyproject.toml",
    "/fonts/..%2f..%2fREADME.md",
    "/upload",
    "/ws",
    "/api/health?x=\u202e",
]


def test_no_route_answers_a_server_error(door: Any) -> None:
    with _http(DEVICE) as client:
        for path in ODD_PATHS:
            answer = client.get(f"{door.url}{path}")
            assert answer.status_code < 500 and "Traceback" not in answer.text, path


def test_the_export_route_believes_no_forwarded_header_nor_query_but_the_key(door: Any) -> None:
    export = f"{door.url}/api/games/{door.game_id}/export"
    with _http(DEVICE) as client:
        for headers in ({}, {"X-Forwarded-For": MACHINE}):
            refused = client.get(export, headers=headers)
            assert refused.status_code == 404 and "Carmen" not in refused.text
        assert client.get(export, params={"host": door.access.host_key}).json()["config"]
    with _http(PROXY) as client:
        assert client.get(export, headers={"X-Forwarded-For": MACHINE}).status_code == 404
    with _http(MACHINE) as client:
        assert client.get(export).json()["config"]


def test_a_keyless_session_is_released_sooner_than_a_seated_one(door: Any) -> None:
    """Sessions whose socket is gone: a stranger's goes after KEYLESS_SESSION_SECONDS, a host's
    (or a seat's) after SESSION_SECONDS (Flet's own eviction then releases them)."""
    from flet_web.fastapi.flet_app_manager import app_manager

    from companion.app.ui.shell import KEYLESS_SESSION_SECONDS, SESSION_SECONDS

    async def leave(source: str) -> str:
        async with WireClient(door.ws, source=source) as client:
            await client.register(f"/game/{door.game_id}")
            assert await client.wait_for(CONSOLE, NEUTRAL)
            return client.session_id

    def expiries() -> dict[str, datetime.datetime | None]:
        sessions = {s.id: s for s in app_manager._FletAppManager__sessions.values()}  # type: ignore[attr-defined]
        return {name: sessions[sid].expires_at for name, sid in (("stranger", stranger), ("host", host))}

    stranger = asyncio.run(leave(DEVICE))
    host = asyncio.run(leave(MACHINE))
    host_gone = datetime.datetime.now(datetime.UTC)
    # The server hears each socket close, gives its session the usual grace, then shortens a
    # stranger's: waited for, however long a loaded machine takes to get there.
    soon = datetime.timedelta(seconds=KEYLESS_SESSION_SECONDS + 1)
    deadline = time.monotonic() + WAIT
    while True:
        expires = expiries()
        shortened = (
            expires["stranger"] is not None and expires["stranger"] <= datetime.datetime.now(datetime.UTC) + soon
        )
        if shortened and expires["host"] is not None:
            break
        assert time.monotonic() < deadline, f"the stranger's session was not shortened: {expires}"
        time.sleep(0.05)
    assert (expires["host"] - host_gone).total_seconds() > SESSION_SECONDS - 10, expires


def test_sockets_that_do_not_register_first_leave_nothing_behind(door: Any) -> None:
    """A socket that closes at once, says garbage or sends an event before registering would
    leave Flet's connection waiting forever (and the server unable to stop): none reach Flet."""
    import gc

    import msgpack
    import websockets
    from flet_web.fastapi.flet_app import FletApp

    from drivers.wire import REGISTER, frame

    bad_openings = [
        None,
        b"\x00\xc1",
        b"\x01\x00\x00\x00\x00xx",
        frame(3, {"target": 1, "name": "click", "data": None}),
        frame(REGISTER, {"session_id": "", "page_name": ""}),  # no page
        frame(REGISTER, {"session_id": 5, "page_name": "", "page": {}}),
        b"\x00" + msgpack.packb([REGISTER, {"session_id": "", "page_name": "", "page": {}, "x": 1}]),
    ]

    def alive() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, FletApp))

    async def run() -> list[int | None]:
        codes = []
        for opening in bad_openings * 3:
            async with websockets.connect(door.ws, local_addr=(DEVICE, 0)) as ws:
                if opening is not None:
                    await ws.send(opening)
                    try:
                        await asyncio.wait_for(ws.recv(), timeout=5)
                    except websockets.ConnectionClosed:
                        pass
                codes.append(ws.close_code)
        return codes

    before = alive()
    codes = asyncio.run(run())
    deadline = time.monotonic() + WAIT
    while alive() > before:  # the server lets go of each connection a moment after it closed
        assert time.monotonic() < deadline, f"{alive() - before} connections still held"
        time.sleep(0.1)
    assert all(code == 1008 for code, opening in zip(codes, bad_openings * 3, strict=True) if opening is not None)


def test_a_patch_of_server_owned_properties_is_dropped() -> None:
    import msgpack

    from companion.app.door.peer import strip_server_owned

    from drivers.wire import UPDATE_PROPS, frame

    cleaned = strip_server_owned(frame(UPDATE_PROPS, {"id": 1, "props": {"client_ip": MACHINE, "_i": 9, "width": 400}}))
    assert msgpack.unpackb(cleaned[1:]) == [UPDATE_PROPS, {"id": 1, "props": {"width": 400}}]
    untouched = frame(UPDATE_PROPS, {"id": 4, "props": {"value": "Carmen"}})
    assert strip_server_owned(untouched) is untouched
    assert strip_server_owned(b"\x00\xc1garbage") == b"\x00\xc1garbage"


def test_a_closed_snackbar_is_dropped_quietly(caplog: pytest.LogCaptureFixture) -> None:
    """Flet's browser client patches `_dismissed` whenever a toast closes: normal play, so nothing
    is printed at the default level; a patch of a server-owned field still warns."""
    import msgpack

    from companion.app.door.peer import strip_server_owned

    from drivers.wire import UPDATE_PROPS, frame

    caplog.set_level(logging.INFO, logger="companion.app.door.peer")
    cleaned = strip_server_owned(frame(UPDATE_PROPS, {"id": 7, "props": {"_dismissed": True, "open": False}}))
    assert msgpack.unpackb(cleaned[1:]) == [UPDATE_PROPS, {"id": 7, "props": {"open": False}}]
    assert caplog.records == []
    strip_server_owned(frame(UPDATE_PROPS, {"id": 7, "props": {"_dismissed": True, "client_ip": MACHINE}}))
    assert [r.levelno for r in caplog.records] == [logging.WARNING]


def test_forwarded_chains_are_read_from_the_proxy_side() -> None:
    from companion.app.door.peer import resolve
    from companion.app.host.net import networks

    proxies = networks(["10.0.0.1", "10.0.1.0/24"])

    def peer(direct: str, forwarded: str | None) -> tuple[str, bool]:
        headers = [(b"x-forwarded-for", forwarded.encode())] if forwarded is not None else []
        found = resolve({"client": (direct, 5000), "headers": headers}, proxies)
        return found.address, found.via_proxy

    assert peer("192.168.1.9", "127.0.0.1") == ("192.168.1.9", False)
    assert peer("10.0.0.1", "203.0.113.7") == ("203.0.113.7", True)
    assert peer("10.0.0.1", "127.0.0.1, 203.0.113.7, 10.0.1.5") == ("203.0.113.7", True)
    assert peer("10.0.0.1", "10.0.1.5") == ("10.0.0.1", True)
    assert peer("10.0.0.1", "not-an-address") == ("10.0.0.1", True)
    assert peer("10.0.0.1", None) == ("10.0.0.1", True)
    with pytest.raises(ValueError, match="not an IP"):
        networks(["10.0.0.300"])
