"""A server whose web client is served by the app's layer (companion/app/host/client_http.py),
with its compressed copies in a folder of the test's own: the copies a test needs are made at
once, and the background builder (minutes of work for the whole client) is never started."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.host import precompress

from .conftest import make_store
from drivers.browser import AppServer

# The files a phone loads at start on Chromium's wasm path: their copies make the first load.
PHONE_PATH_LARGE = ("main.dart.wasm", "canvaskit/skwasm.wasm")


@contextlib.contextmanager
def client_server(folder: Path, *, lan: bool = True) -> Iterator[tuple[AppServer, Any]]:
    """The app on a loopback port, and its client layer (its table ready)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(precompress.ENV, str(folder / "web-cache"))
        patch.delenv("COMPANION_PLAIN_CLIENT", raising=False)
        patch.setattr(precompress, "build_in_background", lambda store, files: None)
        with AppServer(make_store(folder), folder / "settings.json", lan=lan) as server:
            layer = server.app.app.state.client
            layer.table.result(timeout=120)
            yield server, layer


def compress(layer: Any, urls: Iterable[str] | None = None, codings: tuple[str, ...] = ("br", "gzip")) -> None:
    """Make the copies of `urls` (default: the phone's start files) now."""
    table = layer.table.result()
    if urls is None:
        files = [f for f in table.files.values() if f.size < precompress.SMALL or f.url in PHONE_PATH_LARGE]
    else:
        files = [table.files[url] for url in urls]
    precompress.build(layer.store, files, codings=codings)
