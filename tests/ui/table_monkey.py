"""A table that takes every path: random play through the real screens in a real browser, in
each way a table sets itself up, with what lets a table go on checked after every tap.

A flow test proves one path. Here the player who must decide taps a random control of the
screen they may use (their phone, else the laptop), now and then another player reacts from
theirs, and after every tap every screen of the table is asked (`Checker`):

- no page error in any browser and no exception on the server;
- the deciding player has, on a screen they may use, a control that answers;
- no browser holds a control its screen no longer shows (a button of an earlier decision, a
  row sent twice), and the tap was recorded, refused with a reason or answered on screen;
- no phone offers another seat's decision as buttons;
- every hand shows only where the screen setting lets it (and a phone's "only this phone sees
  your hand" is true);
- every player's score chip is on screen, whole, at 1280x800 and at 390x844.

A mode is one of the table's set-ups: {app die, real die} x {app cards, real Michel cards} x
{laptop only, laptop + 2 phones, every player on a phone} x {shared screen, referee's own}.
Each mode plays a game of its own, started from a random position the engine reached by
random play (so a few taps reach combats, extortions and the Warden). A failure names its mode
and seed, and the line that replays exactly that mode (`replay_hint`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import time
import weakref
from collections import Counter
from dataclasses import dataclass, field
from itertools import islice, product
from pathlib import Path
from typing import Any

from companion.app.ui.shell import App
from companion.simulate import RandomTable

from drivers.browser import LAPTOP, PHONE, click_id, enable_semantics, evaluate, screen_text, shot

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
DEVICES = ("laptop", "two-phones", "all-phones")


def phone_seats(devices: str, players: int) -> tuple[int, ...]:
    """Who plays on a phone: nobody, the last two players, or everyone."""
    return {"laptop": (), "two-phones": tuple(range(players - 2, players))}.get(devices, tuple(range(players)))


@dataclass(frozen=True)
class Mode:
    die: str  # "app" | "real": the app rolls, or the table enters its die
    cards: str  # "app" | "real": the app draws Michel's cards and random cards, or the table enters what it drew
    devices: str  # DEVICES
    screen: str  # "shared" | "private": the laptop's console hides the hands, or shows them all

    @property
    def name(self) -> str:
        return f"{self.die}-die+{self.cards}-cards+{self.devices}+{self.screen}"

    def settings(self) -> dict[str, str]:
        return {
            "die_mode": "physical" if self.die == "real" else "app",
            "michel_mode": "physical" if self.cards == "real" else "app",
            "card_mode": "physical" if self.cards == "real" else "app",
            "screen": self.screen,
            "sound": "off",
        }


MODES = [Mode(*m) for m in product(("app", "real"), ("app", "real"), DEVICES, ("shared", "private"))]


def game_config(seed: int) -> dict[str, Any]:
    """What the table of the report played: both neutrals, the Warden, the Workshop and the Gymnasium."""
    rng = random.Random(seed)
    hands = [["knife", "unknown", "unknown"], ["blade", "spoon", "unknown"], ["unknown", "unknown", "ring"]]
    return {
        "players": [
            {"name": n, "hand": h, "cigarettes": rng.randint(0, 6)} for n, h in zip(NAMES[:3], hands, strict=True)
        ],
        "modules": {"neutrals": 2, "warden": True, "places": ["workshop", "gymnasium"]},
        "seed": seed,
    }


def warm_up(store: Any, game_id: str, seed: int) -> None:
    """Random play by the engine's own simulated table, stored as the game's log: the screens
    then start in the middle of a game (players in the neutrals' Places, Weapons in hand)."""
    rng = random.Random(seed)
    state = store.load(game_id).game.state
    table = RandomTable(rng, state)
    for _ in range(rng.randint(0, 30)):
        if state.winner is not None:
            return
        for attempt in islice(table.choices(state), 20):
            version = store.load(game_id).version
            answer = store.submit(game_id, attempt.to_json(), base_version=version).answer
            if answer["accepted"] if isinstance(answer, dict) else answer.accepted:
                break
        state = store.load(game_id).game.state


# --- the server's side: every session's app, and what its screen shows ----------------------------


class Sessions:
    """Every app the server started, by its Flet session id (the browser keeps that id), and what
    each said in a toast (a refusal that changes nothing else on screen, "the table changed")."""

    def __init__(self) -> None:
        self.apps: weakref.WeakValueDictionary[str, App] = weakref.WeakValueDictionary()
        self.toasts: Counter[int] = Counter()  # by id(app)
        self._start, self._toast = App.start, App.toast

    def __enter__(self) -> Sessions:
        sessions = self

        def start(app: App) -> None:
            sessions.apps[str(app.page.session.id)] = app
            sessions._start(app)

        def toast(app: App, text: str) -> None:
            sessions.toasts[id(app)] += 1
            sessions._toast(app, text)

        App.start, App.toast = start, toast  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: Any) -> None:
        App.start, App.toast = self._start, self._toast  # type: ignore[method-assign]

    async def app_of(self, page: Any) -> App:
        session = await evaluate(page, "() => sessionStorage.getItem('_flet_session_id')")
        app = self.apps.get(str(session))
        assert app is not None, f"no session {session} on the server"
        return app


