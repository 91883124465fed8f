"""`dyo-companion` with no subcommand: serve the table app.

Web mode (default): the app is served on localhost (`--host`, `--port`), its address printed,
and a browser opened when one is available (`--no-browser` to skip; on a Linux box without a
display there is none, so it only prints). `--lan` serves on the address this machine has on
the local network (as detected, plus localhost for the host's own browser) so phones can join
by the QR code; `--host` names the address instead (with `--lan`: that address only). Served
beyond localhost, only this machine's browsers (or one given the host link printed at start)
get the host's screens. `--forwarded-allow-ips` names the reverse proxies whose
`X-Forwarded-For` is believed; a client reached through one needs the host link.
`--desktop` opens the native Flet window instead, where the Flet desktop client
(`pip install flet-desktop`) is installed. `--workers N` serves with N worker processes under
uvicorn's supervisor (workers.py), which prints the address once a worker answers.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import http.client
import importlib.util
import logging
import os
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from . import instances, memory
from .net import LAN_COMMAND, Network, is_loopback, networks, reachable_url

if TYPE_CHECKING:  # storage is imported once the server listens (see `run_app`)
    from storage import Store

# The largest websocket frame a client may send: a game file imported from the browser travels in
# one; everything else a client sends is a few hundred bytes (uvicorn's default is 16 MiB).
WS_MAX_BYTES = 8 * 1024 * 1024
log = logging.getLogger(__name__)
# How every server of the command runs, alone or as one of `--workers`. Forwarded headers are
# judged by the app itself (door/peer.py), never by uvicorn's defaults.
SERVER_SETTINGS: dict[str, Any] = {
    "log_level": "warning",
    "lifespan": "on",
    "ws_ping_interval": 20,
    "ws_ping_timeout": 30,
    "ws_max_size": WS_MAX_BYTES,
    "proxy_headers": False,
}


# Once it listens, the server answers the browser's first request before it builds the rest of
# the app (which holds the interpreter for a while), or waits this long at most.
FIRST_ANSWER_WAIT = 1.0


def _ready() -> None:
    """Nothing left to build once the server listens."""


@dataclass(frozen=True)
class WebApp:
    """What the command serves: the ASGI application, how it makes the link that gives this
    machine's own browser the host's rights when it comes from a non-loopback address, and what
    is left to build once the server listens (called on a thread of its own, before the
    database opens; a session or route that comes sooner waits for it)."""

    asgi: Any
    host_link: Callable[[str], str]
    start: Callable[[], None] = _ready


class Served(Protocol):
    """The app this process serves, put together above this layer (companion/app/entry/web.py)."""

    @property
    def factory(self) -> str:
        """The import string ("module:function") of what builds the web app in a worker of
        `--workers`, with no argument: it calls `worker_app`."""
        ...

    def web(self, store: Future[Store], lan_url: str | None, proxies: tuple[Network, ...]) -> WebApp: ...

    def desktop(self, store: Store) -> Callable[[Any], None]: ...

    def host_link(self, db: str | None) -> Callable[[str], str]:
        """For the supervisor of `--workers`, which serves nothing itself: the host link made
        with the key the workers read from the database."""
        ...


@dataclass(frozen=True)
class Plan:
    """Where and how the command serves, read from its options and checked before anything listens."""

    hosts: list[str]
    port: int
    db: str | None
    lan_url: str | None
    proxies: tuple[Network, ...]
    open_browser: bool

    @property
    def shown(self) -> str:
        """The address the command prints (and the supervisor asks whether a worker answers)."""
        return _shown(self.hosts[-1])


def run_app(args: argparse.Namespace, served: Served) -> int:
    if getattr(args, "desktop", False):
        store = _open_store(getattr(args, "db", None))
        return 2 if store is None else _desktop(served.desktop(store))
    plan = _plan(args)
    if isinstance(plan, str):
        print(plan, file=sys.stderr)
        return 2
    workers = int(getattr(args, "workers", 1) or 1)
    if workers > 1:
        return serve_workers(plan, workers, served, str(getattr(args, "log_level", None) or "WARNING"))
    # The rest of the app (`WebApp.start`: the screens, the engine, storage) is imported and the
    # database opened once the server listens, while the browser loads the Flutter client: the
    # server answers as soon as a bare Flet app would, and the first table appears no later.
    opening: Future[Store] = Future()
    return serve(served.web(opening, plan.lan_url, plan.proxies), opening, plan)


def _plan(args: argparse.Namespace) -> Plan | str:
    """The plan, or the one line that says why there is none."""
    port = int(getattr(args, "port", 8550) or 8550)
    try:
        proxies = networks((getattr(args, "forwarded_allow_ips", None) or "").split(","))
    except ValueError as error:
        return f"dyo-companion: --forwarded-allow-ips: {error}"
    hosts, lan_url = bind_plan(bool(getattr(args, "lan", False)), getattr(args, "host", None), port)
    for host in hosts:
        problem = _port_problem(host, port)
        if problem:
            return problem
    return Plan(hosts, port, getattr(args, "db", None), lan_url, proxies, not getattr(args, "no_browser", False))


def bind_plan(lan: bool, host: str | None, port: int) -> tuple[list[str], str | None]:
    """The addresses to listen on, and the base of the join links (None: this machine only).

    `--lan`: the detected LAN address and loopback (the host's own browser stays the host's).
    `--lan --host ADDRESS`: that address only, named in the links.
    `--host` beyond loopback: that address (every interface for 0.0.0.0/::; the links then
    name the detected LAN address).
    """
    if lan and host:
        shown = lan_address() if host in ("0.0.0.0", "::") else host
        return [host], f"http://{_url_host(shown)}:{port}/"
    if lan:
        address = lan_address()
        hosts = ["127.0.0.1"] if is_loopback(address) else [address, "127.0.0.1"]
        return hosts, f"http://{_url_host(address)}:{port}/"
    host = host or "127.0.0.1"
    if is_loopback(host):
        return [host], None
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    return [host], f"http://{_url_host(shown)}:{port}/"


def _url_host(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def _finish(app: WebApp, opening: Future[Store], url: str | None) -> BaseException | None:
    """Once the server listens: the rest of the app built, then the database opened; what went wrong."""
    try:
        app.start()
    except BaseException as error:  # a broken install, most likely: the trace goes to the log
        log.exception("the app could not be put together")
        opening.set_exception(error)
        return error
    _open_into(opening, url)
    return opening.exception()


def _open_into(future: Future[Store], url: str | None) -> None:
    try:
        from storage import Store

        store = Store(url=url)
        try:
            instances.claim(store)
        except BaseException:
            store.close()
            raise
        future.set_result(store)
        memory.settle_collector()
    except BaseException as error:  # reported by whoever waits for the store
        future.set_exception(error)


def _reason(error: BaseException) -> str:
    return f"dyo-companion: {getattr(error, 'message', error)}"


def _open_store(url: str | None) -> Store | None:
    try:
        from storage import StorageError, Store
    except ImportError as error:  # pragma: no cover - broken install
        print(
            f"dyo-companion: the storage package is missing ({error}); reinstall with pip install -e .", file=sys.stderr
        )
        return None
    try:
        return Store(url=url)
    except StorageError as error:
        print(f"dyo-companion: {getattr(error, 'message', error)}", file=sys.stderr)
        return None


def _port_problem(host: str, port: int) -> str | None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return (
                    f"dyo-companion: port {port} on {host} is already in use (is the companion already running? "
                    f"open http://{_shown(host)}:{port}/ or choose another port with --port {port + 1})"
                )
            return f"dyo-companion: cannot listen on {host}:{port}: {error.strerror}"
    return None


def _shown(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "::", "") else host


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            address: str = s.getsockname()[0]
            return address
    except OSError:
        return socket.gethostbyname(socket.gethostname())


def browser_available() -> bool:
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        webbrowser.get()
    except webbrowser.Error:
        return False
    return True


def phones_line(lan_url: str | None, proxies: tuple[Network, ...] = ()) -> str | None:
    """What the start says of phones: where they join, or plainly that they cannot and how to start
    so that they can (a join link naming this machine itself opens on no phone)."""
    if lan_url and reachable_url(lan_url):
        return f"Phones on this network join by the QR code on a game's table view ({lan_url})."
    if proxies:  # phones come through the proxy, by the address the table view was opened with
        return None
    if lan_url:
        return (
            f"Phones cannot open the join QR code: {lan_url} is this machine itself "
            "(connect it to the table's network, or name its address with --host)."
        )
    return (
        "Phones cannot join: this address is this computer only, and a join QR code of it opens on no phone. "
        f"To play with phones, stop (Ctrl+C) and start: {LAN_COMMAND}"
    )


def serve(app: WebApp, opening: Future[Store], plan: Plan) -> int:
    """One server: the address printed once it listens and its database is open."""
    import uvicorn

    gate = FirstAnswer(app.asgi)
    server = uvicorn.Server(uvicorn.Config(gate, host=plan.hosts[0], port=plan.port, **SERVER_SETTINGS))
    failed: list[BaseException] = []

    def announce() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if not server.started:
            return
        gate.answered.wait(FIRST_ANSWER_WAIT)
        error = _finish(app, opening, plan.db)
        if error is not None:  # a database that cannot be used (or an app that cannot be built): say why, stop
            print(_reason(error), file=sys.stderr, flush=True)
            failed.append(error)
            server.should_exit = True
            return
        say_running(plan, app.host_link)

    threading.Thread(target=announce, daemon=True).start()
    try:
        server.run(sockets=_listen(plan.hosts, plan.port) if len(plan.hosts) > 1 else None)
    except KeyboardInterrupt:
        pass
    if failed:
        return 2
    return 0 if server.started else 3


def say_running(plan: Plan, host_link: Callable[[str], str]) -> None:
    """The address, printed once for the whole command, and the browser opened on it."""
    url = f"http://{_url_host(plan.shown)}:{plan.port}/"
    if not is_loopback(plan.shown):  # this machine's own browser comes from that address: it needs the key
        url = host_link(url)
    print(f"Dig Your Way Out companion is running at {url}", flush=True)
    if phones := phones_line(plan.lan_url, plan.proxies):
        print(phones, flush=True)
    if (plan.lan_url or plan.proxies) and is_loopback(plan.shown):  # else the address above already carries the key
        print(
            f"The host's screens from another device (keep it private): {host_link(plan.lan_url or url)}",
            flush=True,
        )
    print("Press Ctrl+C to stop.", flush=True)
    if plan.open_browser and browser_available():
        webbrowser.open(url)
    elif plan.open_browser:
        print("(No browser found here: open the address above in one.)", flush=True)


def serve_workers(plan: Plan, count: int, served: Served, log_level: str) -> int:
    """`--workers N`: uvicorn's supervisor of N workers accepting on the sockets bound here
    (workers.py). Exits 0 when stopped (SIGTERM, Ctrl+C), 2 when the options or the database
    cannot be used, 1 when it gave up on its workers."""
    import uvicorn

    from . import workers

    refused = instances.workers_refused(plan.db)
    if refused:
        print(refused, file=sys.stderr)
        return 2
    sockets = _listen(plan.hosts, plan.port)
    options = instances.WorkerOptions(
        tuple(plan.hosts), plan.port, plan.db, plan.lan_url, tuple(str(net) for net in plan.proxies)
    )
    os.environ[instances.OPTIONS_ENV] = options.to_json()  # each worker starts with this environment
    config = uvicorn.Config(
        served.factory,
        factory=True,
        workers=count,
        host=plan.hosts[0],
        port=plan.port,
        timeout_worker_healthcheck=workers.HEALTHCHECK_SECONDS,
        **SERVER_SETTINGS,
        log_config=workers.worker_logging(log_level),
    )
    supervisor = workers.Supervisor(config, sockets)
    failed: list[BaseException] = []

    def announce() -> None:
        """The address, printed by the supervisor alone once a worker answers. The supervisor
        reads the database too, as the workers start (the host key of the printed links): one
        that cannot be used stops the command with its reason, before any worker gives up on it."""
        try:
            link = served.host_link(plan.db)
        except Exception as error:
            print(_reason(error), file=sys.stderr, flush=True)
            failed.append(error)
            supervisor.should_exit.set()
            return
        while not _answers(plan.shown, plan.port, "/api/health"):
            if supervisor.should_exit.wait(0.1):
                return
        say_running(plan, link)

    threading.Thread(target=announce, daemon=True).start()
    supervisor.run()
    for sock in sockets:
        sock.close()
    if failed:
        return 2
    return 1 if supervisor.gave_up else 0


def _answers(host: str, port: int, path: str) -> bool:
    connection = http.client.HTTPConnection(host, port, timeout=2)
    try:
        connection.request("GET", path)
        return connection.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def worker_app(served: Served) -> Any:
    """The web app of one worker of `--workers`, built in the worker from the options the
    supervisor set (`served.factory` calls this). The rest of it is built and its database opened
    once it listens; a database that cannot be opened stops the worker with uvicorn's start-up
    failure, so the supervisor gives up."""
    from uvicorn.config import STARTUP_FAILURE

    try:
        options = instances.WorkerOptions.from_env()
    except instances.WorkerOptionsError as error:
        print(f"dyo-companion: {error}", file=sys.stderr, flush=True)
        raise SystemExit(STARTUP_FAILURE) from None
    opening: Future[Store] = Future()
    app = served.web(opening, options.lan_url, networks(options.proxies))

    def finish() -> None:
        error = _finish(app, opening, options.db)
        if error is not None:
            print(_reason(error), file=sys.stderr, flush=True)
            os._exit(STARTUP_FAILURE)  # nothing of this worker is worth a clean stop: it never had a store

    return after_listening(app.asgi, finish)


def after_listening(app: Any, then: Callable[[], None]) -> Any:
    """`app`, calling `then` on a thread of its own once the server listens and has answered its
    first request (`FIRST_ANSWER_WAIT` at most). It listens when the lifespan's start-up is over:
    uvicorn's very next step puts the sockets it was given in listening (a worker is always given
    its sockets), before this callback's turn comes."""
    gate = FirstAnswer(app)

    def later() -> None:
        gate.answered.wait(FIRST_ANSWER_WAIT)
        then()

    async def asgi(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan":
            await gate(scope, receive, send)
            return

        async def sent(message: Any) -> None:
            await send(message)
            if message.get("type") == "lifespan.startup.complete":
                start = threading.Thread(target=later, name="after-listening", daemon=True).start
                asyncio.get_running_loop().call_soon(start)

        await app(scope, receive, sent)

    return asgi


class FirstAnswer:
    """`app`, noting when it has finished answering an HTTP request for the first time."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.answered = threading.Event()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or self.answered.is_set():
            await self.app(scope, receive, send)
            return

        async def sending(message: Any) -> None:
            await send(message)
            if message.get("type") == "http.response.body" and not message.get("more_body"):
                self.answered.set()

        await self.app(scope, receive, sending)


def _listen(hosts: list[str], port: int) -> list[socket.socket]:
    """One listening socket per address (uvicorn itself binds a single one)."""
    out = []
    for host in hosts:
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.set_inheritable(True)
        out.append(sock)
    return out


def _desktop(main: Callable[[Any], None]) -> int:
    if importlib.util.find_spec("flet_desktop") is None:
        print(
            "dyo-companion: --desktop needs the Flet desktop client: pip install 'flet-desktop==1.0.5' "
            "(or run without --desktop and use the browser)",
            file=sys.stderr,
        )
        return 2
    import flet as ft

    from .server import assets_dir

    ft.run(main, view=ft.AppView.FLET_APP, assets_dir=str(assets_dir()))
    return 0
