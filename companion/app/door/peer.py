"""Who is at the other end of a connection: read off the connection, never off the client's word.

Flet copies the socket's address into `page.client_ip`, but a client may patch any page property
(a bare websocket client can set `client_ip` to loopback right after registering), so nothing
the server decides reads the page. Instead `PeerGate`, the outermost ASGI layer, resolves the
peer of every request and websocket from its ASGI scope as it arrives, believing
`X-Forwarded-For` only from a listed reverse proxy; Flet's `before_main` hook, which runs while
the session registers and before any later message of the client is read, binds the session to
that peer (`bind_session`), and the access decisions ask `peer_of(page)`.

The gate also strips the properties the server owns from what clients patch, hands Flet only
websockets whose first frame registers a session (Flet waits forever on one that closes, stays
silent or says anything else first: a stranger could pile them up), and answers 404 for the
framework's API explorer and schema, which nobody at the table needs.

And it keeps the door's limits (limits.py): a registration that would open one session too many
without a key (for its address or in all) is refused, every later message is paid for from the
connection's budgets (budget.py) and dropped, or the connection closed, when they run out;
a message over `frame_bytes` closes its connection.
"""

from __future__ import annotations

import asyncio
import contextvars
import ipaddress
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

import flet as ft
import msgpack
from flet.messaging.protocol import MessageAction

from ..host import flet_guard, wire_shapes
from ..host.net import Network, within
from . import crowd
from .budget import Budget, Meter, Verdict
from .limits import DoorLimits

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]

HIDDEN_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"})
# The field of each client message that patches properties: the page's, a control's.
_PATCHES = {MessageAction.REGISTER_CLIENT.value: "page", MessageAction.UPDATE_CONTROL_PROPS.value: "props"}
_SERVER_OWNED = frozenset({"client_ip", "client_user_agent"})
_REGISTER_FIELDS = frozenset({"session_id", "page_name", "page"})
# The private fields Flet's own browser client patches in normal play: a SnackBar or a Banner that
# closed says so. Dropped like every private field, but quietly (any other is a client trying).
_CLIENT_NOTES = frozenset({"_dismissed"})
REGISTER_SECONDS = 30.0  # a socket that has not registered by then is closed
POLICY_VIOLATION = 1008
TOO_BIG = 1009
TRY_AGAIN_LATER = 1013


@dataclass(frozen=True)
class Peer:
    """The client of one connection: its address (the forwarded one behind a trusted proxy)."""

    address: str
    via_proxy: bool = False
    user_agent: str = ""


# A session nobody bound (a page made outside the web server): an address that is nobody's.
UNKNOWN = Peer("", via_proxy=True)


def resolve(scope: Scope, proxies: tuple[Network, ...]) -> Peer:
    """The peer of a request: the socket's address, or behind a listed proxy the nearest
    forwarded address that is not itself a listed proxy (entries further left are the client's
    own word). A proxy that forwards nothing usable leaves its own address, still `via_proxy`."""
    client = scope.get("client")
    direct = str(client[0]) if client else ""
    headers = _headers(scope)
    agent = headers.get("user-agent", "")[: crowd.AGENT_CHARS]
    if not within(direct, proxies):
        return Peer(direct, user_agent=agent)
    chain = [part.strip() for part in headers.get("x-forwarded-for", "").split(",")]
    for entry in reversed(chain):
        if not _is_address(entry):
            break
        if not within(entry, proxies):
            return Peer(entry, via_proxy=True, user_agent=agent)
    return Peer(direct, via_proxy=True, user_agent=agent)


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _headers(scope: Scope) -> dict[str, str]:
    """The headers this module reads, repeated ones joined with commas (as HTTP allows)."""
    found: dict[str, list[str]] = {}
    for raw_name, raw_value in scope.get("headers") or ():
        name = raw_name.decode("latin-1").lower()
        if name in ("x-forwarded-for", "user-agent"):
            found.setdefault(name, []).append(raw_value.decode("latin-1"))
    return {name: ",".join(values) for name, values in found.items()}


