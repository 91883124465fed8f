"""Driving the real app in a real browser: used by the end-to-end tests and the benchmarks that
drive a browser (`ui`, `sync`).

`AppServer` serves `companion.app.entry.web.make_asgi` with uvicorn on a free loopback port, in a
thread, with the store and settings file given. The page helpers drive Debian's chromium
through Playwright (a test dependency, imported lazily) the way a person would: Flutter draws
on a canvas and mirrors it in a semantics DOM, so controls are found by their stable
`flt-semantics-identifier` and tapped with the pointer. A missing chromium is an error that
says how to install it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import socket
import threading
import time
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

if TYPE_CHECKING:  # the app is imported when a server starts
    from companion.app.services.shared import Services

T = TypeVar("T")

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-unsafe-swiftshader",
    "--disable-dev-shm-usage",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"  # at the checkout's top, git-ignored
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}


class BrowserStuck(AssertionError):
    """The browser stopped answering: its renderer crashed or hung (seen on a loaded machine).

    Playwright waits on such a page for ever, so every wait here is bounded and ends in this
    error; a browser test that fails on it is run once more (tests/ui/conftest.py), never on any
    other failure.
    """


FRAME_S = 10.0  # how long a page that still answers may take to draw one frame
SESSION_S = 300.0  # the longest a browser test's whole session may take (the slowest: ~60 s on 2 cores)


def drive(session: Coroutine[Any, Any, T], limit: float = SESSION_S) -> T:
    """Run a browser session to its end, or fail after `limit` seconds with BrowserStuck whose
    cause's traceback shows the step it was stuck on."""

    async def bounded() -> T:
        try:
            return await asyncio.wait_for(session, limit)
        except TimeoutError as stuck:
            raise BrowserStuck(f"the browser session did not end within {limit:.0f} s") from stuck

    return asyncio.run(bounded())


def require_chromium() -> str:
    """The browser the end-to-end tests drive; its absence fails the test with the fix."""
    path = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    if not path:
        raise AssertionError(
            "Debian's chromium is not installed, so the end-to-end tests cannot run. "
            "Install it with: apt-get install chromium   (or point COMPANION_CHROMIUM at a chromium binary)"
        )
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class AppServer:
    """The app on a loopback port, in this process (one per test module or test).

    `lan=True` serves it as `--lan` would, except that loopback browsers are not trusted as the
    host's (every browser in a test is on loopback): the host's screens need `host_link`.
    `access` replaces that policy (a test of the door itself).
    """

    def __init__(
        self, store: Any, settings_path: Path, port: int | None = None, *, lan: bool = False, access: Any = None
    ) -> None:
        import uvicorn

        from companion.app.door.access import Access
        from companion.app.entry.web import make_asgi
        from companion.app.services.settings import SettingsFile

        self.port = port or free_port()
        self.access = access or (Access(lan=True, machine=()) if lan else Access())
        lan = lan or self.access.lan
        self.app = make_asgi(
            store, SettingsFile(settings_path), lan_url=f"{self.url}/" if lan else None, access=self.access
        )
        self.server = uvicorn.Server(
            uvicorn.Config(
                self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on", proxy_headers=False
            )
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def services(self) -> Services:
        """The server's shared services (store, join links and lockouts)."""
        api: Any = self.app.app  # the FastAPI application behind the door (make_asgi)
        services: Services = api.state.services
        return services

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def host_link(self, path: str = "/") -> str:
        """An address of the host's screens (with the host key, as printed at start)."""
        return self.access.host_link(self.url, path)

    def __enter__(self) -> AppServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the app server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def serving(proc: Any, url: str, what: str, timeout: float = 30) -> Any:
    """`proc` once `url` answers 200; AssertionError (with what it printed) if it exits or never does."""
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1) as answer:
                if answer.status == 200:
                    return proc
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(f"{what} exited: {proc.stdout.read() if proc.stdout else ''}") from None
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"{what} served nothing in {timeout:.0f} s")


