"""The `phones` benchmark suite (`dyo-companion bench phones`): a phone opening the join link.

A phone at the table opens the QR code's link on the venue's wifi. Measured in Debian's
chromium at phone size, with the network emulated (Chrome DevTools' throttling: the bandwidth
down and up and a delay added to every request), on an empty profile (a new browser context):
the first visit, then a second one in a new tab of the same profile (its HTTP cache kept), each
until the join screen is drawn: the page's own (ui/phone/early_join.py: the seats, in plain HTML,
answering a tap), then the client's ("Who are you?" in its accessibility tree, the wait of the
phone tests; the page's own is gone by then). For each: both times, the bytes received over HTTP
(headers and bodies as sent, the websocket aside) and the requests. The same run times the
reference, Flet's client served as Flet serves it (`COMPANION_PLAIN_CLIENT=1`: no compression,
no cache headers, every font, no screen of the page's own). The compressed copies are made
first, once (precompress.py), so the figures are those of a server that has run before.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drivers.browser import PHONE, AppServer, enable_semantics, launch_browser, require_chromium, wait_text

# (name, Mbit/s down, Mbit/s up, ms added to each request)
# The last, no emulation at all, is this machine's floor: what the browser and the server take
# with an unlimited network (on a loaded machine, most of the figures above it).
NETWORKS = (("venue wifi", 20, 5, 40), ("poor wifi", 5, 1, 100), ("loopback", 0, 0, 0))
RUNS = int(os.environ.get("COMPANION_BENCH_PHONE_RUNS", "3"))
JOIN_TEXT = "Who are you?"
# The join screen drawn, whichever draws it first: the page's own, or the client's.
DRAWN_JS = """(needle) => {
  const own = document.querySelector('#dyo-early h1');
  if (own && own.textContent && own.getBoundingClientRect().height > 0) return true;
  const host = document.querySelector('flt-semantics-host');
  return !!host && host.innerText.includes(needle);
}"""
TARGETS = {"venue wifi": "<= 2.0 s", "poor wifi": "<= 6 s", "loopback": "(this machine's floor)"}
# Chrome and Firefox ask for brotli over HTTPS only (Chrome also from localhost): a phone on the
# venue's wifi opening `http://<LAN address>` takes gzip. Both are measured, the browser's
# Accept-Encoding set through DevTools (Network.setExtraHTTPHeaders); everything runs on loopback.
LAN = "the app over plain HTTP (a --lan link: gzip)"
HTTPS = "the app over HTTPS (behind the nginx example: brotli)"
REFERENCE = "Flet's own serving (the uncompressed reference)"


@dataclass
class Visit:
    seconds: float  # to the join screen drawn (the page's own, else the client's)
    client: float  # to the client's join screen
    received: int  # bytes over HTTP, headers included
    requests: int  # sent to the server (a 304 included)
    cached: int  # answered from the browser's cache without asking


class Traffic:
    """What the page asks for, from the browser's own account (DevTools' Network domain)."""

    def __init__(self) -> None:
        self.received = 0
        self.sent: set[str] = set()
        self.cached: set[str] = set()

    def attach(self, cdp: Any) -> None:
        cdp.on("Network.requestWillBeSent", lambda e: self.sent.add(e["requestId"]))
        cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        cdp.on("Network.responseReceived", self._answered)
        cdp.on("Network.loadingFinished", self._finished)

    def _answered(self, event: dict[str, Any]) -> None:
        if event["response"].get("fromDiskCache") or event["response"].get("fromMemoryCache"):
            self.cached.add(event["requestId"])

    def _finished(self, event: dict[str, Any]) -> None:
        self.received += int(event.get("encodedDataLength", 0))

    def visit(self, seconds: float, client: float) -> Visit:
        return Visit(seconds, client, self.received, len(self.sent - self.cached), len(self.cached))


@contextlib.contextmanager
def _plain_client(on: bool) -> Iterator[None]:
    """The reference server is made with the client layer off (client_http.py's switch)."""
    from companion.app.host.client_http import PLAIN_ENV

    before = os.environ.get(PLAIN_ENV)
    if on:
        os.environ[PLAIN_ENV] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(PLAIN_ENV, None)
        else:
            os.environ[PLAIN_ENV] = before


def _server(folder: Path, plain: bool) -> tuple[AppServer, str]:
    """A server with a stored game (as `--lan` serves it) and that game's join link."""
    from companion.app.services.joining import JoinService
    from storage import Store

    folder.mkdir(parents=True, exist_ok=True)
    store = Store(url=f"sqlite:///{folder / 'games.sqlite3'}")
    game_id = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}, {"name": "Yellow"}]})
    with _plain_client(plain):
        server = AppServer(store, folder / "settings.json", lan=True)
    return server, JoinService(store).join_url(game_id, server.url)