# --- the session's peer -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Arrival:
    """The connection registering a session: its peer, its socket's path, its meter."""

    peer: Peer
    path: str = ""
    meter: Meter | None = None


_NOBODY = _Arrival(UNKNOWN)
_ARRIVING: contextvars.ContextVar[_Arrival] = contextvars.ContextVar("dyo_arriving", default=_NOBODY)


def bind_session(page: ft.Page) -> None:
    """Flet's `before_main`: the new session belongs to the connection registering it."""
    arrival = _ARRIVING.get()
    meter = arrival.meter
    crowd.bind(page.session, arrival.peer, meter.budget if meter is not None else None, arrival.path)
    if meter is not None:
        meter.session = page.session


def peer_of(page: ft.Page) -> Peer:
    """The peer a session was bound to when it registered (UNKNOWN: never bound, trusted as nobody)."""
    found = crowd.peer_of_session(page.session)
    return found if isinstance(found, Peer) else UNKNOWN


def peer_of_scope(scope: Scope) -> Peer:
    """The peer `PeerGate` resolved for an HTTP request."""
    found = scope.get("dyo.peer")
    return found if isinstance(found, Peer) else UNKNOWN


# --- the gate -----------------------------------------------------------------------------------


class PeerGate:
    """The outermost ASGI layer: resolves each connection's peer, hides the API explorer, keeps
    clients from patching what the server owns, and keeps the door's limits."""

    def __init__(
        self,
        app: ASGIApp,
        proxies: tuple[Network, ...] = (),
        limits: DoorLimits | None = None,
        is_host: Callable[[Peer, object], bool] = lambda peer, route: False,
    ) -> None:
        """`is_host(peer, route)`: whether a registration is the host's (never refused for the cap
        on strangers' sessions)."""
        self.app = app
        self.proxies = proxies
        self.is_host = is_host
        self.limits = limits or DoorLimits()
        self.budget = Budget(self.limits)
        self._arriving: dict[str, set[Meter]] = {}  # let in, their session not made yet, by address
        self._refusals = 0  # registrations refused (logged sparingly)

    async def __call__(
        self, scope: Scope, receive: Callable[[], Awaitable[Any]], send: Callable[[Any], Awaitable[None]]
    ) -> None:
        kind = scope.get("type")
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        peer = resolve(scope, self.proxies)
        client = scope.get("client")
        scope = dict(scope, client=(peer.address, client[1] if client else 0))
        scope["dyo.peer"] = peer
        if kind == "http" and scope.get("path") in HIDDEN_PATHS:
            await _not_found(send)
            return
        if kind == "websocket":
            await self._websocket(scope, receive, send, peer)
            return
        token = _ARRIVING.set(_Arrival(peer))
        try:
            await self.app(scope, receive, send)
        finally:
            _ARRIVING.reset(token)

    async def _websocket(
        self, scope: Scope, receive: Callable[[], Awaitable[Any]], send: Callable[[Any], Awaitable[None]], peer: Peer
    ) -> None:
        """Accept the socket, wait for a well-formed registration that the limits have room for,
        then hand both to Flet (which then accepts a socket already accepted: that message is not
        sent twice), every later message screened on the way (`_screened`)."""
        connect = await receive()
        if connect.get("type") != "websocket.connect":
            return
        if self.budget.locked(peer.address):
            log.info("refused a socket from %s: locked out after a flood", peer.address)
            await send({"type": "websocket.close", "code": TRY_AGAIN_LATER})  # before accepting: a plain 403
            return
        await send({"type": "websocket.accept"})
        opening = await _registration(receive, send)
        if opening is None:
            return
        path = str(scope.get("path") or "")
        body = _registration_body(opening["bytes"])
        meter = self.budget.meter(peer.address, crowd.keyed)
        meter.session = crowd.returning(peer, self.budget, path, body["session_id"])
        if not self._let_in(peer, meter, body["page"].get("route")):
            await send({"type": "websocket.close", "code": TRY_AGAIN_LATER})
            return
        arriving = self._arriving.setdefault(peer.address, set())
        arriving.add(meter)
        arrival, charged = _ARRIVING.set(_Arrival(peer, path, meter)), flet_guard.ACCOUNT.set(meter)
        try:
            await self.app(scope, *self._screened(connect, opening, receive, send, meter))
        finally:
            flet_guard.ACCOUNT.reset(charged)
            _ARRIVING.reset(arrival)
            arriving.discard(meter)
            if not arriving:
                self._arriving.pop(peer.address, None)

    def _let_in(self, peer: Peer, meter: Meter, route: object) -> bool:
        """Whether a registration may go on: the host's always, a session coming back unless its
        address spent its budget, a new one also only while strangers' sessions are under their caps
        (those being made count)."""
        spent = meter.admit(MessageAction.REGISTER_CLIENT.value) is not Verdict.PASS and self.budget.spent(peer.address)
        if self.is_host(peer, route):
            return True
        if spent:
            why = "its address is over its budget"
        elif meter.session is not None:
            return True
        else:
            mine, everyone = crowd.keyless(self.budget, peer.address)
            waiting = {a: sum(1 for m in meters if m.session is None) for a, meters in self._arriving.items()}
            mine += waiting.get(peer.address, 0)
            everyone += sum(waiting.values())
            if mine < self.limits.keyless_per_address and everyone < self.limits.keyless_sessions:
                return True
            why = f"{mine} sessions without a key from there, {everyone} in all"
        self._refusals += 1
        if self._refusals & (self._refusals - 1) == 0:  # the 1st, 2nd, 4th, 8th...: a storm is summed up
            log.warning("refused a registration from %s: %s (%d refused so far)", peer.address, why, self._refusals)
        return False

    def _screened(
        self,
        connect: Any,
        opening: Any,
        receive: Callable[[], Awaitable[Any]],
        send: Callable[[Any], Awaitable[None]],
        meter: Meter,
    ) -> tuple[Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]]:
        """Flet's receive and send: the connect and registration again, then each message paid for
        (budget.py), and dropped or the socket closed when it may not pass; nothing is sent once
        the door has closed the socket."""
        waiting = [connect, dict(opening, bytes=strip_server_owned(opening["bytes"]))]
        closed = False

        async def close(code: int) -> Any:
            nonlocal closed
            if not closed:
                closed = True
                await send({"type": "websocket.close", "code": code})
            return {"type": "websocket.disconnect", "code": code}

        async def received() -> Any:
            if waiting:
                return waiting.pop(0)
            while True:
                message = await receive()
                if message.get("type") != "websocket.receive":
                    return message
                verdict = self._verdict(message.get("bytes"), meter)
                if verdict is Verdict.PASS:
                    return _cleaned(message)
                if isinstance(verdict, int):
                    return await close(verdict)

        async def sent(message: Any) -> None:
            nonlocal closed
            kind = message.get("type")
            if closed or kind == "websocket.accept":
                return
            closed = kind == "websocket.close"
            try:
                await send(message)
            except OSError:
                # The client is gone (the server's ClientDisconnected), and what was on its way to
                # it is moot. Raised, it would end Flet's send loop in an error, after which Flet
                # never marks the session disconnected: it would never expire, and its screens
                # would be held for good (a reconnect storm kept 300 MB).
                closed = True

        return received, sent

    def _verdict(self, data: Any, meter: Meter) -> Verdict | int:
        """PASS, DROP, or the code to close the socket with (a CLOSE verdict's among them)."""
        if not isinstance(data, bytes):
            log.warning("closed a socket from %s: a text frame", meter.address)
            return POLICY_VIOLATION
        action = data[2] if data[:2] == b"\x00\x92" and len(data) > 2 else None
        if len(data) > self.limits.frame_bytes and action != MessageAction.INVOKE_METHOD.value:
            log.warning("closed a socket from %s: a message of %d bytes", meter.address, len(data))
            return TOO_BIG
        verdict = meter.admit(action)
        if verdict is Verdict.CLOSE:
            log.warning("closed a socket from %s: it kept sending while over its budget", meter.address)
            return POLICY_VIOLATION
        return verdict


