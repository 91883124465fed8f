"""Who is in: every live session, the connection's peer it was bound to, and whether it holds a key.

A session holds a key once its browser presented something valid (the host key or is the host's
machine, a join secret, a device token); until then it is a stranger's. The door counts
strangers' sessions (per address and in all, `DoorLimits`) before a new one is let in, and
trusts sessions with a key with more of the loop's time (budget.py).

Sessions are held weakly; one Flet has closed (its grace period over) no longer counts. Each is
bound with the door (`where`: its gate's identity) it came through, so that two servers in one
process (the tests') count their own.
"""

from __future__ import annotations

import weakref
from typing import Any, Protocol

from ..host.flet_guard import session_closed

AGENT_CHARS = 512  # peer.py keeps this much of a browser's name


class Keyholder(Protocol):
    """A session's app as the door asks it (`App` in ui/shell.py)."""

    @property
    def holds_key(self) -> bool: ...


_PEERS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()  # session -> peer.Peer
_PLACES: weakref.WeakKeyDictionary[Any, tuple[object, str]] = weakref.WeakKeyDictionary()  # -> door, socket path
_APPS: weakref.WeakKeyDictionary[Any, weakref.ref[Any]] = weakref.WeakKeyDictionary()  # session -> its app


def bind(session: Any, peer: Any, where: object, path: str) -> None:
    _PEERS[session] = peer
    _PLACES[session] = (where, path)


def peer_of_session(session: Any) -> Any:
    try:
        return _PEERS.get(session)
    except TypeError:  # not a session object at all
        return None


def watch(session: Any, app: Keyholder) -> None:
    """Ask `app` from now on whether its session holds a key (held weakly: the app lives as long
    as its page's handlers do)."""
    _APPS[session] = weakref.ref(app)


def app_of(session: Any) -> Any:
    """The app of a session (None: not started, or gone)."""
    found = _APPS.get(session) if session is not None else None
    return found() if found is not None else None


def keyed(session: Any) -> bool:
    app = app_of(session)
    return bool(app is not None and app.holds_key)


def keyless(where: object, address: str) -> tuple[int, int]:
    """How many live sessions without a key that came through `where` there are from `address`,
    and in all."""
    mine = everyone = 0
    for session, peer in list(_PEERS.items()):
        if _PLACES.get(session, (None, ""))[0] is not where or session_closed(session) or keyed(session):
            continue
        everyone += 1
        mine += getattr(peer, "address", None) == address
    return mine, everyone


def returning(peer: Any, where: object, path: str, session_id: object) -> Any:
    """The session a registration comes back to, if Flet will give it back (it looks one up by
    id, socket path, address and browser): live, bound to the same, and without a connection
    now (else Flet opens a new one). A browser name cut short (peer.py) matches none."""
    if not isinstance(session_id, str) or not session_id or len(peer.user_agent) >= AGENT_CHARS:
        return None
    for session, bound in list(_PEERS.items()):
        if getattr(session, "id", None) != session_id:
            continue
        same = (bound.address, bound.user_agent, _PLACES.get(session)) == (peer.address, peer.user_agent, (where, path))
        if same and not session_closed(session) and getattr(session, "connection", None) is None:
            return session
    return None
