"""The `sync` benchmark suite (`dyo-companion bench sync`): six phones and the table view.

- action to visible on the six others, measured twice (`_latency`): as phones usually are (no
  accessibility tree; the referee's laptop taps for each player in turn, the six phones watch),
  and with every screen's accessibility tree on (each phone taps on its own turn, five phones and
  the table view watch). A tap (Search, end the turn) is timed from the pointer going down to the
  end of the first frame each other screen draws after the server's message carrying the news,
  and, with the tree on, to the news showing in that tree; all on the machine's clock
  (`performance.timeOrigin + performance.now()`), each tap starting from a settled table;
- soak: 2,000 actions of random legal play submitted by the phones' own screens (their seat
  sessions, with the version they were made on) to six seat screens and the table view running
  in Flet sessions without a browser (every screen re-renders for every action and its patches
  are encoded as for the websocket); the server's memory growth, and whether any screen missed
  an action.
Everything runs on loopback on this machine.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.bench import rss_mb

from drivers.browser import (
    LAPTOP,
    PHONE,
    AppServer,
    box_in_view,
    click_id,
    enable_semantics,
    launch_browser,
    require_chromium,
    wait_text,
)

NAMES = ["Carmen", "Nicholas", "Yellow", "Dana", "Omar", "Lucia"]
GAME = {"players": [{"name": n} for n in NAMES], "modules": {"warden": True}, "seed": 21}
SOAK_ACTIONS = 2000
YOUR_TURN = "Your turn"  # the headline on the phone of the player whose turn it is
SETTLE_S = 2.0  # how long the soak lets every screen catch up with an action before counting it lost

# Before each page loads: the machine's clock (ms) when a finger goes down on it, when the server's
# message carrying the text expected next arrives, and when the first frame after that message
# has been drawn (its last callback ends: Flutter applies a message before its next frame).
DEVICE_JS = """(() => {
  const now = () => performance.timeOrigin + performance.now();
  window.__expect = null; window.__textAt = null; window.__frame = null; window.__drawn = null;
  window.__frameAt = 0;
  document.addEventListener('pointerdown', () => { window.__down = now(); }, true);
  const decoder = new TextDecoder();
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (m) => {
        if (window.__expect !== null && window.__textAt === null && m.data instanceof ArrayBuffer
            && decoder.decode(m.data).includes(window.__expect)) window.__textAt = now();
      });
    }
  };
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => raf((time) => {  // one frame's callbacks share its time
    if (window.__frame === null && window.__textAt !== null && now() >= window.__textAt) window.__frame = time;
    try { callback(time); } finally {
      window.__frameAt = now();
      if (time === window.__frame) window.__drawn = now();
    }
  });
})()"""
# In a page with its accessibility tree on: when the text expected next first shows in it.
WATCH_JS = """() => {
  const host = document.querySelector('flt-semantics-host');
  window.__seen = null;
  const text = () => host.innerText + '\\n' + Array.from(host.querySelectorAll('[aria-label]'))
    .map(x => x.getAttribute('aria-label')).join('\\n');
  new MutationObserver(() => {
    if (window.__seen === null && window.__expect !== null && text().includes(window.__expect)) {
      window.__seen = performance.timeOrigin + performance.now();
    }
  }).observe(host, {subtree: true, childList: true, characterData: true, attributes: true,
                    attributeFilter: ['aria-label']});
}"""
EXPECT_JS = """(e) => { window.__expect = e; window.__textAt = null; window.__frame = null; window.__drawn = null;
                      window.__seen = null; }"""


# --- latency, in chromium ----------------------------------------------------------------------


async def _open(browser: Any, url: str, viewport: dict[str, int]) -> Any:
    """A device: a browser context of its own, timing what it receives and draws, with its
    accessibility tree on (to find what to tap; reloading the page turns it off)."""
    context = await browser.new_context(viewport=viewport)
    await context.add_init_script(DEVICE_JS)
    page = await context.new_page()
    await page.goto(url)
    await enable_semantics(page)
    return page


async def _quiet(page: Any, ms: float = 400, timeout: float = 30) -> None:
    """Wait until the page has drawn and then drawn nothing for `ms` (its screen is settled)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        idle = await page.evaluate("window.__frameAt && performance.timeOrigin + performance.now() - window.__frameAt")
        if idle >= ms:
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the page never settled")


