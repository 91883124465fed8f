"""This browser's own storage (its device tokens, the host key), reached across its socket.

Flet drops what it sends to a session whose socket is gone, so a call made then (a phone whose
screen locked just after the tap on its seat) would wait for an answer forever, and the screen
with it. Here each call waits for the socket, and is made again if the socket drops before the
answer: every call is one a browser may take twice (get, set, remove). And a browser that came
back answers no call to the storage service it had before (Flet 1.0 times them out on its side),
so after each reconnect the calls go to a new one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

ANSWER_SECONDS = 10.0  # a connected browser that does not answer by then has no such storage


class SessionClosed(ConnectionError):
    """The session ended while a call waited for its socket."""


class DeviceStorage:
    """`get`, `set` and `remove` of the browser's storage; the app says when the socket comes
    and goes (`connected`, `disconnected`) and when the session ends (`closed`)."""

    def __init__(self, service: Callable[[], Any], connected: bool) -> None:
        """`service` makes the session's storage service (registered with the current page)."""
        self._service = service
        self._prefs: Any = service()
        self._online = asyncio.Event()
        self._dropped = asyncio.Event()
        self._closed = False
        if connected:
            self._online.set()

    def connected(self) -> None:
        self._prefs = None  # the next call makes a new service, on the page it runs for
        self._dropped.clear()
        self._online.set()

    def disconnected(self) -> None:
        self._online.clear()
        self._dropped.set()

    def closed(self) -> None:
        """Wake every waiting call: each raises `SessionClosed`."""
        self._closed = True
        self._online.set()
        self._dropped.set()

    async def get(self, key: str) -> Any:
        return await self._ask(lambda prefs: prefs.get(key))

    async def set(self, key: str, value: str) -> Any:
        return await self._ask(lambda prefs: prefs.set(key, value))

    async def remove(self, key: str) -> Any:
        return await self._ask(lambda prefs: prefs.remove(key))

    async def _ask(self, call: Callable[[Any], Awaitable[T]]) -> T:
        """The browser's answer; TimeoutError when it is connected and does not answer."""
        while True:
            await self._online.wait()
            if self._closed:
                raise SessionClosed("the session ended before the browser answered")
            if self._prefs is None:
                self._prefs = self._service()
            asked = asyncio.ensure_future(call(self._prefs))
            dropped = asyncio.ensure_future(self._dropped.wait())
            try:
                done, _ = await asyncio.wait(
                    {asked, dropped}, timeout=ANSWER_SECONDS, return_when=asyncio.FIRST_COMPLETED
                )
            finally:  # also when the caller gives up waiting (a cancellation)
                dropped.cancel()
                if not asked.done():
                    asked.cancel()
            if asked in done:
                return asked.result()
            if dropped not in done:
                raise TimeoutError("the browser did not answer")


class Holder(Protocol):
    """A session that may hold its browser's storage (`App.prefs`, given when it is admitted)."""

    @property
    def prefs(self) -> DeviceStorage | None: ...


def storage_of(holder: Holder) -> DeviceStorage:
    """The session's browser storage: AttributeError before it has one, as reaching for it always did."""
    if holder.prefs is None:
        raise AttributeError("this session has no browser storage yet")
    return holder.prefs