async def open_page(
    browser: Any,
    url: str,
    viewport: dict[str, int],
    *,
    dark: bool = False,
    text_scale: float = 1.0,
    locale: str = "en-US",
    context: Any = None,
    routed: bool = False,
) -> Any:
    """The app open at `url` in a new browser context (a device of its own: its own storage; the
    app's language follows `locale` until one is chosen in Settings), or in a new tab of `context`
    (the same device); `routed`: its connections pass through the test (`route_connections`)."""
    if context is None:
        context = await browser.new_context(
            viewport=viewport, color_scheme="dark" if dark else "light", reduced_motion="no-preference", locale=locale
        )
    page = await context.new_page()
    if routed:
        await route_connections(page)
    page.console_lines = []
    page.on("console", lambda msg: page.console_lines.append(f"{msg.type}: {msg.text}"))
    page.on("pageerror", lambda err: page.console_lines.append(f"pageerror: {err}"))
    page.on("crash", lambda _: page.console_lines.append("crash: the page's renderer crashed"))
    await page.goto(url)
    await enable_semantics(page)
    if text_scale != 1.0:
        await set_text_scale(page, text_scale)
    return page


async def route_connections(page: Any) -> None:
    """Pass the page's websocket connections through the test (before the page opens): each one's
    two ends are kept in `page.links` (`cut_connection` closes the last), and while
    `page.asleep` the page's attempts to reconnect are refused."""
    page.links = []
    page.asleep = False

    async def link(ws: Any) -> None:
        if page.asleep:
            await ws.close()
            return
        page.links.append((ws, ws.connect_to_server()))

    await page.route_web_socket(re.compile(r"/ws$"), link)


async def cut_connection(page: Any, asleep: bool = False) -> None:
    """Close the page's connection, as a dropped network does; `asleep`: it stays away until
    `page.asleep` is set back to False, else it reconnects by itself."""
    page.asleep = asleep
    for end in page.links[-1]:
        await end.close()


async def reconnected(page: Any, count: int, timeout: float = 30) -> None:
    """Wait until the page has made its `count`-th connection."""
    deadline = time.monotonic() + timeout
    while len(page.links) < count:
        assert time.monotonic() < deadline, f"the page did not reconnect ({len(page.links)} connections)"
        await asyncio.sleep(0.1)


async def enable_semantics(page: Any) -> None:
    """Turn the page's accessibility tree on (where the tests read the screen); nothing to do
    where it is on already."""
    await page.wait_for_function(
        "() => document.querySelector('flt-semantics, flt-semantics-placeholder')", timeout=30000
    )
    if await evaluate(page, "() => document.querySelector('flt-semantics') !== null"):
        return
    ph = page.locator("flt-semantics-placeholder")
    await ph.wait_for(state="attached", timeout=30000)
    box = await ph.bounding_box()
    if box and box["width"] > 1:
        await ph.click(force=True)
    else:
        await evaluate(page, "document.querySelector('flt-semantics-placeholder').click()")
    await page.locator("flt-semantics").first.wait_for(state="attached", timeout=30000)


async def set_text_scale(page: Any, scale: float) -> None:
    """Flutter web reads the browser's root font size as the text scale (16px = 100%)."""
    await evaluate(page, f"document.documentElement.style.fontSize = '{16 * scale}px'")
    await asyncio.sleep(0.5)


def ident(page: Any, name: str) -> Any:
    return page.locator(f"[flt-semantics-identifier='{name}']")


async def click_id(
    page: Any, name: str, timeout: float = 15000, settle: float = 0.2, expect_change: bool = True
) -> None:
    """Tap the semantics node with this identifier, as a finger would.

    Flutter draws on a canvas: the semantics DOM only mirrors it. So the node is brought into
    view with the mouse wheel (Flutter scrolls itself and re-lays out the tree), its position is
    read twice to be sure it has settled, and the pointer presses and releases on its centre.
    Every tap in this app changes the screen; if nothing changed (the canvas was mid-layout when
    the pointer landed) the tap is repeated once the screen is still, never more than twice.
    """
    deadline = time.monotonic() + timeout / 1000
    box = None
    for attempt in range(3):
        if attempt and box is not None:
            await nudge(page, box["x"] + box["width"] / 2)
        box = await box_in_view(page, name, deadline)
        before = await screen_text(page) if expect_change else ""
        if os.environ.get("COMPANION_TRACE_CLICKS"):
            print("click", name, box, attempt, time.time())
        await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        await page.mouse.down()
        await asyncio.sleep(0.04)
        await page.mouse.up()
        if not expect_change:
            break
        changed = False
        for _ in range(30):
            await asyncio.sleep(0.1)
            if await screen_text(page) != before:
                changed = True
                break
        if changed:
            break
    await asyncio.sleep(settle)


