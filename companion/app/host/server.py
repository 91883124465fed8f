"""Serving the app: one ASGI application (FastAPI + Flet) used by `dyo-companion` and by tests.

Besides the Flet UI at `/`, it answers `/api/health` (for scripts and the launcher's readiness
check) and `/api/games/<id>/export` (a game file download, for the host's browsers only: see
join/access.py). Flet's sessions live in this process; several processes (instances, or
`--workers`) share a PostgreSQL database and hear each other's news through it (news.py).
Everything sits behind `PeerGate` (join/peer.py): each connection's address is read off the
connection, and no API explorer or schema is served.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import Request

from ..door.peer import PeerGate, bind_session, peer_of_scope
from ..services.settings import SettingsFile
from ..ui.shell import SESSION_SECONDS, App, Services
from . import flet_costs, flet_diff, manifest

log = logging.getLogger(__name__)


def assets_dir() -> Path:
    """The assets folder (icons, fonts): the checkout's, else the one a regular install put in
    <prefix>/share/dyo-companion (pyproject.toml's data-files)."""
    checkout = Path(__file__).resolve().parents[2] / "assets"
    for candidate in (checkout, Path(sys.prefix) / "share" / "dyo-companion" / "assets"):
        if candidate.is_dir():
            return candidate
    return checkout


def make_main(services: Services) -> Callable[[Any], None]:
    """A fresh `main(page)` for one server (Flet caches its pubsub hub per main callable)."""

    def main(page: Any) -> None:
        App(page, services).start()

    return main


def make_asgi(
    store: Any,
    settings_file: SettingsFile,
    *,
    lan_url: str | None = None,
    access: Any = None,
    session_timeout: int = SESSION_SECONDS,
) -> Any:
    import flet_web.fastapi as flet_fastapi
    from fastapi.responses import JSONResponse, Response

    flet_costs.apply()
    flet_diff.apply()
    services = Services(store=store, settings_file=settings_file, lan_url=lan_url, access=access)
    api = flet_fastapi.FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    api.state.services = services

    @api.get("/api/health")
    def health() -> dict[str, Any]:
        return {"ok": True}

    @api.get("/api/games/{game_id}/export")
    def export(game_id: str, request: Request, host: str | None = None) -> Response:
        peer = peer_of_scope(request.scope)
        limiter = services.join.limiter
        if limiter.wait(peer.address) > 0 or not services.access.request_allowed(peer, host):
            limiter.failed(peer.address)
            return JSONResponse({"error": "not found"}, status_code=404)  # says nothing of the game
        try:
            data = services.store.export_game(game_id)
        except Exception as error:  # unknown game or storage problem: a plain message
            return JSONResponse({"error": getattr(error, "message", str(error))}, status_code=404)
        body = json.dumps(data, indent=1, ensure_ascii=False)
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="dyo-{game_id}.json"'},
        )

    manifest.serve(api)  # the web manifest and the pages' theme colour (before the Flet mount)
    api.mount(
        "/",
        flet_fastapi.app(
            make_main(services),
            before_main=bind_session,
            no_cdn=True,
            assets_dir=str(assets_dir()),
            session_timeout_seconds=session_timeout,
            app_name=manifest.NAME,
            app_short_name=manifest.SHORT_NAME,
            app_description=manifest.DESCRIPTION,
        ),
    )
    return PeerGate(api, services.access.proxies)
