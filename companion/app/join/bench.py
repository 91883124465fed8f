"""The `sync` benchmark suite (`dyo-companion bench sync`): six phones and the table view.

- action to visible on the others: six phones (chromium contexts) seated by the join link and
  the table view; each tap of the deciding phone (Search, end the turn) is timed from its pointer
  going down to the moment each of the six other screens shows its result (MutationObservers in
  each page, on the machine's clock: `performance.timeOrigin + performance.now()`);
- soak: 2,000 actions of random legal play submitted by the phones' own screens (their seat
  sessions, with the version they were made on) to six seat screens and the table view running
  in Flet sessions without a browser (every screen re-renders for every action, as it would
  connected); the server's memory growth, and whether any screen missed an action.
Everything runs on loopback on this machine.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgpack
from flet.controls.base_control import BaseControl
from flet.messaging.connection import Connection
from flet.messaging.protocol import configure_encode_object_for_msgpack
from flet.pubsub.pubsub_hub import PubSubHub

_ENCODE = configure_encode_object_for_msgpack(BaseControl)
NAMES = ["Carmen", "Nicholas", "Yellow", "Dana", "Omar", "Lucia"]
GAME = {"players": [{"name": n} for n in NAMES], "modules": {"warden": True}, "seed": 21}
SOAK_ACTIONS = 2000

# In every page: when the text expected next first shows, on the machine's clock (ms).
WATCH_JS = """() => {
  const host = document.querySelector('flt-semantics-host');
  window.__expect = null; window.__seen = null;
  const text = () => host.innerText + '\\n' + Array.from(host.querySelectorAll('[aria-label]'))
    .map(x => x.getAttribute('aria-label')).join('\\n');
  window.__met = () => window.__expect !== null && text().includes(window.__expect);
  document.addEventListener('pointerdown', () => { window.__down = performance.timeOrigin + performance.now(); },
                            true);
  new MutationObserver(() => {
    if (window.__seen === null && window.__met()) window.__seen = performance.timeOrigin + performance.now();
  }).observe(host, {subtree: true, childList: true, characterData: true, attributes: true,
                    attributeFilter: ['aria-label']});
}"""
# Before the page loads: when each websocket message from the server arrives (the machine's clock).
ARRIVALS_JS = """(() => {
  const Native = window.WebSocket;
  window.__arrived = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => {
        window.__arrived.push(performance.timeOrigin + performance.now());
        if (window.__arrived.length > 400) window.__arrived.splice(0, 200);
      });
    }
  };
})()"""


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="utf-8") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


# --- latency, in chromium ----------------------------------------------------------------------

async def _open(browser: Any, url: str, viewport: dict[str, int]) -> Any:
    """A device (a browser context of its own) timing the server's messages as they arrive."""
    from ..browser import enable_semantics

    context = await browser.new_context(viewport=viewport)
    await context.add_init_script(ARRIVALS_JS)
    page = await context.new_page()
    await page.goto(url)
    await enable_semantics(page)
    return page


async def _latency(folder: Path) -> tuple[list[float], list[float]]:
    """Tap to visible, and tap to the update's arrival, on each of the six other screens (ms)."""
    from playwright.async_api import async_playwright

    from storage import Store

    from ..browser import LAPTOP, PHONE, AppServer, box_in_view, click_id, launch_browser, wait_text

    store = Store(url=f"sqlite:///{folder / 'games.sqlite3'}")
    game_id = store.create_game(GAME)
    samples: list[float] = []
    arrivals: list[float] = []
    logging.getLogger("uvicorn.error").setLevel(logging.CRITICAL)  # pages closing at the end are no news
    with AppServer(store, folder / "settings.json", lan=True) as server:
        url = f"{server.url}/join/{game_id}?key={store.devices.secret(game_id)}"
        async with async_playwright() as p:
            browser = await launch_browser(p)
            table = await _open(browser, server.host_link(f"/game/{game_id}/table"), LAPTOP)
            phones = list(await asyncio.gather(*(_open(browser, url, PHONE) for _ in NAMES)))
            for seat, phone in enumerate(phones):
                await click_id(phone, f"join-seat-{seat}", timeout=30000)
            for seat, phone in enumerate(phones):
                await wait_text(phone, f"{NAMES[seat]} · turn 1", 30000)
            screens = [table, *phones]
            for page in screens:
                await page.evaluate(WATCH_JS)

            async def tap(actor: Any, name: str, expect: str) -> None:
                others = [page for page in screens if page is not actor]
                for page in others:
                    await page.evaluate("(e) => { window.__expect = e; window.__seen = null; }", expect)
                fresh = [page for page in others if not await page.evaluate("window.__met()")]
                box = await box_in_view(actor, name, time.monotonic() + 15)
                await actor.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                await actor.mouse.down()
                await actor.mouse.up()
                for page in fresh:
                    await wait_text(page, expect, 10000)
                down = await actor.evaluate("window.__down")
                for page in fresh:
                    seen = await page.evaluate("window.__seen")
                    if seen is not None:
                        samples.append(seen - down)
                    arrived = await page.evaluate("(d) => window.__arrived.find(t => t >= d)", down)
                    if arrived is not None:
                        arrivals.append(arrived - down)
                await asyncio.sleep(0.3)

            for turn in range(18):  # three rounds
                seat = turn % 6
                who, after = NAMES[seat], NAMES[(seat + 1) % 6]
                await wait_text(phones[seat], f"{who}'s turn", 15000)
                await tap(phones[seat], "action-search", f"{who} draws 1 Search card")
                await tap(phones[seat], "action-end_turn", f"{after}'s turn")
            await browser.close()
    store.close()
    return samples, arrivals


