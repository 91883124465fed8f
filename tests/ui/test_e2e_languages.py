"""End to end in Italian and in Persian: one walk per language through every screen.

Italian is chosen in Settings on a browser set to English (the Persian font fetched only once
the language chooser writes Persian), and stays chosen on that device (a new tab opens in
Italian) while another device at the same table keeps English. Persian comes from the browser's
own language. Each walk plays a round at a table with the Warden and
Michel & Michelle (a refused action and its flag, the composer, a Warden alert, a pending
decision, the neutrals' question), then visits the log, the rules, the history, the settings,
the final standings, home and setup; every text and accessible name on each screen is checked
for English left behind (words of the English catalogs that the language's own catalogs never
use, raw message keys, and in Persian any Latin word but a player's name or a rule id).

In Persian the table must also be mirrored (the back button on the right, the Tunnel bars
filling from the right) and drawn with real Persian glyphs: the same text with the bundled font
blocked (the boxes a missing font leaves) must look different. Two phones joined to one table
each keep their own language (a phone's settings offer only the language). Screenshots:
test-artifacts/lang-*.png.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

from playwright.async_api import async_playwright

from companion.app.vm.text import Tr
from companion.i18n import DEFAULT_LANGUAGE, catalog
from companion.rules.rulebook import rule_sections

from .test_e2e_gallery import finished_games
from drivers.browser import (
    LAPTOP,
    PHONE,
    AppServer,
    click_id,
    drive,
    enable_semantics,
    evaluate,
    ident,
    launch_browser,
    open_page,
    pictured_on_failure,
    shot,
    wait_text,
)

NAMES = ("Carmen", "Nicholas")
GAME = {
    "players": [
        {"name": "Carmen", "color": "red", "hand": ["spoon", "knife", "unknown"], "tunnel": 4},
        {"name": "Nicholas", "color": "black", "hand": ["spoon", "unknown"]},
    ],
    "modules": {"warden": True, "neutrals": 2},
    "seed": 11,
}  # the Warden starts in the Cell Block
# What a person sees or hears: the texts and accessible names, not the test identifiers.
VISIBLE_TEXT_JS = """() => {
  const host = document.querySelector('flt-semantics-host');
  if (!host) return '';
  const labels = Array.from(host.querySelectorAll('[aria-label]')).map(e => e.getAttribute('aria-label'));
  const inputs = Array.from(host.querySelectorAll('input')).map(e => e.value);
  return [host.innerText, ...labels, ...inputs].join('\\n');
}"""
# Whether the page fetched the bundled Persian font (the client fetches a font once it is registered).
PERSIAN_FONT_FETCHED = "() => performance.getEntriesByType('resource').some(e => e.name.includes('Vazirmatn'))"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
WORD = re.compile(r"[A-Za-z][A-Za-z']+")
RULE_IDS = sorted({rule for _, rules in rule_sections() for rule in rules}, key=len, reverse=True)
RULE_ID = re.compile(r"\b(?:" + "|".join(map(re.escape, RULE_IDS)) + r")\b")  # CRAFT-1, GA, ACTC...


def _words(texts: Any) -> set[str]:
    return {w.casefold() for t in texts for w in WORD.findall(PLACEHOLDER.sub(" ", t))}


def english_left(shown: str, lang: str) -> list[str]:
    """The lines of `shown` with English in them: a word only the English catalogs use, a raw
    message key, or (Persian) any Latin word that is not a player's name or a rule id."""
    own = catalog(lang)
    english_only = _words(catalog(DEFAULT_LANGUAGE).values()) - _words(own.values())
    key_spaces = "|".join(sorted({k.split(".")[0] for k in catalog(DEFAULT_LANGUAGE)}))
    raw_key = re.compile(rf"\b(?:{key_spaces})\.[a-z_]+")
    names = {n.casefold() for n in NAMES}
    language_names = {own[key] for key in own if key.startswith("ui.language_")}  # each in its own language
    found = []
    for line in shown.splitlines():
        plain = RULE_ID.sub(" ", line)
        for language in language_names:
            plain = plain.replace(language, " ")
        words = {w.casefold() for w in WORD.findall(plain)}
        foreign = words & english_only
        if lang == "fa":  # Persian has no Latin words of its own
            foreign |= {w for w in words if not any(n.startswith(w) for n in names)}
        if foreign - names or raw_key.search(line):
            found.append(line.strip())
    return found


