"""Who may use the host's screens: the home page, setup, the referee console, the table view.

Served on this machine only (the default), every browser is the host's: nobody else can
reach the app. Served on the network (`--lan`, `--host`), the host is a browser on this
machine (a loopback address) or one that presented the host key once (`/?host=KEY`, printed
at start; the browser keeps it). Every other browser reaches only the join page and its own
seat: any other address shows a neutral page that names no game and no player.

The address is the connection's own (peer.py), never a page property the client may patch. A
client reached through a trusted reverse proxy (`--forwarded-allow-ips`) is never this machine,
whatever it forwards: there only the host key gives host rights.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Protocol
from urllib.parse import parse_qsl, urlencode, urlsplit

import flet as ft

from ..host.net import LOOPBACK, Network, within
from . import crowd
from .device_storage import DeviceStorage, storage_of
from .limits import DoorLimits
from .peer import Peer, peer_of
from .tokens import SECRET, RateLimiter, new_secret, same_secret, valid

log = logging.getLogger(__name__)
HOST_PREF = "dyo.host"
# Routes a browser without host rights may open: joining, its own seat, the rule book.
DEVICE_ROUTES = frozenset({"join", "play", "rules"})


class Access:
    """`lan`: served beyond this machine. `machine`: the addresses that are this machine (a
    test narrows them to play a network device on loopback). `proxies`: the reverse proxies
    whose forwarded addresses are believed (peer.py). `limits`: what one device may use of the
    server (limits.py)."""

    def __init__(
        self,
        *,
        lan: bool = False,
        machine: tuple[Network, ...] = LOOPBACK,
        proxies: tuple[Network, ...] = (),
        host_key: str | None = None,
        shared_key: Callable[[], str | None] | None = None,
        limits: DoorLimits | None = None,
    ) -> None:
        self.lan = lan or bool(proxies)
        self.limits = limits or DoorLimits()
        self.machine = machine
        self.proxies = proxies
        self._host_key = host_key
        self._shared_key = shared_key  # the key every instance on one database shares (None: this one's)
        self._key_lock = threading.Lock()

    @property
    def host_key(self) -> str:
        """This server's host key: the database's when several instances share it, else one of
        this process's own (a new one each start, so an old link stops working)."""
        with self._key_lock:
            if self._host_key is None:
                shared = self._shared_key() if self._shared_key is not None else None
                self._host_key = shared or new_secret()
            return self._host_key

    def host_by_address(self, peer: Peer) -> bool:
        if not self.lan:  # served to this machine only (the native app too): nobody else reaches it
            return True
        return not peer.via_proxy and within(peer.address, self.machine)

    def key_ok(self, key: object) -> bool:
        return valid(SECRET, key) and same_secret(self.host_key, str(key))

    def host_link(self, base: str, path: str = "/") -> str:
        """An address of the host's screens for a browser elsewhere (it keeps the key)."""
        return f"{base.rstrip('/')}{path}?{urlencode({'host': self.host_key})}"

    def is_host(self, peer: Peer, route: object) -> bool:
        """Whether a registration is the host's, by its address or the host key in its route (the
        door lets it in even when strangers' sessions are at their cap)."""
        if self.host_by_address(peer):
            return True
        try:
            query = urlsplit(route).query if isinstance(route, str) else ""
        except ValueError:  # not an address at all
            return False
        return self.key_ok(dict(parse_qsl(query)).get("host"))

    def request_allowed(self, peer: Peer, key: str | None) -> bool:
        """For the HTTP routes (a game's export): the same rule as for the screens."""
        return self.host_by_address(peer) or self.key_ok(key)


class _Joining(Protocol):
    @property
    def limiter(self) -> RateLimiter: ...  # the wrong secrets and keys each address presented


class _Shared(Protocol):
    @property
    def access(self) -> Access: ...

    @property
    def join(self) -> _Joining: ...


class Visitor(Protocol):
    """What the door needs of a browser tab's app (`App` in ui/shell.py): it decides `host` and
    gives the tab its browser's storage (`prefs`)."""

    host: bool
    prefs: DeviceStorage | None

    @property
    def page(self) -> ft.Page: ...

    @property
    def holds_key(self) -> bool: ...

    @property
    def services(self) -> _Shared: ...

    @property
    def route(self) -> str: ...

    def show(self, route: str) -> None: ...

    def run_later(self, coro_fn: Callable[..., Any], *args: Any) -> bool: ...


def admit(app: Visitor) -> None:
    """Decide, once per session, whether this browser is the host's; drop a host key from the route."""
    page = app.page
    crowd.watch(page.session, app)  # counted as a stranger's session until it holds a key
    access: Access = app.services.access
    peer = peer_of(page)
    address = peer.address
    app.prefs = DeviceStorage(ft.SharedPreferences, page.session.connection is not None)
    app.host = access.host_by_address(peer)
    parts = urlsplit(page.route or "/")
    query = dict(parse_qsl(parts.query))
    key = query.pop("host", None)
    if key is not None:
        page.route = parts.path + (f"?{urlencode(query)}" if query else "")
        if not app.host:
            limiter = app.services.join.limiter
            if limiter.wait(address) == 0 and access.key_ok(key):
                app.host = True
                app.run_later(_remember, app, key)
            else:
                limiter.failed(address)
                log.warning("a wrong host key from %s", address)
    if not app.host and head(page.route) not in DEVICE_ROUTES:
        app.run_later(_recall, app)


def head(route: str) -> str:
    parts = [p for p in urlsplit(route or "/").path.split("/") if p]
    return parts[0] if parts else ""


async def _remember(app: Visitor, key: str) -> None:
    try:
        await storage_of(app).set(HOST_PREF, key)
    except Exception:  # private browsing, full storage: the key works for this visit only
        log.info("cannot keep the host key in this browser")


async def _recall(app: Visitor) -> None:
    """A browser that once presented the host key gets the host's screens back."""
    try:
        key = await storage_of(app).get(HOST_PREF)
    except Exception:
        return
    if key is None or app.host:
        return
    address = peer_of(app.page).address
    limiter = app.services.join.limiter
    if limiter.wait(address) == 0 and app.services.access.key_ok(key):
        app.host = True
        app.show(app.route)
    else:
        limiter.failed(address)
        try:
            await storage_of(app).remove(HOST_PREF)  # a key from an earlier run of the server
        except Exception:
            pass
