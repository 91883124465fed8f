"""A bare Flet client: a websocket speaking Flet's wire protocol, with no browser behind it.

It is what a stranger on the table's network can write in a few lines, so the door's tests and
the reconnect-storm benchmark use it to misbehave on purpose: register on any route, patch page
properties the server owns, send forwarded headers, come from another loopback address. It
answers the server's method calls the way a fresh browser would (empty storage, unless `prefs`
says otherwise) and keeps every frame it receives, for tests to look through. The tables
benchmark's phones are clients of this kind too (companion/bench/load.py).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import Any

import msgpack
import websockets
from flet.messaging.protocol import MessageAction

REGISTER = MessageAction.REGISTER_CLIENT.value
UPDATE_PROPS = MessageAction.UPDATE_CONTROL_PROPS.value
INVOKE = MessageAction.INVOKE_METHOD.value
PAGE_ID = 1  # the page is the first control of every session


def frame(action: int, body: Mapping[str, Any]) -> bytes:
    packed: bytes = msgpack.packb([action, dict(body)])
    return b"\x00" + packed


class WireClient:
    def __init__(
        self,
        url: str,
        *,
        source: str = "127.0.0.1",
        headers: Mapping[str, str] | None = None,
        prefs: Mapping[str, str] | None = None,
        ssl: Any = None,
    ) -> None:
        self.url = url  # ws://host:port/ws
        self.source = source
        self.headers = dict(headers or {})
        self.prefs: dict[Any, Any] = dict(prefs or {})  # keys and values as the server sent them (JSON)
        self.ssl = ssl  # for wss:// (a TLS context; a test's proxy has a throwaway certificate)
        self.received = b""
        self.session_id = ""
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> WireClient:
        self._ws = await websockets.connect(
            self.url,
            local_addr=(self.source, 0),
            max_size=None,
            additional_headers=self.headers,
            open_timeout=10,
            **({"ssl": self.ssl} if self.ssl is not None else {}),
        )
        self._reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
            try:
                await self._reader
            except (asyncio.CancelledError, Exception):
                pass
        self._ws = self._reader = None

    async def register(self, route: str, **page: Any) -> None:
        """Open a session on `route`; `page` adds properties to the page patch a browser sends."""
        patch = {"route": route, "width": 1280, "height": 800, "platform": "linux", **page}
        await self._ws.send(frame(REGISTER, {"session_id": self.session_id, "page_name": "", "page": patch}))

    async def patch_page(self, **props: Any) -> None:
        await self._ws.send(frame(UPDATE_PROPS, {"id": PAGE_ID, "props": props}))

    def saw(self, text: str) -> bool:
        return text.encode() in self.received

    async def wait_for(self, *texts: str, timeout: float = 10.0) -> str | None:
        """The first of `texts` the server has sent (now or within `timeout`), else None."""
        deadline = time.monotonic() + timeout
        while True:
            for text in texts:
                if self.saw(text):
                    return text
            if time.monotonic() > deadline or self._reader is None or self._reader.done():
                return None
            await asyncio.sleep(0.02)

    async def _read(self) -> None:
        async for data in self._ws:
            if isinstance(data, bytes) and data[:1] == b"\x00":
                self.received += data
                await self.take(data)

    async def take(self, data: bytes) -> None:
        """Answer a frame as a browser does: keep the session's id, answer the server's calls."""
        message = msgpack.unpackb(data[1:], strict_map_key=False)
        action, body = message[0], message[1]
        if action == REGISTER:
            self.session_id = body.get("session_id") or self.session_id
        elif action == INVOKE:
            await self._ws.send(
                frame(
                    INVOKE,
                    {
                        "control_id": body["control_id"],
                        "call_id": body["call_id"],
                        "result": self._answer(body),
                        "error": None,
                    },
                )
            )

    def _answer(self, call: Mapping[str, Any]) -> Any:
        """A fresh browser's answers: its storage holds `prefs` and keeps what it is told."""
        args: Mapping[str, Any] = call.get("args") or {}
        name = call.get("name")
        if name == "get":
            return self.prefs.get(args.get("key"))
        if name == "set":
            self.prefs[args.get("key")] = args.get("value")
            return True
        if name == "remove":
            self.prefs.pop(args.get("key"), None)
            return True
        return None