async def _registration(
    receive: Callable[[], Awaitable[Any]], send: Callable[[Any], Awaitable[None]]
) -> dict[str, Any] | None:
    """The socket's first message if it registers a session; else the socket is closed (None)."""
    try:
        opening = await asyncio.wait_for(receive(), REGISTER_SECONDS)
    except TimeoutError:
        await send({"type": "websocket.close", "code": POLICY_VIOLATION})
        return None
    if opening.get("type") != "websocket.receive":
        return None  # gone before saying anything
    if not is_registration(opening.get("bytes")):
        await send({"type": "websocket.close", "code": POLICY_VIOLATION})
        return None
    found: dict[str, Any] = opening
    return found


async def _not_found(send: Callable[[Any], Awaitable[None]]) -> None:
    await send(
        {"type": "http.response.start", "status": 404, "headers": [(b"content-type", b"text/plain; charset=utf-8")]}
    )
    await send({"type": "http.response.body", "body": b"Not found"})


def _cleaned(message: Any) -> Any:
    data = message.get("bytes")
    if data:
        cleaned = strip_server_owned(data)
        if cleaned is not data:
            return dict(message, bytes=cleaned)
    return message


def _decoded(frame: Any) -> Any:
    if not isinstance(frame, bytes) or frame[:1] != b"\x00":
        return None
    try:
        return msgpack.unpackb(frame[1:], strict_map_key=False)
    except Exception:
        return None


