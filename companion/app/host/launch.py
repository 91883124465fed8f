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
(`pip install flet-desktop`) is installed.
"""

from __future__ import annotations

import argparse
import errno
import importlib.util
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


def use_system_allocator(argv: list[str]) -> None:
    """Run this command again with the C allocator for Python objects (memory.py says why); on
    Linux, where it can hand freed memory back, and only once (the variable is then set)."""
    if not sys.platform.startswith("linux") or "PYTHONMALLOC" in os.environ:
        return
    env = dict(os.environ, PYTHONMALLOC="malloc")
    try:
        os.execve(sys.executable, [sys.executable, "-m", "companion", *argv], env)
    except OSError:  # cannot re-run (an unusual interpreter): serve as we are
        pass


@dataclass(frozen=True)
class WebApp:
    """What the command serves: the ASGI application, and how it makes the link that gives this
    machine's own browser the host's rights when it comes from a non-loopback address."""

    asgi: Any
    host_link: Callable[[str], str]


class Served(Protocol):
    """The app this process serves, put together above this layer (companion/app/entry/web.py)."""

    def web(self, store: Future[Store], lan_url: str | None, proxies: tuple[Network, ...]) -> WebApp: ...

    def desktop(self, store: Store) -> Callable[[Any], None]: ...


def run_app(args: argparse.Namespace, served: Served) -> int:
    if getattr(args, "desktop", False):
        store = _open_store(getattr(args, "db", None))
        return 2 if store is None else _desktop(served.desktop(store))
    port = int(getattr(args, "port", 8550) or 8550)
    workers = int(getattr(args, "workers", 1) or 1)
    if workers > 1:
        return instances.run_workers(workers, getattr(args, "db", None), sys.argv[1:])
    try:
        proxies = networks((getattr(args, "forwarded_allow_ips", None) or "").split(","))
    except ValueError as error:
        print(f"dyo-companion: --forwarded-allow-ips: {error}", file=sys.stderr)
        return 2
    hosts, lan_url = bind_plan(bool(getattr(args, "lan", False)), getattr(args, "host", None), port)
    for host in hosts if instances.worker_number() is None else ():  # workers share the port on purpose
        problem = _port_problem(host, port)
        if problem:
            print(problem, file=sys.stderr)
            return 2
    # The database opens (storage imports, migrations) once the server listens, while the browser
    # loads the Flutter client: the first table appears sooner.
    opening: Future[Store] = Future()
    opening.opener = lambda: _open_into(opening, getattr(args, "db", None))  # type: ignore[attr-defined]
    return serve(
        served.web(opening, lan_url, proxies),
        opening,
        hosts,
        port,
        lan_url=lan_url,
        proxies=proxies,
        open_browser=not getattr(args, "no_browser", False),
    )


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
    except BaseException as error:  # reported by the announcer, which stops the server
        future.set_exception(error)


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


def serve(
    app: WebApp,
    store: Store | Future[Store],
    hosts: list[str],
    port: int,
    *,
    lan_url: str | None = None,
    proxies: tuple[Network, ...] = (),
    open_browser: bool = True,
) -> int:
    import uvicorn

    # Forwarded headers are judged by the app itself (door/peer.py), never by uvicorn's defaults.
    server = uvicorn.Server(
        uvicorn.Config(
            app.asgi,
            host=hosts[0],
            port=port,
            log_level="warning",
            lifespan="on",
            ws_ping_interval=20,
            ws_ping_timeout=30,
            ws_max_size=WS_MAX_BYTES,
            proxy_headers=False,
        )
    )
    shown = _shown(hosts[-1])
    url = f"http://{_url_host(shown)}:{port}/"
    worker = instances.worker_number()

    def announce() -> None:
        nonlocal url
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if not server.started:
            return
        if isinstance(store, Future):
            opener = getattr(store, "opener", None)
            if opener is not None and not store.done():
                opener()
            try:
                store.result()
            except BaseException as error:  # a database that cannot be used: say why and stop
                print(f"dyo-companion: {getattr(error, 'message', error)}", file=sys.stderr, flush=True)
                failed.append(error)
                server.should_exit = True
                return
        memory.settle_collector()
        if not is_loopback(shown):  # this machine's own browser comes from that address: it needs the key
            url = app.host_link(url)
        if worker:  # the first worker speaks for them all
            return
        print(f"Dig Your Way Out companion is running at {url}", flush=True)
        if phones := phones_line(lan_url, proxies):
            print(phones, flush=True)
        if (lan_url or proxies) and is_loopback(shown):  # else the address above already carries the key
            print(
                f"The host's screens from another device (keep it private): {app.host_link(lan_url or url)}",
                flush=True,
            )
        print("Press Ctrl+C to stop.", flush=True)
        if open_browser and browser_available():
            webbrowser.open(url)
        elif open_browser:
            print("(No browser found here: open the address above in one.)", flush=True)

    failed: list[BaseException] = []
    threading.Thread(target=announce, daemon=True).start()
    try:
        sockets: list[socket.socket] | None = None
        if worker is not None:
            sockets = [instances.reuse_port_socket(host, port) for host in hosts]
        elif len(hosts) > 1:
            sockets = _listen(hosts, port)
        server.run(sockets=sockets)
    except KeyboardInterrupt:
        pass
    if failed:
        return 2
    return 0 if server.started else 3


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