def _compressed(server: AppServer) -> int:
    """Make every compressed copy the server would (waiting for its own builder): the number made."""
    from companion.app.host import precompress

    api: Any = server.app.app  # the FastAPI app behind the door (entry/web.py)
    layer = api.state.client  # its client layer (host/server.py)
    table = layer.table.result(timeout=120)
    return precompress.build(layer.store, table.files.values())


async def _visit(context: Any, url: str, network: tuple[str, int, int, int], codings: list[str]) -> Visit:
    """One visit in a new tab of `context`, until the join screen is drawn, the browser taking
    the content `codings` given."""
    _, down, up, delay = network
    page = await context.new_page()
    cdp = await context.new_cdp_session(page)
    traffic = Traffic()
    traffic.attach(cdp)
    await cdp.send("Network.enable")
    await cdp.send("Network.setExtraHTTPHeaders", {"headers": {"Accept-Encoding": ", ".join(codings)}})
    if down:
        await cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": delay,
                "downloadThroughput": down * 1_000_000 / 8,
                "uploadThroughput": up * 1_000_000 / 8,
            },
        )
    started = time.perf_counter()
    await page.goto(url, timeout=120_000, wait_until="commit")
    semantics = asyncio.ensure_future(enable_semantics(page))  # as soon as the client can
    await page.wait_for_function(DRAWN_JS, arg=JOIN_TEXT, polling="raf", timeout=120_000)
    drawn = time.perf_counter() - started
    await semantics
    await wait_text(page, JOIN_TEXT, 120_000)
    client = time.perf_counter() - started
    await asyncio.sleep(1.0)  # what the page still asks for once drawn (a font) is counted too
    visit = traffic.visit(drawn, client)
    await page.close()
    return visit


async def _measure(servers: dict[str, tuple[str, list[str]]]) -> dict[tuple[str, str, str], list[Visit]]:
    """Every (network, server, first or second visit) visited RUNS times, interleaved."""
    from playwright.async_api import async_playwright

    visits: dict[tuple[str, str, str], list[Visit]] = {}
    async with async_playwright() as playwright:
        browser = await launch_browser(playwright)
        try:
            for _ in range(RUNS):
                for network in NETWORKS:
                    for label, (url, codings) in servers.items():
                        context = await browser.new_context(viewport=PHONE)
                        for which in ("first", "second"):
                            visit = await _visit(context, url, network, codings)
                            visits.setdefault((network[0], label, which), []).append(visit)
                        await context.close()
        finally:
            await browser.close()
    return visits


def _row(network: tuple[str, int, int, int], label: str, which: str, samples: list[Visit]) -> tuple[str, str, str]:
    name, down, up, delay = network
    seconds = [v.seconds for v in samples]
    middle = statistics.median(seconds)
    client = [v.client for v in samples]
    received = statistics.median(v.received for v in samples)
    requests = statistics.median(v.requests for v in samples)
    cached = statistics.median(v.cached for v in samples)
    speed = f" {down}/{up} Mbit/s {delay} ms" if down else " (no emulation)"
    what = f"{name}{speed}, {label}, {which} visit: join screen drawn"
    spread = f"{min(seconds):.2f}-{max(seconds):.2f}"
    size = f"{received / 1e6:.2f} MB" if received >= 1e5 else f"{received / 1e3:.1f} kB"
    measured = f"{middle:.2f} s (median of {len(samples)}: {spread}), {size} in {requests:.0f} requests"
    measured += f"; the client's join screen {statistics.median(client):.2f} s ({min(client):.2f}-{max(client):.2f})"
    if cached:
        measured += f" ({cached:.0f} more from the cache)"
    if label == REFERENCE:
        target = "(reference)"
    elif not down:
        target = TARGETS[name]
    elif which == "first":
        target = f"{TARGETS[name]}, <= 5 MB"
    else:
        target = "<= 1 s"
    return what, measured, target


def phones_suite() -> list[tuple[str, str, str]]:
    """Issue 38: a phone's first and second visit of the join page, against Flet's own serving."""
    try:
        require_chromium()
    except AssertionError as error:
        return [("phones suite", f"not measured: {error}", "-")]
    with tempfile.TemporaryDirectory() as root:
        app, app_url = _server(Path(root, "app"), plain=False)
        reference, reference_url = _server(Path(root, "reference"), plain=True)
        with app, reference:
            made = _compressed(app)
            servers = {LAN: (app_url, ["gzip", "deflate"]), HTTPS: (app_url, ["gzip", "deflate", "br"])}
            servers[REFERENCE] = (reference_url, ["gzip", "deflate", "br"])
            visits = asyncio.run(_measure(servers))
    rows = [("compressed copies made before measuring (once per Flet version)", f"{made}", "(setup)")]
    for network in NETWORKS:
        for label in servers:
            for which in ("first", "second"):
                rows.append(_row(network, label, which, visits[(network[0], label, which)]))
    return rows
