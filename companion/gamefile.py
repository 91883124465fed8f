"""How large a game file may be, and reading one without ever holding more than that.

A game file (PROTOCOL.md: `{"config", "actions"}`) of a real game is well under a megabyte:
about 85 bytes an action as the app exports it, so a game of 1,000 actions is 85 kB and the
limit holds about 100,000 of them. Decoding
JSON takes about ten times the file's size in memory, and replaying it takes time for every
action, so a file of any size would let one upload (or a mistyped `/dev/zero`) take the server's
memory. `MAX_BYTES` bounds every way in: `python -m companion check`, `dyo-companion games
import`, and the import from the app's home screen. It is the size of the largest websocket
frame a client may send (companion/app/host/launch.py, WS_MAX_BYTES), which is how an upload
from a browser reaches the app.

`read_bounded` reads at most `MAX_BYTES + 1` bytes, whatever the file claims to be (a pipe, a
device, a file still growing), so an endless input is refused after 8 MiB, not read to the end.
"""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

MAX_BYTES = 8 * 1024 * 1024


class TooLarge(Exception):
    """The input is over MAX_BYTES (nothing more of it was read)."""

    def __init__(self, limit: int = MAX_BYTES) -> None:
        super().__init__(f"over {limit} bytes")
        self.limit = limit

    @property
    def megabytes(self) -> int:
        return self.limit // (1024 * 1024)


def check_size(raw: bytes, limit: int = MAX_BYTES) -> bytes:
    """`raw` itself, or TooLarge when it is over the limit."""
    if len(raw) > limit:
        raise TooLarge(limit)
    return raw


def read_stream(stream: BinaryIO, limit: int = MAX_BYTES) -> bytes:
    """At most `limit` bytes of `stream`; TooLarge when there are more."""
    return check_size(stream.read(limit + 1), limit)


def read_bounded(path: str, stdin: BinaryIO, limit: int = MAX_BYTES) -> bytes:
    """The bytes of the file at `path` ("-": `stdin`); TooLarge when there are more than `limit`,
    OSError when it cannot be read."""
    if path == "-":
        return read_stream(stdin, limit)
    with Path(path).open("rb") as file:
        return read_stream(file, limit)