async def type_over(page: Any, name: str, text: str) -> None:
    """Tap the field with this identifier and type `text` over what it holds, as a person does
    (the field keeps its focus: leaving it is the next tap's business). A tap that did not give
    the field its focus (the canvas mid-layout) is made again."""
    for _ in range(3):
        await click_id(page, name, expect_change=False)
        if await _field_focused(page, 3000, name):
            break
    await type_text(page, text)


FOCUSED_VALUE_JS = """() => {
  const a = document.activeElement;
  return a && (a.tagName === 'INPUT' || a.tagName === 'TEXTAREA') ? a.value : null;
}"""


async def type_text(page: Any, text: str, tries: int = 3) -> None:
    """Type `text` over what the focused field holds, and see the field hold it.

    Flutter web's field is a DOM input that its engine keeps in step with the app: keys typed
    while the engine is still taking a newly tapped field can be lost, or overwritten by the
    value it then sets (likely what failed a ruling typed on CI's loaded machine). So the test
    waits for the field to have the focus, reads the value back once it is still, and types the
    text again over it when it differs."""
    if not await _field_focused(page, 15000):
        raise AssertionError(f"no field has the focus to type {text!r} into")
    held = None
    for _ in range(tries):
        await page.keyboard.press("Control+A")
        await page.keyboard.type(text, delay=20)
        held = await _still_value(page)
        if held == text:
            return
    raise AssertionError(f"the field holds {held!r} after typing {text!r} {tries} times")


FIELD_FOCUSED_JS = f"""(name) => {{
  if (({FOCUSED_VALUE_JS})() === null) return false;
  return !name || document.activeElement.closest(`[flt-semantics-identifier="${{name}}"]`) !== null;
}}"""


async def _field_focused(page: Any, timeout: float, name: str = "") -> bool:
    """Whether a text field (inside the node with this identifier, if named) has the focus
    within `timeout` milliseconds."""
    from playwright.async_api import TimeoutError as WaitTimeout

    try:
        await page.wait_for_function(FIELD_FOCUSED_JS, arg=name, timeout=timeout)
    except WaitTimeout:
        return False
    return True


async def _still_value(page: Any, still: float = 0.4, timeout: float = 5.0) -> str | None:
    """The focused field's value once it has not changed for `still` seconds."""
    deadline = time.monotonic() + timeout
    value = await evaluate(page, FOCUSED_VALUE_JS)
    since = time.monotonic()
    while time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        now = await evaluate(page, FOCUSED_VALUE_JS)
        if now != value:
            value, since = now, time.monotonic()
        elif time.monotonic() - since >= still:
            break
    return cast("str | None", value)


async def nudge(page: Any, x: float) -> None:
    """Scroll the column at `x` a pixel down and back: Flutter web then lays its accessibility
    tree out again.

    Seen here: after some redraws the tree stayed a couple of hundred pixels off the picture
    (the canvas right, every node below where it is drawn) until something scrolled, so a tap
    by a node's position, a test's or a screen reader's, landed beside it.
    """
    view = page.viewport_size
    await page.mouse.move(x, view["height"] / 2)
    await page.mouse.wheel(0, 1)
    await asyncio.sleep(0.1)
    await page.mouse.wheel(0, -1)
    await asyncio.sleep(0.25)


async def box_in_view(page: Any, name: str, deadline: float) -> dict[str, float]:
    view = page.viewport_size
    last = None
    wheeled_at = None  # where the node was when the wheel last moved the page for it
    while True:
        if time.monotonic() > deadline:
            raise AssertionError(f"no tappable element {name!r} on screen")
        loc = ident(page, name).first
        box: dict[str, float] | None
        try:
            box = await loc.bounding_box(timeout=500)
        except Exception:  # not there (yet), or replaced while we looked
            box = None
        if not box or box["width"] < 1:
            last = None
            await asyncio.sleep(0.15)
            continue
        middle = box["y"] + box["height"] / 2
        fixed = middle == wheeled_at  # the wheel did not move it: in the app bar, or at the page's end
        # Under the bar, below the screen, or cut by its bottom edge when it would fit whole (a
        # finger, or a pointer at its middle, can miss a node only partly drawn).
        cut = box["y"] + box["height"] > view["height"] and box["height"] < view["height"] - APP_BAR
        if ((middle < APP_BAR or cut) and not fixed) or middle > view["height"] - 12:
            wheeled_at = middle
            x = min(max(box["x"] + box["width"] / 2, 5), view["width"] - 5)
            await page.mouse.move(x, view["height"] / 2)
            await page.mouse.wheel(0, middle - view["height"] / 2)
            last = None
            await asyncio.sleep(0.35)
            continue
        if last is not None and abs(last["y"] - box["y"]) < 1 and abs(last["x"] - box["x"]) < 1:
            return box
        last = box
        await asyncio.sleep(0.08)


