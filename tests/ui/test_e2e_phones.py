"""End to end, in Debian's chromium: six phones join by the QR code and play a round.

The server runs as `--lan` does (loopback is not trusted here: every browser of the test is on
loopback, so the host's screens open with the host link). Each phone is a browser context of
its own (its own storage, so its own device token). What a phone may know is checked on what
the server sends it (the websocket frames), not on what its screen shows.
"""

from __future__ import annotations

import asyncio
import io
import re
import threading
import time
from urllib.parse import urlsplit

import pytest
from playwright.async_api import async_playwright

from drivers.browser import (
    LAPTOP,
    PHONE,
    AppServer,
    box_in_view,
    click_id,
    cut_connection,
    drive,
    enable_semantics,
    ident,
    launch_browser,
    pictured_on_failure,
    route_connections,
    screen_text,
    shot,
    wait_text,
)

NAMES = ["Carmen", "Nicholas", "Yellow", "Dana", "Omar", "Lucia"]
# Each seat's entered hand: cards that no public text names (the Spoon is on the piles' row).
PRIVATE = [["Bandana"], ["Golden chain"], ["Silver watch"], ["Camouflage"], ["Cafeteria Key"], ["Boots"]]
HANDS = [["spoon", "bandana"], ["golden_chain"], ["silver_watch"], ["camouflage"], ["cafeteria_key"], ["boots"]]
GAME = {
    "players": [{"name": n, "hand": h} for n, h in zip(NAMES, HANDS, strict=True)],
    "modules": {"warden": True},
    "seed": 7,
}
JOIN_URL = re.compile(r"http://127\.0\.0\.1:\d+/join/[0-9a-f]{32}\?key=[A-Za-z0-9_-]{22}")


def decode_qr(png: bytes) -> list[str]:
    try:
        import zxingcpp
        from PIL import Image
    except ImportError as error:
        raise AssertionError(f"the QR code test needs the decoder: pip install -e '.[test]' ({error})") from None
    return [found.text for found in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)).convert("L"))]


@pytest.fixture
def lan_server(store, settings_path):
    with AppServer(store, settings_path, lan=True) as srv:
        yield srv


async def open_device(browser, url: str, viewport=PHONE, context=None, locale: str = "en-US"):
    """A page in a new browser context (a device), or a new tab of `context`; every websocket
    frame the server sends it is kept in `page.frames_in`; its connections to the server go
    through `page.links`, so that the test can cut them (`asleep`: the phone sleeps)."""
    context = context or await browser.new_context(viewport=viewport, reduced_motion="no-preference", locale=locale)
    page = await context.new_page()
    page.frames_in = []
    await route_connections(page)

    def watch(ws):
        ws.on(
            "framereceived",
            lambda payload: page.frames_in.append(payload if isinstance(payload, bytes) else payload.encode("utf-8")),
        )

    page.on("websocket", watch)
    await page.goto(url)
    await enable_semantics(page)
    return page


def received(page) -> bytes:
    return b"".join(page.frames_in)


async def wait_count(page, word: str, count: int, timeout: float = 15) -> None:
    """Wait until `word` shows at least `count` times on the page."""
    deadline = time.monotonic() + timeout
    while (await screen_text(page)).count(word) < count:
        assert time.monotonic() < deadline, f"{word!r} is not on screen {count} times"
        await asyncio.sleep(0.2)


async def tap_together(pages_and_ids) -> None:
    """Press on several pages at the same moment (positions read first, then all the presses)."""
    deadline = time.monotonic() + 15
    boxes = [await box_in_view(page, name, deadline) for page, name in pages_and_ids]
    for (page, _), box in zip(pages_and_ids, boxes, strict=True):
        await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await asyncio.gather(*(page.mouse.down() for page, _ in pages_and_ids))
    await asyncio.gather(*(page.mouse.up() for page, _ in pages_and_ids))


