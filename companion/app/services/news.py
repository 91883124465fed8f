"""News of a game's changes for every screen of it: in this process, and in every other instance.

The screens of one process hear each other through Flet's pubsub, as they always did; a message
on a game's topic carries its new version and the engine's events (each screen words them for
its own viewer). On PostgreSQL, several instances serve one database, so every message also goes
out as a NOTIFY (notify.py) with the game's topic and new version only; an instance hearing one
reads the new log entry from the store and hands it to its own screens exactly as a local message
would be. No state lives only in one process: the store is the truth, a notification only says
"look again". On SQLite there is one instance (instances.py), and no notification at all.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol

from storage import Store

log = logging.getLogger(__name__)
GAME_PREFIX = "game:"
DEVICES_PREFIX = "join:"


def game_topic(game_id: str) -> str:
    """Where a game's accepted actions are told (every screen of that game listens)."""
    return f"{GAME_PREFIX}{game_id}"


def devices_topic(game_id: str) -> str:
    """Where a game's devices joining, leaving and being freed are told."""
    return f"{DEVICES_PREFIX}{game_id}"


PRESENCE = frozenset({"online", "offline"})
DELETED = "deleted"  # a game's last news: it is no longer stored (nothing to read of it)
SCREEN_CHANGED = "screen"  # on a devices topic: the host's screens now show, or hide, the hands


class Carrier(Protocol):
    """What takes news to the other instances (notify.py's PostgreSQL carrier)."""

    def send(self, topic: str, message: dict[str, Any]) -> None: ...

    def close(self) -> None: ...


class News:
    """One per server, shared by its sessions; `carrier` None: this process is the only instance."""

    def __init__(self, store: Store | Callable[[], Store]) -> None:
        self._store = store  # the store, or a callable giving it (it may still be opening)
        self.carrier: Carrier | None = None
        self._clients: dict[int, Any] = {}  # a page's pubsub client per Flet hub: the ways into them
        self._topics: Counter[str] = Counter()
        self._lock = threading.Lock()
        # told of devices online on another instance (JoinService.heard)
        self.presence: Callable[[str, str, list[str]], None] | None = None

    @property
    def store(self) -> Store:
        return self._store() if callable(self._store) else self._store

    # --- the screens' side ---------------------------------------------------------------------

    def subscribe(self, page: Any, topic: str, handler: Callable[[str, Any], Any]) -> None:
        page.pubsub.subscribe_topic(topic, handler)
        with self._lock:
            hub = getattr(page.pubsub, "_PubSubClient__pubsub", page.pubsub)  # Flet names it privately
            self._clients.setdefault(id(hub), page.pubsub)
            self._topics[topic] += 1

    def unsubscribe(self, page: Any, topic: str) -> None:
        page.pubsub.unsubscribe_topic(topic)
        with self._lock:
            self._topics[topic] -= 1
            if self._topics[topic] <= 0:
                del self._topics[topic]

    def publish(self, page: Any, topic: str, message: dict[str, Any], *, others: bool = True) -> None:
        """Tell this process's screens (but the sender's, unless `others` is False), then the other
        instances (a failure there is logged: their screens catch up on their next read)."""
        if others:
            page.pubsub.send_others_on_topic(topic, message)
        else:
            page.pubsub.send_all_on_topic(topic, message)
        carrier = self.carrier
        if carrier is not None:
            try:
                carrier.send(topic, portable(message))
            except Exception:
                log.warning("cannot tell the other instances of %s", topic, exc_info=True)

    # --- the carrier's side --------------------------------------------------------------------

    def topics(self) -> list[str]:
        with self._lock:
            return list(self._topics)

    def deliver(self, topic: str, message: dict[str, Any], origin: str = "") -> None:
        """News from another instance, for this one's screens of that topic (none: nothing to read)."""
        if message.get("kind") in PRESENCE and self.presence is not None:
            devices = [d for d in message.get("devices") or [] if isinstance(d, str)]
            self.presence(origin, message["kind"], devices)
        if not self._listened(topic):
            return
        if topic.startswith(GAME_PREFIX) and message.get("kind") != DELETED:
            read = self._with_events(topic[len(GAME_PREFIX) :], message)
            if read is None:
                return
            message = read
        self.deliver_read(topic, message)

    def catch_up(self) -> None:
        """After news may have been missed (the listening connection was lost): every game shown
        here is read again, as if its latest change had just been announced."""
        for topic in self.topics():
            if topic.startswith(GAME_PREFIX):
                try:
                    version = self.store.load(topic[len(GAME_PREFIX) :]).version
                except Exception:
                    log.info("cannot read %s again", topic, exc_info=True)
                    continue
                self.deliver_read(topic, {"version": version, "events": []})

    def _listened(self, topic: str) -> bool:
        with self._lock:
            return bool(self._topics.get(topic))

    def deliver_read(self, topic: str, message: dict[str, Any]) -> None:
        """`message`, complete, to every screen of `topic` in this process."""
        with self._lock:
            clients = list(self._clients.values()) if self._topics.get(topic) else []
        for client in clients:
            client.send_all_on_topic(topic, message)

    def _with_events(self, game_id: str, message: dict[str, Any]) -> dict[str, Any] | None:
        """The message as a local one would be: the new entry's events, read from the store."""
        from companion.rules import events_from_json

        version = message.get("version")
        if isinstance(version, bool) or not isinstance(version, int):
            return None
        events: list[Any] = []
        try:
            entry = self.store.entry(game_id, version)
            if entry is not None and entry.kind == "action" and isinstance(entry.answer, dict):
                events = list(events_from_json(entry.answer.get("events")))
        except Exception:  # an unknown game (another database's news) or a storage problem
            log.info("cannot read the news of %s", game_id, exc_info=True)
            return None
        return {"version": version, "events": events}

    def close(self) -> None:
        carrier, self.carrier = self.carrier, None
        if carrier is not None:
            carrier.close()


def portable(message: dict[str, Any]) -> dict[str, Any]:
    """What crosses to another instance: plain data, never the events (each instance reads them
    from the store, so nothing a viewer may not see travels beyond what the store already holds), nor
    the table a local message hands to the screens of this process."""
    out: dict[str, Any] = {}
    for key in ("version", "kind", "devices"):
        if key in message:
            value = message[key]
            out[key] = list(value) if isinstance(value, (list, tuple)) else value
    return out