async def _latency(folder: Path, accessible: bool, turns: int = 18) -> dict[str, list[float]]:
    """Tap to visible on the six other screens (ms) over `turns` turns (each a Search and End
    the turn), in one of two set-ups.

    `accessible`: every screen has its accessibility tree on (as with a screen reader; the tests
    read screens through it); each phone taps on its own turn; the other five phones and the
    table view count as seen when the text shows in their tree ("seen"), and also when the
    first frame after the message carrying it ends ("drawn", the same moment measured the
    other way: the two are compared). Otherwise, as phones usually are: no accessibility tree
    on the six phones (they rejoin their seats by reloading); the referee's laptop taps for
    each player and a phone counts as seen when its first frame after the news ends.
    """
    from playwright.async_api import async_playwright

    from storage import Store

    store = Store(url=f"sqlite:///{folder / 'games.sqlite3'}")
    game_id = store.create_game(GAME)
    out: dict[str, list[float]] = {"seen": [], "drawn": [], "arrived": []}
    logging.getLogger("uvicorn.error").setLevel(logging.CRITICAL)  # pages closing at the end are no news
    with AppServer(store, folder / "settings.json", lan=True) as server:
        url = f"{server.url}/join/{game_id}?key={store.devices.secret(game_id)}"
        async with async_playwright() as p:
            browser = await launch_browser(p)
            phones = list(await asyncio.gather(*(_open(browser, url, PHONE) for _ in NAMES)))
            for seat, phone in enumerate(phones):
                await click_id(phone, f"join-seat-{seat}", timeout=30000)
            for seat, phone in enumerate(phones):
                await wait_text(phone, f"{NAMES[seat]} · round 1", 30000)
            if accessible:
                table = await _open(browser, server.host_link(f"/game/{game_id}/table"), LAPTOP)
                screens = [table, *phones]
                for page in screens:
                    await page.evaluate(WATCH_JS)
            else:
                referee = await _open(browser, server.host_link(f"/game/{game_id}"), LAPTOP)
                for phone in phones:  # back to the seat by the token kept in the browser
                    await phone.reload()
                screens = [referee, *phones]
            for page in screens:
                await _quiet(page)

            async def tap(actor: Any, name: str, expect: str, called: Any = None) -> None:
                """`called`: the phone whose turn the tap starts, which reads "Your turn" instead."""
                others = [page for page in screens if page is not actor]
                for page in screens:
                    await page.evaluate(EXPECT_JS, YOUR_TURN if page is called else expect)
                box = await box_in_view(actor, name, time.monotonic() + 15)
                await actor.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                await actor.mouse.down()
                await actor.mouse.up()
                if accessible:
                    for page in others:
                        await wait_text(page, YOUR_TURN if page is called else expect, 10000)
                down = await actor.evaluate("window.__down")
                for page in others:
                    await page.wait_for_function("window.__drawn !== null", timeout=10000)
                    seen, drawn, arrived = await page.evaluate("[window.__seen, window.__drawn, window.__textAt]")
                    if seen is not None:
                        out["seen"].append(seen - down)
                    out["drawn"].append(drawn - down)
                    out["arrived"].append(arrived - down)
                for page in screens:  # the next tap starts from a settled table
                    await _quiet(page, 250)

            for turn in range(turns):  # 18: three rounds
                seat, after = turn % len(NAMES), (turn + 1) % len(NAMES)
                who = NAMES[seat]
                actor = phones[seat] if accessible else referee
                await wait_text(actor, YOUR_TURN if accessible else f"{who}'s turn", 15000)
                await tap(actor, "action-search", f"{who} draws 1 Search card")
                await tap(actor, "action-end_turn", f"{NAMES[after]}'s turn", phones[after])
            await browser.close()
    store.close()
    return out


# --- the soak, in Flet sessions without a browser ------------------------------------------------


