"""Serving a Flet app on the web: one ASGI application (FastAPI + Flet).

The app's own routes come first (the caller adds them: companion/app/entry/web.py adds
`/api/health` and the game export), then the web manifest and the pages' theme colour
(manifest.py), then the Flet UI at `/`, its web client served compressed, cached and versioned
by the layer in front of it (client_http.py). No API explorer or schema is served. Flet's sessions
live in this process; several processes (instances, or `--workers`) share a PostgreSQL
database and hear each other's news through it (services/news.py).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import client_http, flet_costs, flet_diff, manifest, precompress

# How long a session whose socket is gone is kept for its browser to come back to (a phone that
# slept); one that never presented a key goes sooner (ui/shell.py). A browser coming back later
# opens a new session: its seat and the host key are in its own storage.
SESSION_SECONDS = 300
KEYLESS_SESSION_SECONDS = 30


def assets_dir() -> Path:
    """The assets folder (icons, fonts): the checkout's, else the one a regular install put in
    <prefix>/share/dyo-companion (pyproject.toml's data-files)."""
    checkout = Path(__file__).resolve().parents[3] / "assets"
    for candidate in (checkout, Path(sys.prefix) / "share" / "dyo-companion" / "assets"):
        if candidate.is_dir():
            return candidate
    return checkout


def web_app(
    main: Callable[[Any], Any],
    *,
    routes: Callable[[Any], None],
    before_main: Callable[[Any], None],
    session_timeout: int,
    page_extra: client_http.PageExtra | None = None,
) -> Any:
    """The FastAPI application that serves `main` (one Flet session per browser tab) after the
    routes `routes(api)` adds, with Flet's costs and diff patched (flet_costs.py, flet_diff.py);
    `page_extra` draws a page's own screen before the client loads (client_http.py)."""
    import flet_web.fastapi as flet_fastapi

    flet_costs.apply()
    flet_diff.apply()
    api = flet_fastapi.FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    routes(api)
    manifest.serve(api)  # the web manifest and the pages' theme colour (before the Flet mount)
    flet_app = flet_fastapi.app(
        main,
        before_main=before_main,
        no_cdn=True,
        assets_dir=str(assets_dir()),
        session_timeout_seconds=session_timeout,
        app_name=manifest.NAME,
        app_short_name=manifest.SHORT_NAME,
        app_description=manifest.DESCRIPTION,
    )
    api.state.client = None if client_http.plain() else client_layer(flet_app, page_extra)
    api.mount("/", api.state.client or flet_app)
    return api


def client_layer(flet_app: Any, page_extra: client_http.PageExtra | None = None) -> client_http.ClientLayer:
    """Flet's app behind the layer that serves its web client (client_http.py), with the
    compressed copies kept in the cache folder (precompress.py)."""
    store = precompress.Store(precompress.cache_root())
    return client_http.ClientLayer(
        flet_app, lambda: client_http.prepare(str(assets_dir()), store, no_cdn=True), store, page_extra
    )
