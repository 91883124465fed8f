"""The `ui` benchmark suite (`dyo-companion bench ui`): the app's figures, measured in chromium.

- tap to updated screen: the time from the pointer going down on a control to the first change
  of the page's accessibility tree that Flutter makes in the same frame it paints the new state
  (a MutationObserver timestamp, in the page's own clock), over taps that open a composer, cancel
  it, record a Search, and end a turn (each submission is a real write to the SQLite file);
- process start to first rendered table: from spawning `python -m companion` to the table of a
  stored game painted in an already running browser;
- memory: the resident set of that server process with one game open after those taps.
Everything runs on loopback on this machine; the browser is Debian's chromium.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any, cast

from companion.bench import rss_mb

from drivers.browser import (
    LAPTOP,
    PHONE,
    box_in_view,
    enable_semantics,
    free_port,
    launch_browser,
    require_chromium,
    wait_text,
)

# In the page: the pointer-down time, and the first moment the accessibility tree (built by
# Flutter in the frame that paints it) shows what the tap should bring: a control appearing by
# id, or a text.
OBSERVE_JS = """() => {
  window.__taps = [];
  window.__down = null;
  window.__expect = null;
  const host = document.querySelector('flt-semantics-host');
  const met = () => {
    const e = window.__expect;
    if (!e) return false;
    if (e.id) return !!host.querySelector(`[flt-semantics-identifier='${e.id}']`);
    if (e.gone) return !host.querySelector(`[flt-semantics-identifier='${e.gone}']`);
    const labels = Array.from(host.querySelectorAll('[aria-label]')).map(x => x.getAttribute('aria-label'));
    return (host.innerText + '\\n' + labels.join('\\n')).includes(e.text);
  };
  window.__settled = [];
  window.__last = null;
  document.addEventListener('pointerdown', () => {
    window.__down = performance.now(); window.__start = window.__down; window.__last = null;
  }, true);
  new MutationObserver(() => {
    if (window.__start != null) window.__last = performance.now() - window.__start;
    if (window.__down !== null && met()) {
      window.__taps.push(performance.now() - window.__down); window.__down = null; window.__expect = null;
    }
  }).observe(host, {subtree: true, childList: true, characterData: true, attributes: true,
                    attributeFilter: ['aria-label', 'flt-semantics-identifier']});
}"""

GAME = {
    "players": [{"name": "Carmen"}, {"name": "Nicholas"}, {"name": "Yellow"}, {"name": "Dana"}],
    "modules": {"warden": True},
    "seed": 21,
}


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def _start(port: int, db: str, settings: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, COMPANION_SETTINGS=str(settings))
    return subprocess.Popen[bytes](
        [sys.executable, "-m", "companion", "--no-browser", "--port", str(port), "--db", db],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _wait_healthy(port: int, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                return
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("the app server exited") from None
            time.sleep(0.02)
    raise RuntimeError("the app server did not answer in time")


async def _measure(folder: Path, viewport_name: str = "laptop") -> list[tuple[str, str, str]]:
    from playwright.async_api import async_playwright

    viewport = PHONE if viewport_name == "phone" else LAPTOP
    db, game_id = _stored_game(folder)
    settings = folder / "settings.json"
    port = free_port()
    rows: list[tuple[str, str, str]] = []
    async with async_playwright() as p:
        browser = await launch_browser(p)
        context = await browser.new_context(viewport=viewport)
        page = await context.new_page()
        await page.goto("about:blank")
        started = time.monotonic()
        proc = _start(port, db, settings)
        try:
            first = await _first_table(page, port, proc, game_id, viewport_name, started)
            rows.append(
                (
                    f"process start to first rendered table ({viewport_name}: spawn, serve, chromium paints a "
                    "stored game)",
                    f"{first:.2f} s",
                    "< 5 s",
                )
            )
            await page.evaluate(OBSERVE_JS)
            taps = _Taps(page)
            await _play_turns(page, taps)
            rows += taps.rows(viewport_name, viewport)
            rows.append(
                (
                    f"memory of the server process with one game ({viewport_name} run, resident set after those taps)",
                    f"{rss_mb(proc.pid):.0f} MB",
                    "< 200 MB",
                )
            )
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
            await browser.close()
    return rows


def _stored_game(folder: Path) -> tuple[str, str]:
    """A SQLite file in `folder` holding the benchmark's game: its URL and the game's id."""
    from storage import Store

    db = f"sqlite:///{folder / 'games.sqlite3'}"
    store = Store(url=db)
    game_id = store.create_game(GAME)
    store.close()
    return db, game_id


async def _first_table(
    page: Any, port: int, proc: subprocess.Popen[bytes], game_id: str, viewport_name: str, started: float
) -> float:
    """Seconds from spawning the server to the stored game's table painted: in the accessibility
    tree, then in colour on the screen (the status banner)."""
    import io

    from PIL import Image

    _wait_healthy(port, proc)
    trace = [("healthy", time.monotonic() - started)]
    await page.goto(f"http://127.0.0.1:{port}/game/{game_id}")
    trace.append(("loaded", time.monotonic() - started))
    await enable_semantics(page)
    trace.append(("semantics", time.monotonic() - started))
    await wait_text(page, "Carmen's turn", 30000)
    trace.append(("table text", time.monotonic() - started))
    while True:  # painted, not just in the accessibility tree: the status banner has its colour
        x = 820 if viewport_name == "laptop" else 20
        shot = await page.screenshot(clip={"x": x, "y": 70, "width": 200, "height": 40})
        bands = cast(
            "tuple[tuple[float, float], ...]",  # an RGB image's: one (low, high) per band
            Image.open(io.BytesIO(shot)).convert("RGB").getextrema(),
        )
        if any(lo != hi for lo, hi in bands):
            break
    first = time.monotonic() - started
    if os.environ.get("COMPANION_BENCH_TRACE"):
        print(trace + [("painted", first)], file=sys.stderr)
    return first


class _Taps:
    """Taps at the centre of a control, each timed until the screen shows what it should bring."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.samples: list[float] = []  # pointer down to the expected change, ms
        self.settled: list[float] = []  # pointer down to the last change it caused, ms
        self.lost: list[str] = []  # taps the screen did not answer, tapped again

    async def tap(self, name: str, expect: dict[str, Any], measure: bool = True) -> None:
        page = self.page
        for _attempt in range(3):
            box = await box_in_view(page, name, time.monotonic() + 15)
            before = await page.evaluate("window.__taps.length")
            await page.evaluate("(e) => { window.__expect = e; }", expect)
            await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            await page.mouse.down()
            await page.mouse.up()
            deadline = time.monotonic() + 3
            while await page.evaluate("window.__taps.length") == before and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            if await page.evaluate("window.__taps.length") > before:
                break
            self.lost.append(name)
        else:
            raise RuntimeError(f"the screen did not change after tapping {name} three times")
        if measure:
            self.samples.append(await page.evaluate("window.__taps[window.__taps.length - 1]"))
            await asyncio.sleep(0.4)  # the rest of the screen follows; then it is quiet
            self.settled.append(await page.evaluate("window.__last"))
        if measure and os.environ.get("COMPANION_BENCH_TRACE"):
            print(f"{name}: {self.samples[-1]:.0f} ms", file=sys.stderr)
        await asyncio.sleep(0.25)  # let the frame settle before the next finger

    def rows(self, viewport_name: str, viewport: dict[str, int]) -> list[tuple[str, str, str]]:
        """The figures of the taps measured: to the expected change, and to the screen settled."""
        samples, settled, lost = self.samples, self.settled, self.lost
        return [
            (
                f"tap to updated screen, {viewport_name} {viewport['width']}x{viewport['height']}, "
                f"{len(samples)} taps (open/cancel two composers, Search, end turn)",
                f"p50 {_percentile(samples, 50):.0f} ms, p95 {_percentile(samples, 95):.0f} ms, "
                f"max {max(samples):.0f} ms" + (f"; {len(lost)} taps repeated ({', '.join(lost)})" if lost else ""),
                "p95 < 100 ms",
            ),
            (
                f"tap to whole screen settled, {viewport_name} (the last change the tap caused: menu, map, cards)",
                f"p50 {_percentile(settled, 50):.0f} ms, p95 {_percentile(settled, 95):.0f} ms",
                "(no target)",
            ),
        ]