def is_registration(frame: Any) -> bool:
    """Whether a frame is the registration Flet expects first (any other shape would crash its
    handler before a session exists, leaving the connection hanging)."""
    return _registration_body(frame) is not None


def _registration_body(frame: Any) -> Any:
    """The body of a well-formed registration frame (None: not one): its page patch too is of the
    shape Flet will apply (host/wire_shapes.py), once what `strip_server_owned` drops is gone."""
    from flet.controls.page import Page

    message = _decoded(frame)
    if not (isinstance(message, list) and len(message) == 2 and message[0] == MessageAction.REGISTER_CLIENT.value):
        return None
    body = message[1]
    well_formed = (
        isinstance(body, dict)
        and set(body) == _REGISTER_FIELDS
        and isinstance(body["page"], dict)
        and isinstance(body["page_name"], str)
        and isinstance(body["session_id"], str | None)
    )
    if not well_formed:
        return None
    kept = {k: v for k, v in body["page"].items() if not _server_owned(k)}
    return body if wire_shapes.patches(Page, kept) else None


def _server_owned(key: object) -> bool:
    return not isinstance(key, str) or key in _SERVER_OWNED or key.startswith("_")


def strip_server_owned(frame: bytes) -> bytes:
    """A Flet frame without the properties only the server sets (its own address and agent, its
    private `_` fields); other frames (and undecodable ones, which Flet refuses itself) unchanged."""
    if frame[:2] == b"\x00\x92" and len(frame) > 2 and frame[2] not in _PATCHES:
        return frame  # an event or an answer (read without decoding the rest): nothing to strip
    message = _decoded(frame)
    if not (isinstance(message, list) and len(message) == 2 and isinstance(message[1], dict)):
        return frame
    action, body = message
    field = _PATCHES.get(action) if isinstance(action, int) else None
    patch = body.get(field) if field else None
    if not isinstance(patch, dict):
        return frame
    owned = [key for key in patch if _server_owned(key)]
    if not owned:
        return frame
    level = logging.DEBUG if _CLIENT_NOTES.issuperset(owned) else logging.WARNING
    log.log(level, "dropped a client's patch of %s", ", ".join(map(str, owned))[:200])
    body = {**body, field: {k: v for k, v in patch.items() if k not in owned}}
    packed: bytes = msgpack.packb([action, body])
    return b"\x00" + packed
