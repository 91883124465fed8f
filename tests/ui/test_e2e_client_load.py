"""A phone opening the join link, in Debian's chromium, as the app serves its web client
(companion/app/host/client_http.py): nothing is asked of any other host, the first load is under
5 MB on the wire with gzip alone (what a phone takes over plain HTTP on the venue's wifi), the
next visit takes the client from the phone's cache, and the join screen draws the same text and
icons as with every font of Flet's client, in English, Italian and Persian (its bundled font)."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import flet_web
import pytest
from playwright.async_api import async_playwright

from companion.app.host.server import assets_dir
from companion.app.services.joining import JoinService
from companion.app.vm.text import Tr

from .client_support import client_server, compress
from drivers.browser import ARTIFACTS, PHONE, drive, enable_semantics, launch_browser, shot, wait_text

WEB = Path(flet_web.get_package_web_dir())
FIRST_LOAD_LIMIT = 5_000_000
UNUSED = ("KaTeX", "CupertinoIcons", "MaterialIcons-Regular.otf")  # fonts the app never draws with


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with client_server(tmp_path_factory.mktemp("load")) as (server, layer):
        compress(layer, codings=("gzip",))  # a phone's start files; brotli's would take minutes
        store = server.services.store
        game = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})
        yield server, JoinService(store).join_url(game, server.url)


async def watched(context: Any, codings: list[str]) -> tuple[Any, dict[str, Any]]:
    """A new tab whose traffic is counted from the browser's own account (DevTools): bytes
    received, requests sent and answered from the cache, by URL."""
    page = await context.new_page()
    cdp = await context.new_cdp_session(page)
    seen: dict[str, Any] = {"bytes": 0, "sent": {}, "cached": set()}
    cdp.on("Network.requestWillBeSent", lambda e: seen["sent"].__setitem__(e["requestId"], e["request"]["url"]))
    cdp.on("Network.requestServedFromCache", lambda e: seen["cached"].add(e["requestId"]))
    cdp.on(
        "Network.responseReceived",
        lambda e: (
            (e["response"].get("fromDiskCache") or e["response"].get("fromMemoryCache"))
            and seen["cached"].add(e["requestId"])
        ),
    )
    cdp.on("Network.loadingFinished", lambda e: seen.__setitem__("bytes", seen["bytes"] + e["encodedDataLength"]))
    await cdp.send("Network.enable")
    await cdp.send("Network.setExtraHTTPHeaders", {"headers": {"Accept-Encoding": ", ".join(codings)}})
    return page, seen


async def join_screen(page: Any, url: str, title: str = "Who are you?") -> None:
    await page.goto(url)
    await enable_semantics(page)
    await wait_text(page, title, 60000)


def test_a_phone_asks_nothing_of_another_host_and_gets_under_5_mb(served: Any) -> None:
    server, url = served
    own = urlsplit(server.url).netloc
    foreign: list[str] = []
    routed: list[str] = []

    async def route(handle: Any) -> None:
        routed.append(handle.request.url)
        if urlsplit(handle.request.url).netloc != own:
            foreign.append(handle.request.url)
            await handle.abort()
        else:
            await handle.continue_()

    async def run() -> dict[str, Any]:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            context = await browser.new_context(viewport=PHONE)
            await context.route("**/*", route)
            context.on("request", lambda r: urlsplit(r.url).netloc in (own, "") or foreign.append(r.url))
            page, seen = await watched(context, ["gzip", "deflate"])
            console: list[str] = []
            page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
            await join_screen(page, url)
            await asyncio.sleep(1)  # what is still asked for once drawn (a font) counts too
            await browser.close()
            return {**seen, "console": console}

    seen = drive(run(), 120)
    assert routed and not foreign, f"asked of another host: {foreign}"
    assert not [line for line in seen["console"] if "http" in line], seen["console"]
    assert seen["bytes"] < FIRST_LOAD_LIMIT, f"{seen['bytes']:,} bytes on the first load"
    unused = [u for u in seen["sent"].values() if any(name in u for name in UNUSED)]
    assert not unused, f"fonts the app never draws with were loaded: {unused}"


def test_the_next_visit_takes_the_client_from_the_phones_cache(served: Any) -> None:
    _, url = served

    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            context = await browser.new_context(viewport=PHONE)
            first, seen_first = await watched(context, ["gzip", "deflate"])
            await join_screen(first, url)
            await first.close()
            second, seen_second = await watched(context, ["gzip", "deflate"])
            await join_screen(second, url)
            await asyncio.sleep(1)
            await browser.close()
            return seen_first, seen_second

    first, second = drive(run(), 120)
    from_cache = {second["sent"][r] for r in second["cached"]}
    assert any(u.endswith("/main.dart.wasm") for u in from_cache), sorted(from_cache)
    assert any(u.endswith("/canvaskit/skwasm.wasm") for u in from_cache), sorted(from_cache)
    asked = [u for r, u in second["sent"].items() if r not in second["cached"]]
    assert not [u for u in asked if u.endswith((".wasm", ".mjs", ".otf", ".woff2"))], asked
    assert second["bytes"] < 100_000, (second["bytes"], asked)  # the page and small files revalidated: 304s
    assert first["bytes"] > 20 * second["bytes"]


def whole_font_manifest() -> bytes:
    """Flet's font manifest as Flet serves it: every family (the reference of the picture)."""
    families = json.loads((WEB / "assets" / "FontManifest.json").read_text(encoding="utf-8"))
    families.append({"family": "Roboto", "fonts": [{"asset": "fonts/roboto.woff2"}]})
    return json.dumps(families).encode()