def test_six_phones_join_by_the_qr_code_and_play_a_round(lan_server, store) -> None:
    game_id = store.create_game(GAME)

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            host = await open_device(browser, lan_server.host_link(f"/game/{game_id}/table"), LAPTOP)
            phones = []
            try:
                # The table view shows the join link, as a QR code and as text; both say the same.
                await wait_text(host, "Join from phones", 30000)
                url = JOIN_URL.search(await screen_text(host)).group(0)
                assert game_id in url and store.devices.secret(game_id) in url
                qr = ident(host, "join-qr").first
                decoded: list[str] = []
                for _ in range(20):  # the image paints a moment after the text
                    decoded = decode_qr(await qr.screenshot())
                    if decoded:
                        break
                    await asyncio.sleep(0.25)
                assert decoded == [url]

                # Six phones open the decoded link at once and each takes its seat.
                phones = list(await asyncio.gather(*(open_device(browser, decoded[0]) for _ in NAMES)))
                await wait_text(phones[0], "Who are you?", 30000)
                for seat, phone in enumerate(phones):
                    await click_id(phone, f"join-seat-{seat}", timeout=30000)
                for seat, phone in enumerate(phones):
                    await wait_text(phone, f"{NAMES[seat]} · round 1", 30000)
                    await wait_text(phone, f"Your hand ({len(HANDS[seat])})")
                    await wait_text(phone, PRIVATE[seat][0])
                await wait_count(host, "online", 6)
                await shot(phones[0], "phones-seat-carmen")

                # A whole round, from the phones; the table view and every other phone follow.
                for seat, phone in enumerate(phones):
                    name = NAMES[seat]
                    await wait_text(phone, "Your turn", 15000)  # on the player's own phone
                    await click_id(phone, "action-search")
                    await wait_text(host, f"{name} draws 1 Search card", 10000)
                    await wait_text(phones[(seat + 3) % 6], f"{name} draws 1 Search card", 10000)
                    await click_id(phone, "action-end_turn")
                    await wait_text(host, f"{NAMES[(seat + 1) % 6]}'s turn", 10000)
                await shot(host, "phones-table-after-round")

                # Lucia's phone goes away (its tab is closed) and Dana's loses the network while the
                # table plays on.
                lucia_context = phones[5].context
                await phones[5].close()
                await cut_connection(phones[3], asleep=True)

                # Carmen digs where the Warden stands: an offence. Nicholas and Yellow report it at
                # the same moment from their phones: exactly one report is recorded.
                await click_id(phones[0], "action-dig")
                await click_id(phones[0], "confirm-yes")  # her phone warns her once: WARD-2
                for phone in phones[1:3]:
                    await ident(phone, "report-" + str(phones.index(phone))).wait_for(state="attached", timeout=10000)
                assert not await ident(phones[1], "report-2").count()  # only its own seat's button
                before = store.load(game_id).version
                await tap_together([(phones[1], "report-1"), (phones[2], "report-2")])
                await wait_text(host, "reports Carmen to the Warden", 10000)
                for phone in phones[:3]:
                    await wait_text(phone, "Your turn" if phone is phones[1] else "Nicholas's turn", 10000)
                await asyncio.sleep(1.0)
                table = store.load(game_id)
                assert table.version == before + 1, "both reports were recorded"
                reports = [e for e in store.events(game_id) if (e.action or {}).get("type") == "report"]
                assert len(reports) == 1
                texts = [await screen_text(phone) for phone in phones[1:3]]
                assert sum("The table changed" in t for t in texts) <= 1

                # Dana's phone wakes up, reconnects by itself and catches up.
                phones[3].asleep = False
                await wait_text(phones[3], "Reconnected: this is the table now.", 30000)
                for news in ("Nicholas's turn", "Dana · round 2", "Carmen, in Solitary Confinement"):
                    await wait_text(phones[3], news, 10000)
                assert len(phones[3].links) == 2

                # Lucia reopens the link on the same device: back at her seat, caught up.
                lucia = await open_device(browser, decoded[0], context=lucia_context)
                await wait_text(lucia, f"{NAMES[5]} · round", 30000)
                await wait_text(lucia, "Nicholas's turn", 10000)
                await wait_text(lucia, PRIVATE[5][0])
                phones[5] = lucia
                await shot(lucia, "phones-lucia-back")
            except Exception:
                await shot(host, "phones-host-FAILED", painted=False)
                for seat, phone in enumerate(phones):
                    if not phone.is_closed():
                        await shot(phone, f"phones-{seat}-FAILED", settle=1, painted=False)
                raise

            # Nothing private reached another device: not the cards, not their ids.
            for seat, phone in enumerate(phones):
                data = received(phone)
                assert PRIVATE[seat][0].encode() in data
                for other in range(6):
                    if other != seat:
                        for card in PRIVATE[other] + HANDS[other][-1:]:
                            assert card.encode() not in data, f"{NAMES[seat]}'s phone received {card}"
            table_frames = received(host)
            for cards in PRIVATE:
                assert cards[0].encode() not in table_frames, f"the table view received {cards[0]}"
            await browser.close()

    drive(run())
    state = store.load(game_id).game.state
    assert state.active == 1 and state.players[0].place == "solitary"
    assert len([d for d in store.devices.devices(game_id) if d.seat is not None]) == 6