APP_BAR = 64  # the app bar covers the top of every screen: a node whose middle is under it is out of reach
ANSWER_S = 30.0  # how long a page may take to say what it shows before a test gives up on it
SCREEN_TEXT_JS = """() => {
  const host = document.querySelector('flt-semantics-host');
  if (!host) return '';
  const labels = Array.from(host.querySelectorAll('[aria-label]')).map(e => e.getAttribute('aria-label'));
  const inputs = Array.from(host.querySelectorAll('input')).map(e => e.value);
  const states = Array.from(host.querySelectorAll('[aria-current],[aria-checked],[aria-selected]')).map(
    e => (e.getAttribute('flt-semantics-identifier') || '') + '=' + e.getAttribute('aria-current')
         + e.getAttribute('aria-checked') + e.getAttribute('aria-selected'));
  return [host.innerText, ...labels, ...inputs, ...states].join('\\n');
}"""


async def evaluate(page: Any, script: str, arg: Any = None, timeout: float = ANSWER_S) -> Any:
    """`page.evaluate`, given `timeout` seconds: Playwright's has no timeout of its own, and a page
    whose renderer stopped answering would hold a test until the whole run's limit."""
    try:
        return await asyncio.wait_for(page.evaluate(script, arg), timeout)
    except TimeoutError:
        crashed = any(line.startswith("crash:") for line in getattr(page, "console_lines", ()))
        why = "its renderer crashed" if crashed else "its renderer is stuck"
        raise BrowserStuck(f"the page did not answer within {timeout:.0f} s ({why})") from None


async def screen_text(page: Any, timeout: float = ANSWER_S) -> str:
    """Everything the semantics tree says: texts, labels (merged groups) and field values."""
    return str(await evaluate(page, SCREEN_TEXT_JS, timeout=timeout))


async def wait_text(page: Any, text: str, timeout: float = 15000) -> None:
    """Wait until `text` is on screen (as a text, or inside a merged group's label).

    A wait that runs out on a page whose renderer stopped answering is BrowserStuck, not a text
    missing from the screen; otherwise the failure says what the screen showed instead."""
    from playwright.async_api import TimeoutError as WaitTimeout

    try:
        await page.wait_for_function(
            "(needle) => { const f = " + SCREEN_TEXT_JS + "; return f().includes(needle); }", arg=text, timeout=timeout
        )
    except WaitTimeout:
        await answering(page)
        said = [line for line in getattr(page, "console_lines", ()) if line.startswith(("pageerror", "crash"))]
        if said:
            raise AssertionError(f"{text!r} never showed; the page said: {' | '.join(said[-5:])}") from None
        shown = " | ".join(line for line in (await screen_text(page)).splitlines() if line.strip())
        waited = f"{timeout / 1000:.0f} s"
        raise AssertionError(f"{text!r} never showed in {waited}; the screen showed: {shown[:3000]}") from None


async def answering(page: Any) -> None:
    """BrowserStuck unless the page still runs a script and draws a frame."""
    await evaluate(page, "() => new Promise(done => requestAnimationFrame(() => done()))", timeout=FRAME_S)


def _uniform(png: bytes) -> bool:
    """A screenshot of one flat colour: the canvas has not painted yet."""
    import io

    from PIL import Image

    extrema = Image.open(io.BytesIO(png)).convert("RGB").getextrema()
    bands = cast("tuple[tuple[float, float], ...]", extrema)  # an RGB image's: one (low, high) per band
    return all(low == high for low, high in bands)