def shown_identifiers(app: App) -> Counter[str]:
    """The identifiers of the controls the screen shows now (hidden parts, and what they hold, left out)."""
    found: Counter[str] = Counter()

    def walk(control: Any) -> None:
        if control is None or not getattr(control, "visible", True):
            return
        ident = getattr(control, "identifier", None)
        if ident:
            found[ident] += 1
        for name in ("controls", "content", "actions", "title", "rows", "cells", "appbar", "leading"):
            child = getattr(control, name, None)
            for c in child if isinstance(child, list) else [child]:
                if hasattr(c, "_i"):
                    walk(c)

    page = app.page
    for view in page.views:
        walk(view)
    for dialog in page._dialogs.controls:
        if getattr(dialog, "open", False):
            walk(dialog)
    return found


def busy(app: App) -> bool:
    """The screen still has work in flight: a write, a headline's rest, patches to send."""
    screen = app.screen
    writing = getattr(screen, "writing", None)
    if writing is not None and not writing.done():
        return True
    patch = getattr(screen, "patch", None)
    news = getattr(screen, "news", None)
    return bool(getattr(patch, "busy", False) or getattr(news, "waiting", False))


class ServerErrors(logging.Handler):
    """Every error the server logged (an exception in a handler, a screen that failed to draw)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.name}: {record.getMessage()}")

    def __enter__(self) -> ServerErrors:
        logging.getLogger().addHandler(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        logging.getLogger().removeHandler(self)


# --- the browser's side ------------------------------------------------------------------------------

# A node is a button itself, or names the one Material button inside it (common.button).
NODES_JS = """() => Array.from(document.querySelectorAll('[flt-semantics-identifier]')).map(e => {
  const r = e.getBoundingClientRect();
  const inner = e.querySelector('[flt-semantics-identifier]') ? null : e.querySelector('[role=button]');
  const own = e.getAttribute('role') === 'button' ? e : inner;
  return {id: e.getAttribute('flt-semantics-identifier'), role: own ? 'button' : e.getAttribute('role'),
          disabled: !!own && own.getAttribute('aria-disabled') === 'true',
          text: (e.getAttribute('aria-label') || '') + '\\n' + (e.innerText || ''),
          x: r.x, y: r.y, w: r.width, h: r.height};
})"""

# Controls a player taps to play (and how much the monkey likes each); navigation, the scores,
# "show my hand" and the screen's own setting are not play.
PLAY = [  # the first pattern a control's identifier matches gives its weight
    (re.compile(r"(compose-back|.*-cancel|confirm-no|result-close|menu-refused)"), 1),
    (re.compile(r"(answer|pad|michel|drawn|die|pick|choice|done|add|many|number|place|end|quick)-.+"), 10),
    (re.compile(r"(punish|report|warden-to)-.+"), 10),
    (re.compile(r"action-(?!.*-details$).+"), 6),
    (re.compile(r"(confirm-yes|flag-ok|react-.+|freepass-.+|skip-.+|entered-.+|clear-.+)"), 3),
]
NOT_PLAY = re.compile(r"(michel-ask|drawn-ask|.*-value)")
DECIDING = re.compile(
    r"(answer|pad|michel|drawn|die|pick|choice|done|add|many|number|place|action|confirm|flag|compose|end|quick)-.+"
)
OTHERS_DECISION = re.compile(r"(answer|pad|pick|michel|drawn|die)-.+")


def weight(ident: str) -> int:
    if NOT_PLAY.fullmatch(ident):
        return 0
    return next((w for pattern, w in PLAY if pattern.fullmatch(ident)), 0)


@dataclass
class Device:
    page: Any
    kind: str  # "console" | "table" | "seat"
    viewport: dict[str, int]
    seat: int | None = None
    app: Any = None

    @property
    def label(self) -> str:
        return self.kind if self.seat is None else f"{NAMES[self.seat]}'s phone"  # the configs' names

    async def nodes(self) -> list[dict[str, Any]]:
        return list(await evaluate(self.page, NODES_JS))


@dataclass
class Table:
    """One mode's game on its devices: the laptop's screen and the phones."""

    mode: Mode
    seed: int
    game_id: str
    store: Any
    devices: list[Device] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    @property
    def state(self) -> Any:
        return self.store.load(self.game_id).game.state

    @property
    def players(self) -> int:
        return len(self.state.players)

    def screen_of(self, seat: int) -> Device:
        """Where `seat` plays: their phone, else the laptop's console."""
        phone = [d for d in self.devices if d.seat == seat]
        return phone[0] if phone else next(d for d in self.devices if d.kind == "console")