def test_the_english_detector_sees_english() -> None:
    """The check the walks rely on: English lines are caught, names, ids and translations pass."""
    en, it, fa = Tr("en"), Tr("it"), Tr("fa")
    english = [en("ui.headline_turn", player="Carmen", count=2), en("ui.settings"), "ui.setting_theme", "OK"]
    for lang, tr in (("it", it), ("fa", fa)):
        own = [
            tr("ui.headline_turn", player="Carmen", count=2),
            tr.rule("CRAFT-1"),
            "WARD-2",
            "Nicholas",
            tr("ui.language_system", language="English"),
        ]
        assert english_left("\n".join(own), lang) == []
        assert english_left("\n".join(english), lang) == english[:3] + (["OK"] if lang == "fa" else [])


async def visible_text(page: Any) -> str:
    return await evaluate(page, VISIBLE_TEXT_JS)


class Walk:
    """One device's walk: every screen's text is kept, to be checked for English at the end."""

    def __init__(self, page: Any, lang: str, base: str) -> None:
        self.page, self.lang, self.base, self.tr = page, lang, base, Tr(lang)
        self.seen: dict[str, str] = {}

    async def note(self, name: str, picture: bool = False) -> None:
        await asyncio.sleep(0.3)  # let the last frame's semantics settle
        self.seen[name] = await visible_text(self.page)
        if picture:
            await shot(self.page, f"lang-{self.lang}-{name}")

    async def visit(self, route: str, ready: str, name: str) -> None:
        await self.page.goto(self.base + route)
        await enable_semantics(self.page)
        await wait_text(self.page, ready, 30000)
        await self.note(name, picture=True)

    def english(self) -> dict[str, list[str]]:
        out = {name: english_left(text, self.lang) for name, text in self.seen.items()}
        return {name: lines for name, lines in out.items() if lines}


async def play_a_round(walk: Walk, game_id: str) -> None:
    """Carmen is flagged, composes, offends under the Warden's eyes and extorts Nicholas, who
    cooperates; each turn ends with the neutrals' question, in the same tap; back to Carmen."""
    page, tr = walk.page, walk.tr
    await walk.visit(f"/game/{game_id}", tr("ui.headline_turn", player="Carmen", count=2), "table")
    await click_id(page, "menu-refused")  # what is not possible now is folded away
    await click_id(page, "action-craft")  # no Craft in the Cell Block: the referee's flag
    await ident(page, "flag-rule-CRAFT-1").wait_for(state="attached", timeout=10000)
    await wait_text(page, tr.rule("CRAFT-1"))
    await walk.note("flag", picture=True)
    await click_id(page, "flag-ok")
    await click_id(page, "action-extort")
    await wait_text(page, tr("ui.ask.tool"))
    await walk.note("composer", picture=True)
    await click_id(page, "compose-cancel")
    await click_id(page, "action-dig")  # legal, but under the Warden's eyes (WARD-2): asked once first
    await wait_text(page, tr("ui.warden_here", rule="WARD-2"))
    await walk.note("warden-warning", picture=True)
    await click_id(page, "confirm-yes")
    await ident(page, "offence-alert").wait_for(state="attached", timeout=10000)
    await walk.note("warden-alert", picture=True)
    await click_id(page, "action-extort")
    await click_id(page, "choice-tool-spoon")
    await click_id(page, "done-weapons")
    await click_id(page, "confirm-yes")  # an extortion under the Warden's eyes is an offence too
    await wait_text(page, tr("ui.pending.extortion_answer", attacker="Carmen", player="Nicholas", tool="spoon"))
    await walk.note("pending", picture=True)
    await click_id(page, "answer-cooperate")
    await wait_text(page, tr("event.cooperate", player="Nicholas", tool="spoon", receiver="Carmen"))
    await walk.note("after-answer")
    for player, other in (("Carmen", "Nicholas"), ("Nicholas", "Carmen")):
        await wait_text(page, tr("ui.end_turn_and_move"))  # End the turn offers the neutrals' move
        await walk.note(f"neutrals-{player}")
        await click_id(page, "end-skip_neutral")  # one tap: the turn ends, they stay
        await wait_text(page, tr("ui.headline_turn", player=other, count=2))
    await walk.note("next-round", picture=True)