async def _soak(folder: Path, actions: int) -> dict[str, Any]:
    from companion.rules import step
    from companion.simulate import RandomTable

    from .instance import Instance

    instance = Instance(f"sqlite:///{folder / 'games.sqlite3'}", folder, "soak")
    store, join = instance.store, instance.services.join
    config = dict(GAME, house_rules={"targets": {str(n): 100 for n in range(2, 7)}})  # long games
    rng = random.Random(5)

    async def seat_all(game_id: str) -> list[Any]:
        secret = store.devices.secret(game_id)
        apps = [await instance.open_screen(f"/game/{game_id}/table")]
        for seat in range(len(NAMES)):
            device, _ = join.join(game_id, secret, "127.0.0.1", seat, "bench")
            apps.append(await instance.open_screen(f"/play/{game_id}", device))
        return apps

    game_id = store.create_game(config)
    apps = await seat_all(game_id)
    done = lost = 0
    first_sent: list[float] = []  # ms from an action submitted to the first patch sent to each other screen
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
        actor = apps[1 + action["player"]]
        others = [instance.connection(app) for app in apps if app is not actor]
        for connection in others:
            connection.first_at = None
        submitted = time.perf_counter()
        actor.screen.control.submit(action)
        if actor.screen.writing is not None:  # the store's part runs off the loop (offloop.py)
            await asyncio.wrap_future(actor.screen.writing)
        done += 1
        version = store.load(game_id).version
        lost += await _behind(apps, version)
        if start_rss is not None:  # warmed up
            first_sent += [(c.first_at - submitted) * 1e3 for c in others if c.first_at is not None]
        if done == 100:  # warmed up: caches, fonts, the first screens built
            gc.collect()
            start_rss = rss_mb()
        if full.winner is not None or store.load(game_id).game.state.winner is not None:
            for app in apps:
                instance.close_screen(app)
            game_id = store.create_game(dict(config, seed=done))
            apps = await seat_all(game_id)
    seconds = time.perf_counter() - started
    gc.collect()
    growth = rss_mb() - (start_rss or rss_mb())
    instance.close()
    return {"actions": done, "seconds": seconds, "growth": growth, "lost": lost, "first_sent": first_sent}


async def _behind(apps: list[Any], version: int, patience: float = SETTLE_S) -> int:
    """The screens still behind `version` once the news had time to reach them: their rereads
    run off the loop (offloop.py), so a screen is lost only if it never catches up. Then waits
    (within the same patience) for every screen to have sent the rest of its table, which a
    screen with nothing to do now sends later (`WATCHING_REST_DELAY`): what the next action
    sends first is then its own news, not this action's rest."""
    deadline = time.perf_counter() + patience
    while True:
        behind = sum(1 for app in apps if app.screen.session.version != version)
        if not behind or time.perf_counter() > deadline:
            break
        await asyncio.sleep(0.001)
    while time.perf_counter() < deadline and any(app.screen.news.waiting or app.screen.patch.busy for app in apps):
        await asyncio.sleep(0.005)
    return behind


def _spread(samples: list[float]) -> str:
    from companion.bench import percentile

    if not samples:
        return "no samples"
    return f"p50 {percentile(samples, 50):.0f} ms, p95 {percentile(samples, 95):.0f} ms, max {max(samples):.0f} ms"


def sync_suite() -> list[tuple[str, str, str]]:
    rows: list[tuple[str, str, str]] = []
    try:
        require_chromium()
    except AssertionError as error:
        rows.append(("sync: action to visible on six other screens", f"not measured: {error}", "-"))
    else:
        with tempfile.TemporaryDirectory() as folder:
            usual = asyncio.run(_latency(Path(folder), accessible=False))
        with tempfile.TemporaryDirectory() as folder:
            accessible = asyncio.run(_latency(Path(folder), accessible=True))
        rows += [
            (
                f"sync: tap on the referee's laptop to drawn on the 6 phones (no accessibility tree, as phones "
                f"usually are), {len(usual['drawn'])} samples over 36 actions, 8 Flutter clients on this machine",
                _spread(usual["drawn"]),
                "p95 < 150 ms",
            ),
            (
                "sync: ... of which the update reaching the phones (their websocket)",
                _spread(usual["arrived"]),
                "(part of the above)",
            ),
            (
                f"sync: tap on one phone to shown on the 6 other screens (5 phones + table view, every screen's "
                f"accessibility tree on, read through it), {len(accessible['seen'])} samples",
                _spread(accessible["seen"]),
                "p95 < 200 ms",
            ),
            (
                "sync: ... the same taps timed by the first frame drawn after the news (checks the method above)",
                _spread(accessible["drawn"]),
                "(agrees with the above)",
            ),
        ]
    with tempfile.TemporaryDirectory() as folder:
        soak = asyncio.run(_soak(Path(folder), SOAK_ACTIONS))
    rows.append(
        (
            f"sync soak: {soak['actions']:,} actions from 6 seat screens + the table view "
            f"({soak['seconds']:.0f} s), server memory growth after the first 100",
            f"{soak['growth']:+.1f} MB",
            "< 50 MB",
        )
    )
    rows.append(
        ("sync soak: screen updates missed (a screen behind the store after an action)", str(soak["lost"]), "0")
    )
    rows.append(
        (
            "sync soak: the server's part, an action submitted to the first patch sent to each of the 6 other "
            "screens (no browser on the machine)",
            _spread(soak["first_sent"]),
            "(part of the first row)",
        )
    )
    return rows
