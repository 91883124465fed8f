"""A stranger's flood, as a process of its own (so that its own work does not share the test's
interpreter with the server): from each address given, a bare Flet client opens the rule book
and, once every one of them has (it prints "flooding"), sends junk events as fast as it can
(unknown control ids, wrong types, large data, a route change whose data is a number), opening a
new connection whenever one is closed, until the deadline. Last it prints what it did as one
JSON line.

    python junk.py WS_URL SECONDS ADDRESS [ADDRESS...]
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

import msgpack
import websockets

REGISTER, EVENT = 1, 3
LARGE = "x" * 30_000


def frame(action: int, body: dict[str, Any]) -> bytes:
    packed: bytes = msgpack.packb([action, body])
    return b"\x00" + packed


def junk(n: int) -> bytes:
    kind = n % 5
    if kind == 0:
        return frame(EVENT, {"target": 100_000 + n, "name": "click", "data": None})
    if kind == 1:
        return frame(EVENT, {"target": str(n), "name": n, "data": {"x": [n]}})
    if kind == 2:
        return frame(EVENT, {"target": 1, "name": "resize", "data": {"width": "wide", "height": [n]}})
    if kind == 3:
        return frame(EVENT, {"target": 200_000 + n, "name": "click", "data": LARGE})
    return frame(EVENT, {"target": 1, "name": "route_change", "data": n})


async def opened(url: str, source: str) -> Any:
    """A connection on the rule book, its first screen received."""
    page = {"route": "/rules", "width": 1280, "height": 800, "platform": "linux"}
    ws = await websockets.connect(url, local_addr=(source, 0), max_size=None, open_timeout=10)
    await ws.send(frame(REGISTER, {"session_id": "", "page_name": "", "page": page}))
    await asyncio.wait_for(ws.recv(), 20)
    return ws


async def flood(url: str, source: str, ws: Any, deadline: float, tally: dict[str, Any]) -> None:
    while time.monotonic() < deadline:
        try:
            if ws is None:
                ws = await opened(url, source)
            async with ws:
                tally["connections"] += 1
                while time.monotonic() < deadline:
                    await ws.send(junk(tally["sent"]))
                    tally["sent"] += 1
                    if tally["sent"] % 50 == 0:
                        await asyncio.sleep(0)  # let the reader see a close
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            tally["closed"][str(code)] = tally["closed"].get(str(code), 0) + 1
        except (websockets.InvalidStatus, OSError, TimeoutError):
            tally["refused"] += 1
            await asyncio.sleep(0.05)
        ws = None


async def main(url: str, seconds: float, sources: list[str]) -> dict[str, Any]:
    sockets = await asyncio.gather(*(opened(url, s) for s in sources))
    await asyncio.sleep(1.0)  # their screens drawn: what follows is the flood alone
    print("flooding", flush=True)
    deadline = time.monotonic() + seconds
    tallies = {s: {"sent": 0, "connections": 0, "refused": 0, "closed": {}} for s in sources}
    await asyncio.gather(*(flood(url, s, ws, deadline, tallies[s]) for s, ws in zip(sources, sockets, strict=True)))
    return tallies


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], float(sys.argv[2]), sys.argv[3:]))))