async def other_screens(walk: Walk, game_id: str, finished_id: str) -> None:
    tr = walk.tr
    await walk.visit(
        f"/game/{game_id}/log", tr("event.cooperate", player="Nicholas", tool="spoon", receiver="Carmen"), "log"
    )
    await walk.visit("/rules?rule=WARD-3", tr.rule("WARD-3"), "rules")
    await walk.visit("/history", tr("ui.chart_tunnel"), "history")
    await walk.visit("/settings", tr("ui.setting_language_hint"), "settings")
    await walk.visit(f"/game/{finished_id}/win", tr("ui.win_title"), "win")
    await walk.visit("/", tr("ui.resume_title"), "home")
    await walk.visit("/setup", tr("ui.start_game"), "setup")


def _games(store: Any) -> tuple[str, str]:
    finished_games(store)
    finished = store.list_games("finished")[0].id
    return store.create_game(GAME), finished


def test_italian_chosen_in_settings_on_one_device(server, store) -> None:
    game_id, finished_id = _games(store)
    it, en = Tr("it"), Tr("en")

    async def run() -> Walk:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url + "/", PHONE, locale="en-US")
            walk = Walk(page, "it", server.url)
            async with pictured_on_failure(page, "lang-it"):
                await wait_text(page, en("ui.resume_title"), 30000)  # an English browser: English
                assert not await evaluate(page, PERSIAN_FONT_FETCHED), "an English screen fetched the Persian font"
                await click_id(page, "home-settings")
                await page.wait_for_function(PERSIAN_FONT_FETCHED, timeout=15000)  # the chooser writes فارسی in it
                await click_id(page, "language-it")
                await wait_text(page, it("ui.setting_language_hint"))
                # Remembered on this device: a new tab (a new session) opens in Italian...
                tab = await open_page(browser, server.url + "/", PHONE, locale="en-US", context=page.context)
                await wait_text(tab, it("ui.resume_title"), 30000)
                await tab.close()
                # ...while another device at the same table keeps its own language.
                other = await open_page(browser, f"{server.url}/game/{game_id}", PHONE, locale="en-US")
                await wait_text(other, en("ui.headline_turn", player="Carmen", count=2), 30000)
                await other.context.close()
                await play_a_round(walk, game_id)
                await other_screens(walk, game_id, finished_id)
            await browser.close()
            return walk

    walk = drive(run())
    assert not walk.english(), f"English left on the Italian screens: {walk.english()}"
    state = store.load(game_id).game.state
    assert state.active == 0 and state.turn == 3 and state.players[0].hand.known.get("spoon") == 1


def test_persian_from_the_browser_right_to_left_with_persian_glyphs(server, store) -> None:
    game_id, finished_id = _games(store)
    fa = Tr("fa")
    headline = fa("ui.headline_turn", player="Carmen", count=2)

    async def run() -> tuple[Walk, bytes, bytes, dict, bytes]:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, f"{server.url}/game/{game_id}", LAPTOP, locale="fa-IR")
            walk = Walk(page, "fa", server.url)
            async with pictured_on_failure(page, "lang-fa"):
                await wait_text(page, headline, 30000)
                await shot(page, "lang-fa-table-laptop")
                back = await ident(page, "nav-back").bounding_box()
                bar = await page.screenshot(clip=await ident(page, "player-0").bounding_box())
                status = await page.screenshot(clip=await ident(page, "status").bounding_box())
                boxes = await without_the_font(browser, f"{server.url}/game/{game_id}", headline)
                phone = await open_page(browser, f"{server.url}/game/{game_id}", PHONE, locale="fa-IR")
                await wait_text(phone, headline, 30000)
                await shot(phone, "lang-fa-table-phone")
                await phone.context.close()
                await play_a_round(walk, game_id)
                await other_screens(walk, game_id, finished_id)
            await browser.close()
            return walk, status, boxes, back, bar

    walk, status, boxes, back, bar = drive(run())
    assert back["x"] > LAPTOP["width"] / 2, f"the back button is not on the right: {back}"
    assert filled_from_the_right(bar), "Carmen's Tunnel bar (4 of 12) does not fill from the right"
    assert differs(status, boxes), "Persian text looks the same as with the font missing (boxes)"
    assert not walk.english(), f"English left on the Persian screens: {walk.english()}"


