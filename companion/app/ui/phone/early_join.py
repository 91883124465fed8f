"""The join screen the page itself draws, before the web client has loaded.

A phone opening the QR code's link waits for Flet's client (a few megabytes, then compiled)
before the client can draw anything. So the page that loads it already carries the seats, in
plain HTML, to a valid link only (the secret is checked as the client checks it, and a wrong one
counts once: services/joining.py's `preview`): the player sees at once that the link works and
taps their name. The tap is kept in the browser's storage (`PICK_PREF`, beside the device
token); the client's join screen reads it when it has loaded and takes that seat
(screens.py's `JoinScreen`), as if tapped there. The client's first frame takes this screen's
place. A browser already holding a seat at this game is told it is being taken back.

No Flet here: this answers an HTTP request (entry/web.py gives it to the page's layer,
host/client_http.py).
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING
from urllib.parse import parse_qs

from ...door.peer import peer_of_scope
from ...door.tokens import GAME_ID, SECRET, valid
from ...vm.table import standee_color
from ...vm.text import Tr, available_languages
from ..locale import PREF_KEY as LANGUAGE_PREF
from .device import TOKEN_PREF

if TYPE_CHECKING:
    from ...host.manifest import Scope
    from ...services.joining import SeatChoice
    from ...services.shared import Services

# Read back by the client's join screen; the page's script prefixes it as Flutter's storage does.
PICK_PREF = "dyo.pick.{game}"
WATCH = "watch"
# The page's texts, in every language (its script picks the phone's, as the client would).
TEXT_KEYS = ("pick_title", "pick_hint", "free", "taken", "watch", "watch_hint", "taking_watch", "connecting")
# The standees' colours as the client paints them (widgets/common.py's STANDEE, in Material's
# hex values): (fill, text).
STANDEE_HEX = {
    "red": ("#E53935", "#FFFFFF"),
    "black": ("#212121", "#FFFFFF"),
    "yellow": ("#FFCA28", "#000000"),
    "blue": ("#1E88E5", "#FFFFFF"),
    "green": ("#388E3C", "#FFFFFF"),
    "orange": ("#F57C00", "#FFFFFF"),
    "purple": ("#AB47BC", "#FFFFFF"),
    "white": ("#FFFFFF", "#000000"),
}


async def early_join(services: Services, scope: Scope) -> bytes:
    """The screen for a page request: the seats for `/join/<game>?key=<valid secret>`, else b""."""
    parts = str(scope.get("path", "")).strip("/").split("/")
    if len(parts) != 2 or parts[0] != "join" or not valid(GAME_ID, parts[1]):
        return b""
    query = parse_qs(bytes(scope.get("query_string", b"")).decode("latin-1"))
    key = (query.get("key") or [""])[0]
    if not valid(SECRET, key):
        return b""  # the client refuses it (and counts it) as before
    game_id, client = parts[1], peer_of_scope(scope).address
    seats = await services.tables.read(game_id, services.join.preview, game_id, key, client)
    return b"" if seats is None else screen(game_id, seats).encode()


def texts(seats: list[SeatChoice]) -> dict[str, dict[str, object]]:
    """Every language's texts of the page, its direction, and each seat's label and the line
    shown once it is tapped (made as the client makes them: names in right-to-left text too)."""
    found: dict[str, dict[str, object]] = {}
    for lang in available_languages():
        tr = Tr(lang)
        said = {
            str(choice.seat): {
                "label": tr("join.seat_taken" if choice.taken else "join.seat_free", player=choice.name),
                "taking": tr("join.taking_seat", player=choice.name),
            }
            for choice in seats
        }
        found[lang] = {key: tr(f"join.{key}") for key in TEXT_KEYS} | {"rtl": tr.rtl, "seats": said}
    return found


def screen(game_id: str, seats: list[SeatChoice]) -> str:
    """The seats as buttons; the script (SCRIPT) writes the texts in the phone's language."""
    rows = "\n".join(_seat(choice) for choice in seats)
    data = json.dumps(texts(seats), ensure_ascii=False).replace("<", "\\u003c")
    return (
        f'<div id="dyo-early" data-game="{game_id}">\n{STYLE}'
        '<h1 data-t="pick_title"></h1><p data-t="pick_hint"></p>\n'
        f'<div class="seats">\n{rows}\n'
        f'<button type="button" class="watch" data-seat="{WATCH}" data-t="watch"></button>'
        '<p data-t="watch_hint"></p></div>\n'
        '<p class="status" role="status" hidden></p>\n'
        f'<script type="application/json" id="dyo-early-texts">{data}</script>\n{SCRIPT}</div>\n'
    )


