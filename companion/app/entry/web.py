"""The table app served on the web, as `dyo-companion` (companion/cli.py) serves it.

The host serves whatever it is given; here it is given the shared services, a tab's `App` per
Flet session, the door (`PeerGate`, `bind_session`, the host's `Access`) and the app's own routes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import flet as ft
from fastapi import FastAPI, Request

from companion.i18n import languages
from storage import Store

from ..door import crowd
from ..door.access import Access
from ..door.limits import DoorLimits
from ..door.peer import PeerGate, bind_session, peer_of_scope
from ..host import flet_guard, flet_traces, instances, launch
from ..host.launch import WebApp
from ..host.net import Network
from ..host.server import web_app
from ..services import bgstats, bgstats_format
from ..services.settings import SettingsFile
from ..services.shared import Services
from ..ui import printable
from ..ui.shell import SESSION_SECONDS, App
from ..vm.text import Tr


def make_main(services: Services) -> Callable[[ft.Page], None]:
    """A fresh `main(page)` for one server (Flet caches its pubsub hub per main callable)."""

    def main(page: ft.Page) -> None:
        App(page, services).start()

    return main


def make_asgi(
    store: Store | Future[Store],
    settings_file: SettingsFile,
    *,
    lan_url: str | None = None,
    access: Access | None = None,
    session_timeout: int = SESSION_SECONDS,
) -> PeerGate:
    """The table app as one ASGI application behind the door (door/peer.py): the Flet UI at `/`,
    `/api/health` (for scripts and the launcher's readiness check), `/api/games/<id>/export`
    (a game file download), `/api/games/<id>/bgstats.json` (a finished game for BG Stats) and the
    printable setup checklists (`/game/<id>/setup.html`, `/setup/checklist.html`), for the host's
    browsers only (door/access.py)."""
    services = Services(store=store, settings_file=settings_file, lan_url=lan_url, access=access)
    flet_guard.apply()  # every client message checked, its work charged to its connection
    flet_traces.apply(error_notice)  # and no error's text sent to a client
    api = web_app(
        make_main(services),
        routes=lambda api: _routes(api, services),
        before_main=bind_session,
        session_timeout=session_timeout,
    )
    api.state.services = services
    return PeerGate(api, services.access.proxies, services.access.limits, services.access.is_host)


def error_notice(session: Any) -> str:
    """What a client is told when its session raised (the trace is in the server's log): the
    app's own words, in the session's language."""
    app = crowd.app_of(session)
    tr = app.tr if isinstance(app, App) else Tr("en")
    return tr("ui.screen_failed")


def _routes(api: FastAPI, services: Services) -> None:
    from fastapi.responses import HTMLResponse, JSONResponse, Response

    def page(html: str) -> Response:
        headers = {"Content-Security-Policy": printable.PAGE_POLICY, "Cache-Control": "no-store"}
        return HTMLResponse(html, headers=headers)

    def refused(request: Request, host: str | None) -> bool:
        """The host's rights, as for the screens (door/access.py), and a peer that keeps guessing
        keys waits; a refusal says nothing of the game."""
        peer = peer_of_scope(request.scope)
        limiter = services.join.limiter
        if limiter.wait(peer.address) > 0 or not services.access.request_allowed(peer, host):
            limiter.failed(peer.address)
            return True
        return False

    @api.get("/api/health")
    def health() -> dict[str, Any]:
        return {"ok": True}

    @api.get("/api/games/{game_id}/export")
    def export(game_id: str, request: Request, host: str | None = None) -> Response:
        if refused(request, host):
            return JSONResponse({"error": "not found"}, status_code=404)
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

    @api.get("/api/games/{game_id}/bgstats.json")
    def bgstats_file(game_id: str, request: Request, lang: str = "en", host: str | None = None) -> Response:
        """A finished game in BG Stats' JSON format, to import there (services/bgstats.py)."""
        if refused(request, host):
            return JSONResponse({"error": "not found"}, status_code=404)
        try:
            play = bgstats.read_play(services.store, game_id, lang if lang in languages() else "en")
        except Exception as error:  # unknown, unfinished, or a storage problem: a plain message
            return JSONResponse({"error": getattr(error, "message", None) or str(error)}, status_code=404)
        data = bgstats.play_file(play)
        problems = bgstats_format.file_problems(data)
        if problems:  # never a file BG Stats would refuse
            return JSONResponse({"error": problems[0]}, status_code=500)
        disposition = f'attachment; filename="{bgstats.file_name(play)}"'
        body = json.dumps(data, indent=1, ensure_ascii=False)
        return Response(body, media_type="application/json", headers={"Content-Disposition": disposition})

    @api.get("/game/{game_id}/setup.html")
    def game_checklist(game_id: str, request: Request, lang: str = "en", host: str | None = None) -> Response:
        """A game's setup checklist, to print (the same rights as the game's screens)."""
        if refused(request, host):
            return Response("not found", status_code=404, media_type="text/plain")
        try:
            config = services.store.load(game_id).config
        except Exception as error:  # unknown game or storage problem: a plain message
            return Response(getattr(error, "message", str(error)), status_code=404, media_type="text/plain")
        return page(printable.checklist_html(config, lang))

    @api.get("/setup/checklist.html")
    def setup_checklist_page(request: Request, config: str = "", lang: str = "en", host: str | None = None) -> Response:
        """The checklist of a setup not started yet: its configuration travels in the address."""
        if refused(request, host):
            return Response("not found", status_code=404, media_type="text/plain")
        found = printable.config_from_address(config)
        if found is None:
            return Response("not a configuration", status_code=400, media_type="text/plain")
        return page(printable.checklist_html(found, lang))


class TableApp:
    """The table app as `dyo-companion` serves it (host/launch.py), within `limits`."""

    def __init__(self, limits: DoorLimits | None = None) -> None:
        self.settings_file = SettingsFile()
        self.limits = limits or DoorLimits()

    def web(self, store: Future[Store], lan_url: str | None, proxies: tuple[Network, ...]) -> WebApp:
        access = Access(
            lan=lan_url is not None,
            proxies=proxies,
            shared_key=lambda: instances.shared_host_key(store),
            limits=self.limits,
        )
        return WebApp(make_asgi(store, self.settings_file, lan_url=lan_url, access=access), access.host_link)

    def desktop(self, store: Store) -> Callable[[ft.Page], None]:
        return make_main(Services(store=store, settings_file=self.settings_file, joinable=False))


def serve(args: argparse.Namespace) -> int:
    """`dyo-companion` without a subcommand (a bad limit in the environment: one line, exit 2)."""
    try:
        limits = DoorLimits.from_env()
    except ValueError as error:
        print(f"dyo-companion: {error}", file=sys.stderr)
        return 2
    return launch.run_app(args, TableApp(limits))