def test_no_secret_no_access_and_the_host_rotates_and_frees(lan_server, store) -> None:
    game_id = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "seed": 3})
    old_url = f"{lan_server.url}/join/{game_id}?key={store.devices.secret(game_id)}"

    def reveals_nothing(page) -> None:
        """No player's name, no secret (the route the browser asked for comes back, nothing more)."""
        data = received(page)
        for secret in ("Carmen", "Nicholas", store.devices.secret(game_id), lan_server.access.host_key):
            assert secret.encode() not in data, f"{page.url} received {secret}"

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            pages = []
            try:
                # Without the secret: the game's pages, a wrong secret, the home page show a
                # neutral page that names neither the game nor a player.
                for path, shown in (
                    (f"/game/{game_id}", "join-neutral"),
                    (f"/game/{game_id}/table", "join-neutral"),
                    ("/", "join-neutral"),
                    (f"/join/{game_id}?key={'x' * 22}", "join-refused"),
                    (f"/play/{game_id}", "join-no-seat"),
                ):
                    stranger = await open_device(browser, lan_server.url + path)
                    pages.append(stranger)
                    await ident(stranger, shown).wait_for(state="attached", timeout=30000)
                    await asyncio.sleep(0.5)
                    reveals_nothing(stranger)
                    await stranger.context.close()
                assert lan_server.access.key_ok(lan_server.access.host_key)

                # A phone takes Carmen's seat; the host makes a new link: the old one stops.
                phone = await open_device(browser, old_url)
                pages.append(phone)
                await click_id(phone, "join-seat-0", timeout=30000)
                await wait_text(phone, "Carmen · round 1", 30000)
                host = await open_device(browser, lan_server.host_link(f"/game/{game_id}/table"), LAPTOP)
                pages.append(host)
                await wait_text(host, "Join from phones", 30000)
                await click_id(host, "join-new-link")
                await click_id(host, "confirm-yes")
                new_url = f"{lan_server.url}/join/{game_id}?key={store.devices.secret(game_id)}"
                assert new_url != old_url
                await wait_text(host, new_url, 10000)
                late = await open_device(browser, old_url, locale="fa-IR")  # a phone in Persian (RTL)
                pages.append(late)
                await ident(late, "join-refused").wait_for(state="attached", timeout=30000)
                await wait_text(late, "پیوند نامعتبر")
                reveals_nothing(late)
                await late.goto(new_url)
                await enable_semantics(late)
                await wait_text(late, "جا گرفته شده", 30000)  # "Carmen: seat taken"
                await shot(late, "phones-join-fa")
                await wait_text(phone, "Carmen · round 1")  # the seated phone stays

                # The host frees Carmen's seat: her phone is told, and its token opens nothing more.
                await click_id(host, "free-seat-0")
                await click_id(host, "confirm-yes")
                await ident(phone, "join-freed").wait_for(state="attached", timeout=10000)
                await wait_text(host, "no phone yet")
                again = await open_device(browser, f"{lan_server.url}/play/{game_id}", context=phone.context)
                pages.append(again)
                await ident(again, "join-no-seat").wait_for(state="attached", timeout=30000)
            except Exception:
                for n, page in enumerate(pages):
                    if not page.is_closed():
                        await shot(page, f"phones-security-{n}-FAILED", settle=1, painted=False)
                raise
            await browser.close()

    drive(run())
    assert store.devices.devices(game_id) == []


