"""The join link and the devices at each table, shared by every session of the server.

A phone presents the game's secret (from the QR code) to see the seats, and the secret again
to take one; it then gets a device token, kept in its browser, that brings it back to its
seat later (the link is no longer needed: rotating the link stops new joins, not the phones
already seated). Everything presented is checked for its shape, then compared in constant
time; every wrong value counts against the client's address (`RateLimiter`).

Presence (which devices have a screen open right now) is kept here in memory: it is about
connections, which end with the process anyway. With several instances on one database, the
devices shown on another instance are heard of through its news (`heard`); an instance that
stops without saying goodbye leaves its phones shown online until they come back elsewhere.
The lockouts (`RateLimiter`) stay per instance: each counts the wrong values it was shown, so
behind N instances an address gets at most N times the attempts of one.

The join page itself (before the web client loads) shows the seats to a valid link too
(`preview`, ui/phone/early_join.py). A wrong secret it was shown counts once: the client's own
check of the same link from the same address, which follows within seconds, is not counted again.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from urllib.parse import urlencode

from storage import Device, Devices, GameNotFound, LinkRefused, SeatTaken, Store

from ..door.tokens import GAME_ID, SECRET, TOKEN, RateLimiter, new_token, token_hash, valid

log = logging.getLogger(__name__)

PAGE_COUNTED_SECONDS = 60.0  # how long the page's count of a wrong link stands for the client's check
PAGE_COUNTED_MOST = 1024  # wrong links remembered that way (the oldest go first)

__all__ = ["Gate", "JoinService", "LinkRefused", "SeatChoice", "SeatTaken", "device_label"]


@dataclass(frozen=True)
class Gate:
    """The answer to a presented secret: open, or shut (and for how long, when locked out)."""

    ok: bool
    wait: float = 0.0


@dataclass(frozen=True)
class SeatChoice:
    seat: int
    name: str
    color: str | None
    taken: bool


class JoinService:
    def __init__(self, store: Store, limiter: RateLimiter | None = None) -> None:
        self.store = store
        self.limiter = limiter or RateLimiter()
        self._page_counted: OrderedDict[tuple[str, str], float] = OrderedDict()  # (client, link) -> when
        self._online: dict[str, set[str]] = {}  # device id -> ids of the sessions showing it
        self._elsewhere: dict[str, set[str]] = {}  # device id -> the other instances showing it
        self._lock = threading.Lock()

    @property
    def devices(self) -> Devices:
        return self.store.devices

    # --- the link ----------------------------------------------------------------------------

    def secret(self, game_id: str) -> str:
        """The game's current join secret (made the first time a link is asked for)."""
        return self.devices.secret(game_id)

    def join_url(self, game_id: str, base: str, secret: str | None = None) -> str:
        """The address in the QR code: this server, the game, its secret (read if not given)."""
        key = self.secret(game_id) if secret is None else secret
        return f"{base.rstrip('/')}/join/{game_id}?{urlencode({'key': key})}"

    def rotate(self, game_id: str) -> str:
        return self.devices.rotate(game_id)

    def check_link(self, game_id: object, secret: object, client: str, *, page: bool = False) -> Gate:
        """May this client see the seats? Wrong or malformed secrets count against it, once per
        page load: `page` is the join page's own check, which the client's check then follows."""
        wait = self.limiter.wait(client)
        if wait > 0:
            return Gate(False, wait)
        if valid(GAME_ID, game_id) and valid(SECRET, secret) and self.devices.secret_matches(str(game_id), str(secret)):
            return Gate(True)
        if self._counted_by_page(client, f"{game_id}:{secret}", remember=page):
            return Gate(False, self.limiter.wait(client))
        return Gate(False, self.limiter.failed(client))

    def _counted_by_page(self, client: str, link: str, *, remember: bool) -> bool:
        """Whether the page already counted this wrong link from this client (and forget it: it
        stands for one check); `remember`: the page counts it now."""
        key, now = (client, token_hash(link)), time.monotonic()
        with self._lock:
            if remember:
                self._page_counted[key] = now
                while len(self._page_counted) > PAGE_COUNTED_MOST:
                    self._page_counted.popitem(last=False)
                return False
            counted = self._page_counted.pop(key, None)
            return counted is not None and now - counted < PAGE_COUNTED_SECONDS

    def preview(self, game_id: str, secret: str, client: str) -> list[SeatChoice] | None:
        """The seats the join page shows before the client loads: only to a valid link."""
        if not self.check_link(game_id, secret, client, page=True).ok:
            return None
        try:
            return self.seats(game_id)
        except GameNotFound:
            return None

    def seats(self, game_id: str) -> list[SeatChoice]:
        """The seats of the game, and which are held (shown only to a valid link)."""
        table = self.store.load(game_id)
        taken = {d.seat for d in self.devices.devices(game_id) if d.seat is not None}
        return [SeatChoice(p.seat, p.name, p.color, p.seat in taken) for p in table.game.state.players]

    def join(self, game_id: str, secret: str, client: str, seat: int | None, user_agent: str) -> tuple[Device, str]:
        """Bind a new device to `seat` (None: watch); returns it with the token for its browser.

        LinkRefused (the link was rotated meanwhile, or never valid) and SeatTaken pass through.
        """
        if self.limiter.wait(client) > 0 or not valid(GAME_ID, game_id) or not valid(SECRET, secret):
            raise LinkRefused(str(game_id))
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise LinkRefused(game_id)
        token = new_token()
        try:
            device = self.devices.bind(
                game_id, secret=secret, token_hash=token_hash(token), seat=seat, label=device_label(user_agent)
            )
        except LinkRefused:
            self.limiter.failed(client)
            raise
        except ValueError:  # a seat the game does not have
            raise LinkRefused(game_id) from None
        return device, token

    def resume(self, game_id: object, token: object, client: str) -> Device | None:
        """The device a browser's stored token names, if it still holds a place at this game."""
        if not valid(TOKEN, token) or not valid(GAME_ID, game_id) or self.limiter.wait(client) > 0:
            if token is not None:
                self.limiter.failed(client)
            return None
        device = self.devices.find(token_hash(str(token)))
        if device is None or device.game_id != game_id:
            self.limiter.failed(client)
            return None
        return device

    def still_bound(self, device: Device) -> bool:
        """Whether the device still holds the place it had (the host may have freed it)."""
        now = self.devices.get(device.id)
        return now is not None and now.seat == device.seat and now.game_id == device.game_id

    def free_seat(self, game_id: str, seat: int) -> list[str]:
        return self.devices.free_seat(game_id, seat)

    def listing(self, game_id: str) -> list[Device]:
        try:
            return self.devices.devices(game_id)
        except GameNotFound:
            return []

    # --- presence ------------------------------------------------------------------------------

    def arrive(self, device_id: str, session_id: str) -> None:
        with self._lock:
            self._online.setdefault(device_id, set()).add(session_id)

    def leave(self, device_id: str, session_id: str) -> None:
        with self._lock:
            sessions = self._online.get(device_id)
            if sessions is not None:
                sessions.discard(session_id)
                if not sessions:
                    del self._online[device_id]

    def online(self, device_id: str) -> bool:
        with self._lock:
            return bool(self._online.get(device_id) or self._elsewhere.get(device_id))

    def heard(self, origin: str, kind: str, devices: list[str]) -> None:
        """Another instance said these devices came online there, or went offline there."""
        with self._lock:
            for device_id in devices:
                where = self._elsewhere.setdefault(device_id, set())
                if kind == "online":
                    where.add(origin)
                else:
                    where.discard(origin)
                if not where:
                    del self._elsewhere[device_id]


_PLATFORMS = (
    ("iPad", "iPad"),
    ("iPhone", "iPhone"),
    ("Android", "Android"),
    ("Windows", "Windows"),
    ("Macintosh", "Mac"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)
_BROWSERS = (
    ("Edg/", "Edge"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)


def device_label(user_agent: str) -> str:
    """A short name for a device, from its user agent (an untrusted header: only known words are kept)."""
    agent = user_agent if isinstance(user_agent, str) else ""
    platform = next((name for marker, name in _PLATFORMS if marker in agent), "")
    browser = next((name for marker, name in _BROWSERS if marker in agent), "")
    if "Headless" in agent:
        browser = f"{browser} (headless)" if browser else "headless"
    label = " · ".join(part for part in (platform, browser) if part)
    return re.sub(r"\s+", " ", label)[:60] or "?"