def replay_hint(mode: Mode, seed: int) -> str:
    return (
        f"COMPANION_TABLE_MODES={mode.name} COMPANION_TABLE_SEED={seed} "
        "python -m pytest tests/ui/test_e2e_table_invariants.py"
    )


async def open_table(
    browser: Any,
    server: Any,
    settings: Path,
    store: Any,
    mode: Mode,
    seed: int,
    sessions: Sessions,
    config: dict[str, Any] | None = None,
    devices: list[Device] | None = None,
) -> Table:
    """The game of `mode` on its devices: the console (or, every player on a phone, the table
    view) on a laptop, and the phones joined by the link each one scans. Without a `config`, the
    game of `game_config`, from a random position the engine reached. `devices`: the last game's,
    whose browsers open this one (a new session each, so each reads the table's settings anew)."""
    settings.write_text(json.dumps(mode.settings()), encoding="utf-8")
    game_id = store.create_game(config or game_config(seed))
    if config is None:
        warm_up(store, game_id, seed)
    table = Table(mode, seed, game_id, store)
    phones = phone_seats(mode.devices, table.players)
    everyone = len(phones) == table.players
    pages = iter([d.page for d in devices or []])
    laptop_path = f"/game/{game_id}/table" if everyone else f"/game/{game_id}"
    laptop = await open_page(browser, next(pages, None), server.host_link(laptop_path), LAPTOP)
    table.devices.append(Device(laptop, "table" if everyone else "console", LAPTOP))
    link = f"{server.url}/join/{game_id}?key={store.devices.secret(game_id)}"
    for seat in phones:
        phone = await open_page(browser, next(pages, None), link, PHONE)
        await click_id(phone, f"join-seat-{seat}", timeout=30000)
        table.devices.append(Device(phone, "seat", PHONE, seat))
    for device in table.devices:
        await wait_for_table(device.page)
        device.app = await sessions.app_of(device.page)
    return table


async def open_page(browser: Any, page: Any, url: str, viewport: dict[str, int]) -> Any:
    """`url` on a device of its own (its own storage, so its own token), in English: a new one,
    or `page` again in a new session (a reload is quicker than a new browser context)."""
    if page is None:
        context = await browser.new_context(viewport=viewport, locale="en-US")
        page = await context.new_page()
        page.console_lines, page.traps = [], []
        page.on("pageerror", lambda err: page_error(page, err))
        page.on("crash", lambda _: page.console_lines.append("crash: the page's renderer crashed"))
    else:
        await evaluate(page, "() => sessionStorage.clear()")
    await page.goto(url)
    await enable_semantics(page)
    return page


def page_error(page: Any, error: Any) -> None:
    """A trap of the renderer's WebAssembly (a CanvasKit crash the page's guard answers with a
    reload) is kept apart: the check is then that the page came back by itself."""
    kept = page.traps if getattr(error, "name", "") == "RuntimeError" else page.console_lines
    kept.append(f"pageerror: {error}")