def _seat(choice: SeatChoice) -> str:
    fill, ink = STANDEE_HEX[standee_color(choice.color, choice.seat)]
    name = html.escape(choice.name, quote=True)
    state = "taken" if choice.taken else "free"
    disabled = " disabled" if choice.taken else ""
    return (
        f'<button type="button" data-seat="{choice.seat}" data-name="{name}" data-state="{state}"{disabled}>'
        f'<span class="disc" style="background:{fill};color:{ink}">{html.escape(choice.name[:1].upper())}</span>'
        f'<span class="who"><b>{name}</b><small data-t="{state}"></small></span></button>'
    )


STYLE = """<style>
#dyo-early { position: fixed; inset: 0; z-index: 2; overflow-y: auto; box-sizing: border-box;
  padding: 24px 16px; background: #fff8f6; color: #231917;
  font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
#dyo-early h1 { font-size: 22px; margin: 8px 0 4px; }
#dyo-early p { margin: 0 0 12px; color: #53433f; font-size: 14px; }
#dyo-early .seats { display: flex; flex-direction: column; gap: 10px; max-width: 560px; }
#dyo-early button { display: flex; align-items: center; gap: 12px; min-height: 64px; padding: 12px;
  border: 0; border-radius: 10px; background: #ffdbd0; color: inherit; font: inherit; text-align: start; }
#dyo-early button:disabled { background: #f1dfda; opacity: 0.7; }
#dyo-early button.watch { justify-content: center; min-height: 48px; margin-top: 6px;
  background: transparent; border: 1px solid #85736e; border-radius: 24px; }
#dyo-early .disc { flex: none; width: 40px; height: 40px; border-radius: 50%; display: flex;
  align-items: center; justify-content: center; font-weight: 700; box-shadow: 0 0 0 1px #85736e; }
#dyo-early .who { display: flex; flex-direction: column; }
#dyo-early .who b { font-size: 18px; font-weight: 600; }
#dyo-early .who small { font-size: 13px; color: #53433f; }
#dyo-early .status { font-size: 18px; color: inherit; margin-top: 16px; }
#dyo-early.chosen .seats, #dyo-early.back .seats, #dyo-early.back h1,
#dyo-early.back > p:not(.status) { display: none; }
@media (prefers-color-scheme: dark) {
  #dyo-early { background: #1a1110; color: #f1dfda; }
  #dyo-early p, #dyo-early .who small { color: #d8c2bc; }
  #dyo-early button { background: #723521; }
  #dyo-early button:disabled { background: #322825; }
}
</style>
"""

# The phone's language as the client picks it (its choice kept in storage, else the browser's),
# the texts written, a tap kept for the client, and this screen gone at the client's first frame.
# The storage keys are the client's own, written in below (the language, the device token, the pick).
SCRIPT = (
    """<script>
(() => {
  const root = document.getElementById("dyo-early");
  const game = root.dataset.game;
  const all = JSON.parse(document.getElementById("dyo-early-texts").textContent);
  const stored = (key) => {
    try { const value = localStorage.getItem("flutter." + key); return value === null ? null : JSON.parse(value); }
    catch (error) { return null; }
  };
  const pickKey = "flutter." + "PICK_PREF".replace("{game}", game);
  try { localStorage.removeItem(pickKey); } catch (error) {}
  const tags = [stored("LANGUAGE_PREF"), ...(navigator.languages || [navigator.language])];
  const lang = tags.map((tag) => String(tag || "").replace("_", "-").split("-")[0].toLowerCase())
    .find((primary) => primary in all) || "en";
  const t = all[lang];
  root.lang = lang;
  root.dir = t.rtl ? "rtl" : "ltr";
  root.querySelectorAll("[data-t]").forEach((node) => { node.textContent = t[node.dataset.t]; });
  root.querySelectorAll("button[data-name]").forEach((button) => {
    button.setAttribute("aria-label", t.seats[button.dataset.seat].label);
  });
  const status = root.querySelector(".status");
  const say = (text) => { status.hidden = false; status.textContent = text; };
  if (stored("TOKEN_PREF".replace("{game}", game)) !== null) { root.classList.add("back"); say(t.connecting); }
  root.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-seat]");
    if (!button || button.disabled || root.classList.contains("chosen")) return;
    try { localStorage.setItem(pickKey, JSON.stringify(button.dataset.seat)); } catch (error) { return; }
    root.classList.add("chosen");
    say(button.dataset.seat === "WATCH" ? t.taking_watch : t.seats[button.dataset.seat].taking);
  });
  addEventListener("flutter-first-frame", () => root.remove(), { once: true });
})();
</script>
""".replace("PICK_PREF", PICK_PREF)
    .replace("TOKEN_PREF", TOKEN_PREF)
    .replace("LANGUAGE_PREF", LANGUAGE_PREF)
    .replace('"WATCH"', f'"{WATCH}"')
)