def test_a_phone_asleep_while_its_seat_is_taken_wakes_at_its_seat(lan_server, store, monkeypatch) -> None:
    """The phone's socket drops just after the tap on its seat, while the seat is being taken
    (the store is made slow here): once the phone is back it is at its seat, on its seat's
    address, and its browser kept the seat's token (the link opened again finds the seat)."""
    game_id = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "seed": 3})
    url = f"{lan_server.url}/join/{game_id}?key={store.devices.secret(game_id)}"
    join = lan_server.services.join
    taking, taken = threading.Event(), threading.Event()
    binding = join.join

    def slow_join(*args):
        taking.set()
        taken.wait(30)
        return binding(*args)

    monkeypatch.setattr(join, "join", slow_join)

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            phone = await open_device(browser, url)
            async with pictured_on_failure(phone, "phones-asleep"):
                await click_id(phone, "join-seat-0", timeout=30000)
                while not taking.is_set():
                    await asyncio.sleep(0.05)
                await cut_connection(phone, asleep=True)
                await asyncio.sleep(1.0)  # the server hears the socket close
                taken.set()
                await asyncio.sleep(2.0)  # the seat is taken while the phone sleeps
                assert [d.seat for d in store.devices.devices(game_id)] == [0]
                phone.asleep = False
                await wait_text(phone, "Carmen · round 1", 30000)
                assert urlsplit(phone.url).path == f"/play/{game_id}"
                again = await open_device(browser, url, context=phone.context)
                await wait_text(again, "Carmen · round 1", 30000)
                assert [d.seat for d in store.devices.devices(game_id)] == [0]
            await browser.close()

    drive(run())


def test_a_phone_whose_renderer_traps_is_back_at_its_seat_by_itself(lan_server, store) -> None:
    """CanvasKit's WebAssembly now and then traps ("memory access out of bounds", a known Flutter
    web crash), and the screen it drew answers nothing after. The page reloads itself (the
    page's guard, client_http.PAGE_GUARD) and is back at its seat in the same Flet session;
    a second trap within a minute does not reload it again (no reload loop)."""
    game_id = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "seed": 3})
    url = f"{lan_server.url}/join/{game_id}?key={store.devices.secret(game_id)}"
    trap = "() => setTimeout(() => { throw new WebAssembly.RuntimeError('memory access out of bounds'); })"

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            phone = await open_device(browser, url)
            async with pictured_on_failure(phone, "phones-trap"):
                await click_id(phone, "join-seat-0", timeout=30000)
                await wait_text(phone, "Carmen · round 1", 30000)
                session = await phone.evaluate("() => sessionStorage.getItem('_flet_session_id')")
                loads: list[str] = []
                phone.on("load", lambda _: loads.append(phone.url))
                await phone.evaluate(trap)
                deadline = time.monotonic() + 30
                while not loads:
                    assert time.monotonic() < deadline, "the page did not reload after its renderer trapped"
                    await asyncio.sleep(0.1)
                await wait_text(phone, "Carmen · round 1", 30000)  # semantics on again: launch_browser's script
                assert urlsplit(phone.url).path == f"/play/{game_id}"
                assert await phone.evaluate("() => sessionStorage.getItem('_flet_session_id')") == session
                await click_id(phone, "action-end_turn", timeout=15000)
                await wait_text(phone, "Nicholas", 15000)
                await phone.evaluate(trap)
                await asyncio.sleep(3)
                assert len(loads) == 1, "a second trap within a minute reloaded the page again"
                assert [d.seat for d in store.devices.devices(game_id)] == [0]
            await browser.close()

    drive(run())