# --- the soak, in Flet sessions without a browser ------------------------------------------------

class _Connection(Connection):
    """A Flet connection that encodes what it would send (as the real one does) and drops it."""

    def __init__(self, loop: Any, hub: PubSubHub, executor: ThreadPoolExecutor) -> None:
        super().__init__()
        self.loop = loop
        self.executor = executor
        self.pubsubhub = hub
        self.sent = 0

    def send_message(self, message: Any) -> None:
        self.sent += len(msgpack.packb([message.action, message.body], default=_ENCODE))


async def _soak(folder: Path, actions: int) -> dict[str, Any]:
    from flet.controls.context import _context_page
    from flet.messaging.session import Session

    from companion.rules import step
    from companion.simulate import RandomTable
    from storage import Store

    from ..settings import SettingsFile
    from ..shell import App, Services
    from .access import Access
    from .service import JoinService

    loop = asyncio.get_running_loop()
    executor = ThreadPoolExecutor(2)
    hub = PubSubHub(loop=loop, executor=executor)
    store = Store(url=f"sqlite:///{folder / 'games.sqlite3'}")
    services = Services(store, SettingsFile(folder / "settings.json"), access=Access())
    join: JoinService = services.join
    config = dict(GAME, house_rules={"targets": {str(n): 100 for n in range(2, 7)}})  # long games
    rng = random.Random(5)

    sessions: list[Session] = []  # Flet holds its sessions weakly: the server's registry, here

    async def open_screen(route: str, device: Any = None) -> Any:
        """One more connected screen: the table view (`device` None) or a phone's seat."""
        session = Session(_Connection(loop, hub, executor))
        sessions.append(session)
        session.get_page_patch()
        _context_page.set(session.page)
        app = App(session.page, services)
        app.apply_settings()
        app.host = device is None  # what `admit` decides from the address and the host key
        if device is not None:
            app.join_devices = {device.game_id: device}
        app.show(route)
        await asyncio.sleep(0)
        return app

    async def seat_all(game_id: str) -> list[Any]:
        secret = store.devices.secret(game_id)
        apps = [await open_screen(f"/game/{game_id}/table")]
        for seat in range(len(NAMES)):
            device, _ = join.join(game_id, secret, "127.0.0.1", seat, "bench")
            apps.append(await open_screen(f"/play/{game_id}", device))
        return apps

    game_id = store.create_game(config)
    apps = await seat_all(game_id)
    done = lost = 0
    start_rss = None
    started = time.perf_counter()
    while done < actions:
        full = store.load(game_id).game.state
        chooser = RandomTable(rng, full)
        for candidate in chooser.choices(full):
            action = candidate.to_json()
            if step(full.copy(), candidate).accepted and not action.get("force"):
                break
        else:
            raise RuntimeError("no legal action found")
        screen = apps[1 + action["player"]].screen
        screen.submit(action)
        for _ in range(6):  # the other screens' pubsub handlers run on this loop
            await asyncio.sleep(0)
        done += 1
        version = store.load(game_id).version
        lost += sum(1 for app in apps if app.screen.session.version != version)
        if done == 100:  # warmed up: caches, fonts, the first screens built
            gc.collect()
            start_rss = _rss_mb()
        if full.winner is not None or store.load(game_id).game.state.winner is not None:
            for app in apps:
                app.screen.leave()
            sessions.clear()
            game_id = store.create_game(dict(config, seed=done))
            apps = await seat_all(game_id)
    seconds = time.perf_counter() - started
    gc.collect()
    growth = _rss_mb() - (start_rss or _rss_mb())
    store.close()
    return {"actions": done, "seconds": seconds, "growth": growth, "lost": lost}


def _spread(samples: list[float]) -> str:
    from companion.bench import percentile

    if not samples:
        return "no samples"
    return (f"p50 {percentile(samples, 50):.0f} ms, p95 {percentile(samples, 95):.0f} ms, "
            f"max {max(samples):.0f} ms")


def sync_suite() -> list[tuple[str, str, str]]:
    from ..browser import require_chromium

    rows: list[tuple[str, str, str]] = []
    try:
        require_chromium()
    except AssertionError as error:
        rows.append(("sync: action to visible on six other screens", f"not measured: {error}", "-"))
    else:
        with tempfile.TemporaryDirectory() as folder:
            samples, arrivals = asyncio.run(_latency(Path(folder)))
        rows.append((f"sync: tap on one phone to visible on the 6 other screens (5 phones + table view, all 7 "
                     f"Flutter clients drawing on this machine), {len(samples)} samples over 36 actions, loopback",
                     _spread(samples), "p95 < 250 ms"))
        rows.append(("sync: tap on one phone to the update arriving at the 6 other screens (their websocket), "
                     f"{len(arrivals)} samples", _spread(arrivals), "(part of the above)"))
    with tempfile.TemporaryDirectory() as folder:
        soak = asyncio.run(_soak(Path(folder), SOAK_ACTIONS))
    rows.append((f"sync soak: {soak['actions']:,} actions from 6 seat screens + the table view "
                 f"({soak['seconds']:.0f} s), server memory growth after the first 100",
                 f"{soak['growth']:+.1f} MB", "< 50 MB"))
    rows.append(("sync soak: screen updates missed (a screen behind the store after an action)",
                 str(soak["lost"]), "0"))
    return rows
