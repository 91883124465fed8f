"""The table app served on the web, as `dyo-companion` (companion/cli.py) serves it.

The host serves whatever it is given; here it is given the shared services, a tab's `App` per
Flet session, the door (`PeerGate`, `bind_session`, the host's `Access`) and the app's own routes.

`dyo-companion` puts it together in two steps, so that it listens as soon as a bare Flet app
would: what answers HTTP (Flet's web client, the routes, the door's gate) is made of light
modules and built before listening; the services, the screens and what they stand on (the
rules engine, storage) are imported and built once the server listens (`WebApp.start`), while
the browser loads the client. A session or a route that comes sooner waits for them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from companion.i18n import languages

from ..door import crowd
from ..door.limits import DoorLimits
from ..door.peer import Peer, PeerGate, bind_session, peer_of_scope
from ..host import flet_guard, flet_traces, instances, launch
from ..host.launch import WebApp
from ..host.net import Network
from ..host.server import SESSION_SECONDS, web_app

if TYPE_CHECKING:  # imported once the server listens (`TableApp.web`)
    import flet as ft

    from storage import Store

    from ..door.access import Access
    from ..services.settings import SettingsFile
    from ..services.shared import Services


def make_main(services: Services | Future[Services]) -> Callable[[ft.Page], Any]:
    """A fresh `main(page)` for one server (Flet caches its pubsub hub per main callable); given
    services still being built, a session waits for them without holding the server's loop."""
    if isinstance(services, Future):
        built = services

        async def waiting(page: ft.Page) -> None:
            from ..ui.shell import App

            App(page, await asyncio.wrap_future(built)).start()

        return waiting

    def main(page: ft.Page) -> None:
        from ..ui.shell import App

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
    from ..services.shared import Services

    services = Services(store=store, settings_file=settings_file, lan_url=lan_url, access=access)
    api = _api(services, session_timeout)
    api.state.services = services
    return PeerGate(api, services.access.proxies, services.access.limits, services.access.is_host)


def _api(services: Services | Future[Services], session_timeout: int) -> FastAPI:
    flet_guard.apply()  # every client message checked, its work charged to its connection
    flet_traces.apply(error_notice)  # and no error's text sent to a client
    api: FastAPI = web_app(
        make_main(services),
        routes=lambda api: _routes(api, services),
        before_main=bind_session,
        session_timeout=session_timeout,
        page_extra=lambda scope: _early_screen(services, scope),
    )
    return api


async def _early_screen(services: Services | Future[Services], scope: Any) -> bytes:
    """The join page's own seats (ui/phone/early_join.py), once the services are built (before
    that, the client draws everything, as it always could)."""
    if isinstance(services, Future):
        if not services.done() or services.exception() is not None:
            return b""
        services = services.result()
    from ..ui.phone.early_join import early_join

    return await early_join(services, scope)


def error_notice(session: Any) -> str:
    """What a client is told when its session raised (the trace is in the server's log): the
    app's own words, in the session's language."""
    from ..ui.shell import App
    from ..vm.text import Tr

    app = crowd.app_of(session)
    tr = app.tr if isinstance(app, App) else Tr("en")
    return tr("ui.screen_failed")


def _routes(api: FastAPI, built: Services | Future[Services]) -> None:
    """Every route reads what it needs from the request itself and answers a Response (named in
    this module, so FastAPI can read the annotation): a typed parameter or a response model would
    have FastAPI import its pydantic v1 layer at start, a few hundred ms before listening."""

    def services() -> Services:
        return built.result() if isinstance(built, Future) else built

    def refused(request: Request) -> bool:
        """The host's rights, as for the screens (door/access.py), and a peer that keeps guessing
        keys waits; a refusal says nothing of the game."""
        peer = peer_of_scope(request.scope)
        limiter = services().join.limiter
        if limiter.wait(peer.address) > 0 or not services().access.request_allowed(peer, _query(request, "host")):
            limiter.failed(peer.address)
            return True
        return False

    @api.get("/api/health")
    def health() -> JSONResponse:
        return JSONResponse({"ok": True})

    @api.get("/api/games/{game_id}/export")
    def export(request: Request) -> Response:
        game_id = str(request.path_params["game_id"])
        if refused(request):
            return JSONResponse({"error": "not found"}, status_code=404)
        try:
            data = services().store.export_game(game_id)
        except Exception as error:  # unknown game or storage problem: a plain message
            return JSONResponse({"error": getattr(error, "message", str(error))}, status_code=404)
        body = json.dumps(data, indent=1, ensure_ascii=False)
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="dyo-{game_id}.json"'},
        )

    _file_routes(api, services, refused)