# Where a control fails to build or lay out, a release build of Flutter paints a box of
# 0xC0 grey (at 94% opacity over the page: 183-196 here, light or dark) instead of it and of
# everything after it in its parent. No control of the app is that neutral a grey, so a
# screenshot with more than this share of it shows a broken layout.
ERROR_BOX_SHARE = 0.01


def error_box_share(png: bytes) -> float:
    """The share of the picture in the single neutral grey that is Flutter's error box."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    counted = image.getcolors(maxcolors=image.width * image.height) or []
    colours = cast("list[tuple[int, tuple[int, int, int]]]", counted)  # an RGB image's: (count, (r, g, b))
    grey = max(
        (n for n, (r, g, b) in colours if 175 <= r <= 205 and abs(r - g) <= 2 and abs(g - b) <= 2),
        default=0,
    )
    return grey / (image.width * image.height)


@asynccontextmanager
async def pictured_on_failure(page: Any, name: str) -> AsyncIterator[None]:
    """A step of a browser test: when it fails, a screenshot `<name>-FAILED` shows where."""
    try:
        yield
    except Exception:
        await shot(page, f"{name}-FAILED", painted=False)
        raise


async def shot(page: Any, name: str, settle: float = 8.0, *, painted: bool = True) -> Path:
    """Save a screenshot once the canvas has painted and stopped changing (die rolls, first frame).

    Flutter's semantics tree can be complete a moment before CanvasKit paints the first frame,
    so "the text is there" is not enough for a picture. With `painted`, a picture that shows
    Flutter's grey error box fails the test (`error_box_share`): the tree can be whole and
    tappable while the screen shows grey.
    """
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    deadline = time.monotonic() + settle
    previous = None
    while True:
        await asyncio.sleep(0.25)
        image = await _screenshot(page)
        blank = _uniform(image)
        if (image == previous and not blank) or time.monotonic() > deadline:
            break
        previous = image
    path.write_bytes(image)
    share = error_box_share(image) if painted else 0.0
    if share > ERROR_BOX_SHARE:
        raise AssertionError(f"{share:.0%} of {path.name} is Flutter's grey error box: a control could not be laid out")
    return path


async def _screenshot(page: Any, tries: int = 3) -> bytes:
    """A screenshot, asked again when the compositor misses its frame.

    On a loaded machine headless chromium sometimes never delivers the frame a capture waits
    for; a fresh animation frame (and a fresh request) gets one.
    """
    from playwright.async_api import TimeoutError as CaptureTimeout

    for _ in range(tries - 1):
        try:
            image: bytes = await page.screenshot(timeout=30000)
            return image
        except CaptureTimeout:
            with contextlib.suppress(BrowserStuck):
                await answering(page)
    try:
        image = await page.screenshot(timeout=30000)
        return image
    except CaptureTimeout:
        await answering(page)  # BrowserStuck when the renderer stopped drawing altogether
        raise


# The app's page reloads itself when its renderer's WebAssembly traps (client_http.PAGE_GUARD,
# stamping the time in sessionStorage): the new document has the accessibility tree off, as every
# document starts, and the tests read the screen through it. This turns it back on there, once.
SEMANTICS_AFTER_RECOVERY = """(() => {
  const stamp = sessionStorage.getItem("companion-recovered");
  if (!stamp || Date.now() - Number(stamp) > 15000 || sessionStorage.getItem("semantics-restored") === stamp) return;
  sessionStorage.setItem("semantics-restored", stamp);
  const timer = setInterval(() => {
    const placeholder = document.querySelector("flt-semantics-placeholder");
    if (placeholder) { clearInterval(timer); placeholder.click(); }
  }, 100);
})();"""


async def launch_browser(playwright: Any) -> Any:
    """Debian's chromium; each context it makes turns the accessibility tree back on after the
    page's own recovery from a renderer trap (SEMANTICS_AFTER_RECOVERY)."""
    browser = await playwright.chromium.launch(executable_path=require_chromium(), args=CHROMIUM_ARGS)
    new_context = browser.new_context

    async def context_that_recovers(**options: Any) -> Any:
        context = await new_context(**options)
        await context.add_init_script(SEMANTICS_AFTER_RECOVERY)
        return context

    browser.new_context = context_that_recovers
    return browser