async def wait_for_table(page: Any, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while "score-strip" not in await screen_ids(page):
        assert time.monotonic() < deadline, "the table never showed"
        await asyncio.sleep(0.2)


async def screen_ids(page: Any) -> str:
    return str(
        await evaluate(
            page, "() => document.querySelector('[flt-semantics-identifier=\"score-strip\"]') ? 'score-strip' : ''"
        )
    )


async def settle(table: Table, timeout: float = 20) -> None:
    """Until no screen has work in flight and every browser shows the same as a moment ago."""
    deadline = time.monotonic() + timeout
    last: list[str] = []
    while time.monotonic() < deadline:
        if any(busy(d.app) for d in table.devices):
            await asyncio.sleep(0.1)
            continue
        now = [await screen_text(d.page) for d in table.devices]
        if now == last:
            return
        last = now
        await asyncio.sleep(0.25)
    raise AssertionError(f"the screens never settled within {timeout:.0f} s")


# --- the checks ----------------------------------------------------------------------------------------


def hand_shown(nodes: list[dict[str, Any]], seat: int) -> bool:
    return any(n["id"] == f"player-{seat}" and "\nHand: " in "\n" + n["text"] for n in nodes)


async def problems(table: Table, errors: ServerErrors) -> list[str]:
    """What stops this table from going on, or shows what its screen may not show, now."""
    state = table.state
    found = [f"the server logged an error: {error}" for error in errors.records]
    errors.records.clear()
    for device in table.devices:
        found += await device_problems(table, device)
    deciding = None if state.winner is not None else (state.pending.player if state.pending else state.active)
    if deciding is not None:
        where = table.screen_of(deciding)
        nodes = await where.nodes()
        if not [n for n in nodes if answers(n)]:
            shown = sorted({f"{n['id']}:{n['role']}{':disabled' if n['disabled'] else ''}" for n in nodes})
            found.append(f"{NAMES[deciding]} must decide, and {where.label} offers nothing that answers: {shown}")
    return found


def answers(node: dict[str, Any]) -> bool:
    return node["role"] == "button" and not node["disabled"] and bool(DECIDING.fullmatch(node["id"]))


async def device_problems(table: Table, device: Device) -> list[str]:
    """One screen's: its page errors, controls its screen no longer shows, another seat's
    buttons, hands it may not show, score chips cut off."""
    state, mode, page = table.state, table.mode, device.page
    found = [f"{device.label}: {line}" for line in page.console_lines]
    page.console_lines.clear()
    if page.traps:
        found += await recovered(device)
    nodes = await device.nodes()
    server = shown_identifiers(device.app)
    for ident, count in Counter(n["id"] for n in nodes).items():
        if count > server[ident]:
            kin = sorted(i for i in server if i.split("-")[0] == ident.split("-")[0])  # what it shows instead
            found.append(
                f"{device.label} shows {ident!r} {count}x, its screen {server[ident]}x: {kin} (stale or doubled)"
            )
    pending = state.pending
    if device.kind == "seat" and pending is not None and pending.player != device.seat:
        theirs = [n["id"] for n in nodes if answers(n) and OTHERS_DECISION.fullmatch(n["id"])]
        if theirs:
            found.append(f"{device.label} offers {NAMES[pending.player]}'s decision as buttons: {theirs}")
    for seat in range(table.players):
        if hand_shown(nodes, seat) and not hand_may_show(table, device, seat):
            found.append(f"{device.label} shows {NAMES[seat]}'s hand ({mode.screen} screen)")
    if mode.screen == "private" and any("Only this phone sees your hand" in n["text"] for n in nodes):
        found.append(f"{device.label} says only it sees the hand, but the laptop shows every hand")
    return found + chips_cut(device, nodes, table.players)


async def recovered(device: Device) -> list[str]:
    """After a trap of its renderer, the page must reload itself and show the table again."""
    page, traps = device.page, list(device.page.traps)
    page.traps.clear()
    print(f"{device.label}: {'; '.join(traps)} (the page reloads itself)")
    try:
        await asyncio.sleep(1)  # the guard's reload starts (the browser's recovery script turns semantics on)
        await wait_for_table(page)  # in the same Flet session: `device.app` is still its app
    except AssertionError as failed:
        return [f"{device.label}: {'; '.join(traps)}, and the page did not come back ({failed})"]
    return []


def hand_may_show(table: Table, device: Device, seat: int) -> bool:
    if device.kind == "table":
        return False
    if device.kind == "seat":
        return device.seat == seat
    if table.mode.screen == "private":
        return True
    return device.app.screen.control.revealed_seat() == seat  # "show my hand", by its own player


def chips_cut(device: Device, nodes: list[dict[str, Any]], players: int) -> list[str]:
    """Every score chip whole on screen (when the strip is scrolled into view at all)."""
    strip = next((n for n in nodes if n["id"] == "score-strip"), None)
    if strip is None or strip["y"] < 0:
        return []
    width = device.viewport["width"]
    cut = []
    for seat in range(players):
        chip = next((n for n in nodes if n["id"] == f"score-{seat}"), None)
        if chip is None or chip["w"] < 1 or chip["x"] < 0 or chip["x"] + chip["w"] > width + 0.5:
            cut.append(f"{device.label}: {NAMES[seat]}'s score chip is not whole on screen")
    return cut


# --- the taps ---------------------------------------------------------------------------------------------


Prefer = list[tuple[re.Pattern[str], int]]


async def choose_tap(table: Table, rng: random.Random, prefer: Prefer) -> tuple[Device, str] | None:
    """The deciding player's screen and a control of it; now and then another player's reaction.
    `prefer` overrides the weight of some controls (a game that should reach its end digs)."""
    state = table.state
    if state.winner is not None:
        return None
    devices = table.devices
    deciding = state.pending.player if state.pending else state.active
    order = [table.screen_of(deciding)]
    if rng.random() < 0.2:
        order.insert(0, rng.choice(devices))
    for device in order:
        nodes = await device.nodes()
        dialog = [n["id"] for n in nodes if n["id"] in ("flag-ok", "flag-force", "confirm-yes", "confirm-no")]
        if dialog:
            weights = [{"flag-force": 1, "confirm-no": 1}.get(i, 5) for i in dialog]
            return device, rng.choices(dialog, weights)[0]
        offered = sorted(  # in a fixed order: the same seed chooses the same among the same controls
            (n["id"], next((w for pattern, w in prefer if pattern.fullmatch(n["id"])), weight(n["id"])))
            for n in nodes
            if n["role"] == "button" and not n["disabled"] and weight(n["id"]) and n["w"] >= 1
        )
        if offered:
            ids, weights = zip(*offered, strict=True)
            return device, rng.choices(ids, weights)[0]
    return None


async def tap(table: Table, device: Device, ident: str, sessions: Sessions) -> str | None:
    """Tap `ident`; what went wrong when the tap was silently ignored (nothing recorded, nothing
    refused, nothing changed on its screen)."""
    before_version = table.store.load(table.game_id).version
    before = await screen_text(device.page)
    toasts = sessions.toasts[id(device.app)]
    await click_id(device.page, ident, timeout=10000, settle=0.1)
    await settle(table)
    if table.store.load(table.game_id).version != before_version or sessions.toasts[id(device.app)] != toasts:
        return None
    if await screen_text(device.page) != before:
        return None
    where = [
        (round(n["x"]), round(n["y"]), round(n["w"]), round(n["h"])) for n in await device.nodes() if n["id"] == ident
    ]
    return f"a tap on {ident!r} on {device.label} (its node at {where}) was silently ignored"


async def play(
    table: Table,
    rng: random.Random,
    taps: int,
    errors: ServerErrors,
    sessions: Sessions,
    prefer: Prefer | None = None,
) -> None:
    """`taps` random taps (fewer when the game is won), every check after each; a failure names
    the mode, seed and tap."""
    await settle(table)
    found = await problems(table, errors)
    for number in range(taps + 1):
        if found:
            for device in table.devices:
                await shot(device.page, f"table-{table.mode.name}-{device.label}-FAILED", settle=1, painted=False)
            raise AssertionError(
                f"{table.mode.name}, seed {table.seed}, after tap {number}:\n  "
                + "\n  ".join(found)
                + "\n taps: "
                + " | ".join(table.log)
                + f"\n replay: {replay_hint(table.mode, table.seed)}"
            )
        if number == taps:
            return
        chosen = await choose_tap(table, rng, prefer or [])
        if chosen is None:
            return  # the game is won
        device, ident = chosen
        table.log.append(f"{device.label}: {ident}")
        ignored = await tap(table, device, ident, sessions)
        found = ([ignored] if ignored else []) + await problems(table, errors)