def _file_routes(api: FastAPI, services: Callable[[], Services], refused: Callable[[Request], bool]) -> None:
    """A finished game for BG Stats, and the printable setup checklists (the host's, as `_routes`)."""

    @api.get("/api/games/{game_id}/bgstats.json")
    def bgstats_file(request: Request) -> Response:
        """A finished game in BG Stats' JSON format, to import there (services/bgstats.py)."""
        from ..services import bgstats, bgstats_format

        if refused(request):
            return JSONResponse({"error": "not found"}, status_code=404)
        lang = _query(request, "lang") or "en"
        try:
            play = bgstats.read_play(services().store, str(request.path_params["game_id"]), _language(lang))
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
    def game_checklist(request: Request) -> Response:
        """A game's setup checklist, to print (the same rights as the game's screens)."""
        from ..ui import printable

        if refused(request):
            return Response("not found", status_code=404, media_type="text/plain")
        try:
            config = services().store.load(str(request.path_params["game_id"])).config
        except Exception as error:  # unknown game or storage problem: a plain message
            return Response(getattr(error, "message", str(error)), status_code=404, media_type="text/plain")
        return _page(printable.checklist_html(config, _query(request, "lang") or "en"))

    @api.get("/setup/checklist.html")
    def setup_checklist_page(request: Request) -> Response:
        """The checklist of a setup not started yet: its configuration travels in the address."""
        from ..ui import printable

        if refused(request):
            return Response("not found", status_code=404, media_type="text/plain")
        found = printable.config_from_address(_query(request, "config") or "")
        if found is None:
            return Response("not a configuration", status_code=400, media_type="text/plain")
        return _page(printable.checklist_html(found, _query(request, "lang") or "en"))


def _page(html: str) -> Response:
    from ..ui import printable

    headers = {"Content-Security-Policy": printable.PAGE_POLICY, "Cache-Control": "no-store"}
    return HTMLResponse(html, headers=headers)


def _query(request: Request, name: str) -> str | None:
    return request.query_params.get(name)


def _language(lang: str) -> str:
    return lang if lang in languages() else "en"


class TableApp:
    """The table app as `dyo-companion` serves it (host/launch.py), within `limits`."""

    factory = f"{__name__}:worker_app"  # what each worker of `--workers` imports and calls

    def __init__(self, limits: DoorLimits | None = None) -> None:
        self._settings_file: SettingsFile | None = None
        self.limits = limits or DoorLimits()

    @property
    def settings_file(self) -> SettingsFile:
        """The host's display preferences (read when the services are built: they check kept
        house rules with the engine)."""
        if self._settings_file is None:
            from ..services.settings import SettingsFile

            self._settings_file = SettingsFile()
        return self._settings_file

    def web(self, store: Future[Store], lan_url: str | None, proxies: tuple[Network, ...]) -> WebApp:
        services: Future[Services] = Future()

        def start() -> None:
            try:
                from ..door.access import Access
                from ..services.shared import Services

                access = Access(
                    lan=lan_url is not None,
                    proxies=proxies,
                    shared_key=lambda: instances.shared_host_key(store),
                    limits=self.limits,
                )
                services.set_result(
                    Services(store=store, settings_file=self.settings_file, lan_url=lan_url, access=access)
                )
            except BaseException as error:  # a session waiting for them hears it too
                services.set_exception(error)
                raise

        def host_link(base: str) -> str:
            return services.result().access.host_link(base)

        def is_host(peer: Peer, route: object) -> bool:
            """Before the services are built no one is the host (the door's caps apply to all:
            a fresh server is far from them)."""
            built = services.done() and services.exception() is None
            return built and services.result().access.is_host(peer, route)

        gate = PeerGate(_api(services, SESSION_SECONDS), proxies, self.limits, is_host)
        return WebApp(gate, host_link, start)

    def desktop(self, store: Store) -> Callable[[ft.Page], None]:
        from ..services.shared import Services

        return make_main(Services(store=store, settings_file=self.settings_file, joinable=False))

    def host_link(self, db: str | None) -> Callable[[str], str]:
        from storage import Store

        from ..door.access import Access

        store = Store(url=db)
        try:
            key = instances.shared_host_key(store)
        finally:
            store.close()
        return Access(host_key=key).host_link


def serve(args: argparse.Namespace) -> int:
    """`dyo-companion` without a subcommand (a bad limit in the environment: one line, exit 2)."""
    try:
        limits = DoorLimits.from_env()
    except ValueError as error:
        print(f"dyo-companion: {error}", file=sys.stderr)
        return 2
    return launch.run_app(args, TableApp(limits))


def worker_app() -> Any:
    """One worker's app under `dyo-companion --workers N` (uvicorn's factory, `TableApp.factory`),
    within the limits the command checked in the same environment."""
    return launch.worker_app(TableApp(DoorLimits.from_env()))