async def _play_turns(page: Any, taps: _Taps) -> None:
    """A warm-up (the first frames build shaders), then eight turns: open and cancel two
    composers, record a Search, end the turn."""
    composer, menu = {"id": "composer"}, {"gone": "composer"}
    await taps.tap("action-cautious_move", composer, measure=False)  # warm-up: first frames build shaders
    await taps.tap("compose-cancel", menu, measure=False)
    names = ["Carmen", "Nicholas", "Yellow", "Dana"]
    for turn in range(8):
        who, after = names[turn % 4], names[(turn + 1) % 4]
        await wait_text(page, f"{who}'s turn")
        await taps.tap("action-cautious_move", composer)
        await taps.tap("compose-cancel", menu)
        await taps.tap("action-search-details", {"id": "step-cards"})
        await taps.tap("compose-cancel", menu)
        await taps.tap("action-search", {"text": f"{who} draws 1 Search card"})
        await taps.tap("action-end_turn", {"text": f"{after}'s turn"})


def ui_suite() -> list[tuple[str, str, str]]:
    try:
        require_chromium()
    except AssertionError as error:
        return [("ui suite", f"not measured: {error}", "-")]
    rows = []
    for viewport in ("laptop", "phone"):
        with tempfile.TemporaryDirectory() as folder:
            rows += asyncio.run(_measure(Path(folder), viewport))
    return rows
