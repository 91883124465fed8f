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
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from ..door.peer import PeerGate, bind_session, peer_of_scope
from ..host import instances, launch
from ..host.launch import WebApp
from ..host.net import Network
from ..host.server import SESSION_SECONDS, web_app
from ..services.settings import SettingsFile

if TYPE_CHECKING:  # imported once the server listens (`TableApp.web`)
    import flet as ft

    from storage import Store

    from ..door.access import Access
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
    `/api/health` (for scripts and the launcher's readiness check) and `/api/games/<id>/export`
    (a game file download, for the host's browsers only: door/access.py)."""
    from ..services.shared import Services

    services = Services(store=store, settings_file=settings_file, lan_url=lan_url, access=access)
    api = _api(services, session_timeout)
    api.state.services = services
    return PeerGate(api, services.access.proxies)


def _api(services: Services | Future[Services], session_timeout: int) -> FastAPI:
    api: FastAPI = web_app(
        make_main(services),
        routes=lambda api: _routes(api, services),
        before_main=bind_session,
        session_timeout=session_timeout,
    )
    return api


def _routes(api: FastAPI, built: Services | Future[Services]) -> None:
    # Both read what they need from the request itself and answer a Response (named in this
    # module, so FastAPI can read the annotation): a typed parameter or a response model would
    # have FastAPI import its pydantic v1 layer at start, a few hundred ms before listening.
    @api.get("/api/health")
    def health() -> JSONResponse:
        return JSONResponse({"ok": True})

    @api.get("/api/games/{game_id}/export")
    def export(request: Request) -> Response:
        game_id, host = str(request.path_params["game_id"]), request.query_params.get("host")
        services = built.result() if isinstance(built, Future) else built
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


class TableApp:
    """The table app as `dyo-companion` serves it (host/launch.py)."""

    factory = f"{__name__}:worker_app"  # what each worker of `--workers` imports and calls

    def __init__(self) -> None:
        self.settings_file = SettingsFile()

    def web(self, store: Future[Store], lan_url: str | None, proxies: tuple[Network, ...]) -> WebApp:
        services: Future[Services] = Future()

        def start() -> None:
            try:
                from ..door.access import Access
                from ..services.shared import Services

                access = Access(
                    lan=lan_url is not None, proxies=proxies, shared_key=lambda: instances.shared_host_key(store)
                )
                services.set_result(
                    Services(store=store, settings_file=self.settings_file, lan_url=lan_url, access=access)
                )
            except BaseException as error:  # a session waiting for them hears it too
                services.set_exception(error)
                raise

        def host_link(base: str) -> str:
            return services.result().access.host_link(base)

        return WebApp(PeerGate(_api(services, SESSION_SECONDS), proxies), host_link, start)

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
    """`dyo-companion` without a subcommand."""
    return launch.run_app(args, TableApp())


def worker_app() -> Any:
    """One worker's app under `dyo-companion --workers N` (uvicorn's factory, `TableApp.factory`)."""
    return launch.worker_app(TableApp())
