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
"""

from __future__ import annotations

import asyncio
import contextvars
import ipaddress
import logging
import weakref
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

import flet as ft
import msgpack
from flet.messaging.protocol import MessageAction
from flet.messaging.session import Session

from ..host.net import Network, within

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
    agent = headers.get("user-agent", "")[:512]
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

_ARRIVING: contextvars.ContextVar[Peer] = contextvars.ContextVar("dyo_arriving_peer", default=UNKNOWN)
_SESSIONS: weakref.WeakKeyDictionary[Session, Peer] = weakref.WeakKeyDictionary()


def bind_session(page: ft.Page) -> None:
    """Flet's `before_main`: the new session belongs to the connection registering it."""
    _SESSIONS[page.session] = _ARRIVING.get()


def peer_of(page: ft.Page) -> Peer:
    """The peer a session was bound to when it registered (UNKNOWN: never bound, trusted as nobody)."""
    try:
        return _SESSIONS.get(page.session, UNKNOWN)
    except TypeError:  # not a session object at all
        return UNKNOWN


def peer_of_scope(scope: Scope) -> Peer:
    """The peer `PeerGate` resolved for an HTTP request."""
    found = scope.get("dyo.peer")
    return found if isinstance(found, Peer) else UNKNOWN


# --- the gate -----------------------------------------------------------------------------------


class PeerGate:
    """The outermost ASGI layer: resolves each connection's peer, hides the API explorer, and
    keeps clients from patching what the server owns."""

    def __init__(self, app: ASGIApp, proxies: tuple[Network, ...] = ()) -> None:
        self.app = app
        self.proxies = proxies

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
        token = _ARRIVING.set(peer)
        try:
            if kind == "websocket":
                await self._websocket(scope, receive, send)
            else:
                await self.app(scope, receive, send)
        finally:
            _ARRIVING.reset(token)

    async def _websocket(
        self, scope: Scope, receive: Callable[[], Awaitable[Any]], send: Callable[[Any], Awaitable[None]]
    ) -> None:
        """Accept the socket, wait for a well-formed registration, then hand both to Flet (which
        then accepts a socket already accepted: that message is not sent twice)."""
        connect = await receive()
        if connect.get("type") != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        try:
            opening = await asyncio.wait_for(receive(), REGISTER_SECONDS)
        except TimeoutError:
            await send({"type": "websocket.close", "code": POLICY_VIOLATION})
            return
        if opening.get("type") != "websocket.receive":
            return  # gone before saying anything
        if not is_registration(opening.get("bytes")):
            await send({"type": "websocket.close", "code": POLICY_VIOLATION})
            return
        waiting = [connect, dict(opening, bytes=strip_server_owned(opening["bytes"]))]
        rest = _filtered(receive)

        async def replayed() -> Any:
            return waiting.pop(0) if waiting else await rest()

        async def accepted_once(message: Any) -> None:
            if message.get("type") != "websocket.accept":
                await send(message)

        await self.app(scope, replayed, accepted_once)


async def _not_found(send: Callable[[Any], Awaitable[None]]) -> None:
    await send(
        {"type": "http.response.start", "status": 404, "headers": [(b"content-type", b"text/plain; charset=utf-8")]}
    )
    await send({"type": "http.response.body", "body": b"Not found"})


def _filtered(receive: Callable[[], Awaitable[Any]]) -> Callable[[], Awaitable[Any]]:
    async def next_message() -> Any:
        message = await receive()
        data = message.get("bytes") if message.get("type") == "websocket.receive" else None
        if data:
            cleaned = strip_server_owned(data)
            if cleaned is not data:
                message = dict(message, bytes=cleaned)
        return message

    return next_message


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
    message = _decoded(frame)
    if not (isinstance(message, list) and len(message) == 2 and message[0] == MessageAction.REGISTER_CLIENT.value):
        return False
    body = message[1]
    return (
        isinstance(body, dict)
        and set(body) == _REGISTER_FIELDS
        and isinstance(body["page"], dict)
        and isinstance(body["page_name"], str)
        and isinstance(body["session_id"], str | None)
    )


def strip_server_owned(frame: bytes) -> bytes:
    """A Flet frame without the properties only the server sets (its own address and agent, its
    private `_` fields); other frames (and undecodable ones, which Flet refuses itself) unchanged."""
    message = _decoded(frame)
    if not (isinstance(message, list) and len(message) == 2 and isinstance(message[1], dict)):
        return frame
    action, body = message
    field = _PATCHES.get(action) if isinstance(action, int) else None
    patch = body.get(field) if field else None
    if not isinstance(patch, dict):
        return frame
    owned = [key for key in patch if not isinstance(key, str) or key in _SERVER_OWNED or key.startswith("_")]
    if not owned:
        return frame
    level = logging.DEBUG if _CLIENT_NOTES.issuperset(owned) else logging.WARNING
    log.log(level, "dropped a client's patch of %s", ", ".join(map(str, owned))[:200])
    body = {**body, field: {k: v for k, v in patch.items() if k not in owned}}
    packed: bytes = msgpack.packb([action, body])
    return b"\x00" + packed