def changed_pixels(a: bytes, b: bytes) -> int:
    from PIL import Image, ImageChops

    first, second = (Image.open(io.BytesIO(x)).convert("L") for x in (a, b))
    assert first.size == second.size
    return sum(1 for value in ImageChops.difference(first, second).tobytes() if value > 48)  # one byte a pixel


@pytest.mark.parametrize(("lang", "locale"), [("en", "en-US"), ("it", "it-IT"), ("fa", "fa-IR")])
def test_the_join_screen_draws_all_its_text_and_icons(served: Any, lang: str, locale: str) -> None:
    """The same picture as with every font of Flet's client (its manifest routed in): no text
    and no icon lost to the fonts left out or cut; Persian in its bundled font, arrived whole."""
    _, url = served
    title = Tr(lang)("join.pick_title")
    whole = whole_font_manifest()
    bundled: list[bytes] = []

    async def picture(browser: Any, reference: bool) -> bytes:
        context = await browser.new_context(viewport=PHONE, locale=locale)
        if reference:
            await context.route("**/assets/FontManifest.json", lambda r: r.fulfill(body=whole))
        page = await context.new_page()

        async def keep(response: Any) -> None:
            if "Vazirmatn" in response.url and response.status == 200:
                bundled.append(await response.body())

        page.on("response", keep)
        await join_screen(page, url, title)
        path = await shot(page, f"client-join-{lang}{'-whole-fonts' if reference else ''}")
        await context.close()
        return path.read_bytes()

    async def run() -> tuple[bytes, bytes]:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            served_picture = await picture(browser, reference=False)
            reference_picture = await picture(browser, reference=True)
            await browser.close()
            return served_picture, reference_picture

    served_picture, reference_picture = drive(run(), 120)
    changed = changed_pixels(served_picture, reference_picture)
    assert changed < 40, f"{changed} pixels differ from the picture with every font ({ARTIFACTS}/client-join-{lang}*)"
    if lang == "fa":
        font = (assets_dir() / "fonts" / "Vazirmatn-Regular.ttf").read_bytes()
        assert bundled and bundled[0] == font, "the Persian font did not arrive whole"