async def without_the_font(browser: Any, url: str, ready: str) -> bytes:
    """The table's status card, drawn on a device that cannot load the bundled Persian font."""
    context = await browser.new_context(viewport=LAPTOP, locale="fa-IR")
    await context.route(re.compile(r".*/fonts/Vazirmatn.*"), lambda route: route.abort())
    page = await context.new_page()
    await page.goto(url)
    await enable_semantics(page)
    await wait_text(page, ready, 30000)
    await shot(page, "lang-fa-table-without-font")
    picture = await page.screenshot(clip=await ident(page, "status").bounding_box())
    await context.close()
    return picture


def _grey(png: bytes) -> Any:
    from PIL import Image

    return Image.open(io.BytesIO(png)).convert("L")


def filled_from_the_right(card: bytes) -> bool:
    """Carmen's card with her Tunnel bar a third full: the bar's filled part (the longest dark
    run of a row, shorter than the card's own borders) sits in the card's right half."""
    image = _grey(card)
    width, height = image.size
    best = (0, 0)  # (length, centre)
    for y in range(height):
        row = [image.getpixel((x, y)) < 128 for x in range(width)]
        start = None
        for x, dark in enumerate(row + [False]):
            if dark and start is None:
                start = x
            elif not dark and start is not None:
                if 0.15 * width < x - start < 0.6 * width and x - start > best[0]:
                    best = (x - start, (start + x) / 2)
                start = None
    assert best[0], "no Tunnel bar found on Carmen's card"
    return best[1] > width / 2


def differs(a: bytes, b: bytes) -> bool:
    """More than 3% of the pixels of two same-size pictures differ clearly."""
    first, second = _grey(a), _grey(b)
    if first.size != second.size:
        return True
    pairs = zip(first.tobytes(), second.tobytes(), strict=True)  # one byte a pixel (grey)
    changed = sum(1 for x, y in pairs if abs(x - y) > 48)
    return changed > 0.03 * first.size[0] * first.size[1]


def test_a_joined_phone_reads_the_table_in_its_own_language(store, settings_path) -> None:
    """Two phones at one table: one follows its Italian browser from the seat picker on, the
    other (an English browser) picks Persian in its settings, which offer a phone nothing but the
    language, and its seat turns Persian."""
    from companion.app.services.joining import JoinService

    game_id = store.create_game(GAME)
    en, it, fa = Tr("en"), Tr("it"), Tr("fa")

    async def run() -> list[Walk]:
        with AppServer(store, settings_path, lan=True) as server:
            link = JoinService(store).join_url(game_id, server.url)
            async with async_playwright() as p:
                browser = await launch_browser(p)
                carmen = await open_page(browser, link, PHONE, locale="it-IT")
                nicholas = await open_page(browser, link, PHONE, locale="en-US")
                italian, persian = Walk(carmen, "it", server.url), Walk(nicholas, "fa", server.url)
                async with pictured_on_failure(nicholas, "lang-fa-phone"):
                    await wait_text(carmen, it("join.pick_title"), 30000)
                    await italian.note("phone-picker", picture=True)
                    await click_id(carmen, "join-seat-0")
                    await click_id(nicholas, "join-seat-1", timeout=30000)
                    await wait_text(nicholas, en("join.seat_title", player="Nicholas", round=1), 30000)
                    await click_id(nicholas, "nav-settings")  # the phone's own settings: its language
                    await wait_text(nicholas, en("ui.setting_language_hint"), 30000)
                    assert not await ident(nicholas, "theme-dark").count()  # the table's settings stay the host's
                    await click_id(nicholas, "language-fa")
                    await wait_text(nicholas, fa("ui.setting_language_hint"))
                    await persian.note("phone-settings", picture=True)
                    await click_id(nicholas, "nav-back")
                    await wait_text(nicholas, fa("join.seat_title", player="Nicholas", round=1))
                    await persian.note("phone-seat", picture=True)
                    await wait_text(carmen, it("join.seat_title", player="Carmen", round=1))
                    await italian.note("phone-seat", picture=True)
                await browser.close()
                return [italian, persian]

    for walk in drive(run()):
        assert not walk.english(), f"English left on the {walk.lang} phone: {walk.english()}"
