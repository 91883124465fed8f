"""`--workers N`: uvicorn's supervisor of N workers of the real command on one port, PostgreSQL only.

Workers are counted as the supervisor's children that multiprocessing spawned (`spawn_main` on
their command line): the supervisor also has a child of multiprocessing's own (its resource
tracker), which is no worker. Phones are bare websocket clients (tests/drivers/wire.py) that
tap as a browser does: a click event on the control their screen was sent.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgpack
import pytest

from companion.app.ui.phone.device import TOKEN_PREF

from drivers.browser import free_port
from drivers.wire import WireClient, frame

NAMES = ("Carmen", "Nicholas", "Yellow")
GAME = {"players": [{"name": n} for n in NAMES], "seed": 4}
CONTROL_EVENT = 3  # a browser's event on a control (Flet's wire protocol)


def workers(pid: int) -> list[int]:
    """The supervisor's worker processes (not multiprocessing's resource tracker)."""
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes()
            except OSError:
                continue
            if b"spawn_main" in command:
                out.append(int(child))
    return out


def _sockets(pid: int) -> set[str]:
    out = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            out.add(target[8:-1])
    return out


def _tcp(port: int, state: str) -> set[str]:
    """The inodes of the TCP sockets in `state` whose local port is `port` (the kernel's tables)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[3] == state and int(fields[1].split(":")[1], 16) == port:
            inodes.add(fields[9])
    return inodes


def listens(pid: int, port: int) -> bool:
    return bool(_sockets(pid) & _tcp(port, "0A"))


def connections(pid: int, port: int) -> int:
    """The connections process `pid` has accepted on `port` and holds open."""
    return len(_sockets(pid) & _tcp(port, "01"))


def serves_alone(pid: int, others: list[int], port: int, within: float = 90) -> bool:
    """Whether worker `pid` answers while the `others` are stopped, each time for a moment only
    (the supervisor takes a worker that does not answer its pings for 5 s as hung)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        for other in others:
            os.kill(other, signal.SIGSTOP)
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1.5).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        finally:
            for other in others:
                os.kill(other, signal.SIGCONT)
        time.sleep(1)
    return False


class Supervisor:
    """`dyo-companion --workers N` on a loopback port; its output goes to files (read with `out`, `err`)."""

    def __init__(self, folder: Path, db: str, count: int = 2, *extra: str) -> None:
        self.folder, self.port = folder, free_port()
        env = dict(os.environ, COMPANION_SETTINGS=str(folder / "settings.json"))
        env.pop("PYTHONMALLOC", None)
        with open(folder / "out.txt", "w") as out, open(folder / "err.txt", "w") as err:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "companion",
                    "--no-browser",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--workers",
                    str(count),
                    "--db",
                    db,
                    *extra,
                ],
                env=env,
                stdout=out,
                stderr=err,
            )

    @property
    def out(self) -> str:
        return (self.folder / "out.txt").read_text()

    @property
    def err(self) -> str:
        return (self.folder / "err.txt").read_text()

    def wait_running(self, within: float = 120) -> None:
        deadline = time.monotonic() + within
        while "Press Ctrl+C" not in self.out:
            assert self.proc.poll() is None and time.monotonic() < deadline, self.out + self.err
            time.sleep(0.1)

    def workers(self, count: int, within: float = 60) -> list[int]:
        """The workers once there are `count` of them."""
        deadline = time.monotonic() + within
        while len(found := workers(self.proc.pid)) != count:
            assert time.monotonic() < deadline, found
            time.sleep(0.1)
        return found

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


@pytest.fixture
def supervisor(pg_url: str, tmp_path: Path) -> Iterator[Supervisor]:
    running = Supervisor(tmp_path, pg_url, 2, "--forwarded-allow-ips", "127.0.0.1")
    try:
        running.wait_running()
        yield running
    finally:
        running.stop()


def gone(pid: int) -> bool:
    return not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()


def test_two_workers_serve_one_port_and_a_stopped_one_is_replaced(supervisor: Supervisor) -> None:
    port = supervisor.port
    first = supervisor.workers(2)
    assert all(listens(w, port) for w in first)
    for pid in first:  # each answers on its own: both really serve
        assert serves_alone(pid, [w for w in first if w != pid], port)
    assert supervisor.out.count("is running at") == 1  # the supervisor speaks for all
    assert "?host=" in supervisor.out  # behind a proxy: the host link, with the key the workers share

    os.kill(first[0], signal.SIGTERM)  # one worker stops: the other keeps serving, and another comes
    assert httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=30).json() == {"ok": True}
    deadline = time.monotonic() + 60
    while first[0] in (now := workers(supervisor.proc.pid)) or len(now) != 2:
        assert time.monotonic() < deadline, now
        time.sleep(0.1)
    [replacement] = [w for w in now if w not in first]
    assert serves_alone(replacement, [first[1]], port)
    assert "starting another" in supervisor.err

    assert supervisor.stop() == 0  # SIGTERM stops them all
    assert all(gone(w) for w in now)


def test_workers_refuse_sqlite(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "--no-browser",
            "--port",
            str(free_port()),
            "--workers",
            "2",
            "--db",
            str(tmp_path / "games.sqlite3"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, COMPANION_SETTINGS=str(tmp_path / "settings.json")),
    )
    assert done.returncode == 2 and "PostgreSQL" in done.stderr


def test_the_supervisor_gives_up_on_workers_that_die_before_serving(pg_url: str, tmp_path: Path) -> None:
    """Each worker is killed as it appears: after a few, the supervisor stops, non-zero, so that
    a service manager set to restart on failure does."""
    running = Supervisor(tmp_path, pg_url)
    killed: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        while running.proc.poll() is None and time.monotonic() < deadline:
            for pid in set(workers(running.proc.pid)) - killed:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            time.sleep(0.02)
    finally:
        code = running.stop()
    assert code == 1, running.err
    assert "stopped before serving" in running.err and len(killed) >= 3
    assert "is running at" not in running.out


def test_the_supervisor_stops_when_the_database_cannot_be_used(tmp_path: Path) -> None:
    running = Supervisor(tmp_path, f"postgresql+psycopg2://postgres@127.0.0.1:{free_port()}/postgres")
    try:
        code = running.proc.wait(timeout=120)
    finally:
        running.stop()
    assert code == 2, running.err
    assert "cannot reach the database server" in running.err and "is running at" not in running.out


class Phone(WireClient):
    """A phone's bare client that can tap: it keeps the id of every control its screen was sent
    with an identifier (the latest, as a control shown again may be sent again or kept)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ids: dict[str, int] = {}

    async def take(self, data: bytes) -> None:
        await super().take(data)
        self._index(msgpack.unpackb(data[1:], strict_map_key=False))

    def _index(self, value: Any) -> None:
        if isinstance(value, dict):
            content = value.get("content")
            if value.get("identifier") and isinstance(content, dict) and "_i" in content:
                self.ids[value["identifier"]] = content["_i"]
            for item in value.values():
                self._index(item)
        elif isinstance(value, list):
            for item in value:
                self._index(item)

    @property
    def dropped(self) -> bool:
        return self._reader is None or self._reader.done()

    async def tap(self, identifier: str) -> None:
        await self._ws.send(frame(CONTROL_EVENT, {"target": self.ids[identifier], "name": "click", "data": None}))


async def seated(proxy: Any, game: str, seat: int, token: str, session: str = "") -> Phone:
    """A phone opening its seat's screen through the proxy (as Flet's client reconnects: naming its session)."""
    phone = Phone(proxy.ws, prefs={TOKEN_PREF.format(game=game): token}, ssl=proxy.tls)
    await phone.__aenter__()
    phone.session_id = session
    await phone.register(f"/play/{game}")
    assert await phone.wait_for(f"{NAMES[seat]} · round", timeout=60), f"seat {seat} not shown"
    return phone


async def play(phones: list[Phone], turns: int, acknowledged: list[int], store: Any, game: str) -> None:
    """`turns` turns, each ended from the phone of the seat whose turn it is; a tap is acknowledged
    when that phone shows the next player's turn (written in the store before it is told). A tap
    that comes before the phone's screen shows its turn (or on a button since replaced) does
    nothing, so it taps again, at the button it was last sent, until it is acknowledged."""
    for _ in range(turns):
        seat = store.load(game).game.state.active
        phone, following = phones[seat], f"{NAMES[(seat + 1) % len(NAMES)]}'s turn"
        phone.received = b""
        deadline = time.monotonic() + 60
        while True:
            if "action-end_turn" in phone.ids:
                await phone.tap("action-end_turn")
            if await phone.wait_for(following, timeout=2):
                break
            assert time.monotonic() < deadline and not phone.dropped, f"seat {seat}: not acknowledged"
        acknowledged.append(seat)


def test_a_worker_killed_behind_nginx_is_replaced_and_its_phones_come_back(
    supervisor: Supervisor, pg_url: str, tmp_path: Path
) -> None:
    from companion.bench.instance import Instance
    from companion.bench.proxy import Proxy, nginx_binary

    if nginx_binary() is None:
        pytest.fail("the proxy test needs nginx: install Debian's package (apt-get install nginx; .ci/run does)")
    port = supervisor.port
    first = supervisor.workers(2)
    proxy = Proxy(tmp_path, [port])

    async def run() -> tuple[list[int], list[int], int, dict[int, int]]:
        driver = Instance(pg_url, tmp_path, "driver")  # makes the game and seats the phones, as the host would
        store = driver.store
        try:
            game = store.create_game(GAME)
            secret = store.devices.secret(game)
            tokens = [driver.services.join.join(game, secret, "127.0.0.1", seat, "phone")[1] for seat in range(3)]
            phones = [await seated(proxy, game, seat, token) for seat, token in enumerate(tokens)]
            acknowledged: list[int] = []
            await play(phones, 3, acknowledged, store, game)

            held = {pid: connections(pid, port) for pid in first}  # only the phones' websockets reach them
            victim = max(held, key=lambda pid: held[pid])
            os.kill(victim, signal.SIGKILL)
            deadline = time.monotonic() + 30
            while sum(phone.dropped for phone in phones) < held[victim]:
                assert time.monotonic() < deadline, "nginx kept the phones of the dead worker"
                await asyncio.sleep(0.1)
            dropped = [seat for seat, phone in enumerate(phones) if phone.dropped]
            for seat in dropped:  # back through nginx, to whichever worker takes them
                await phones[seat].close()
                phones[seat] = await seated(proxy, game, seat, tokens[seat], phones[seat].session_id)
            await play(phones, 4, acknowledged, store, game)
            assert not any(phone.dropped for phone in phones)
            log = [(entry.action or {}) for entry in store.events(game)]
            for phone in phones:
                await phone.close()
            return acknowledged, dropped, victim, {seat: action.get("player") for seat, action in enumerate(log)}
        finally:
            driver.close()

    try:
        acknowledged, dropped, victim, log = asyncio.run(run())
        now = supervisor.workers(2)
        assert victim not in now
        [replacement] = [pid for pid in now if pid not in first]
        assert serves_alone(replacement, [pid for pid in now if pid != replacement], port)
    finally:
        proxy.stop()
    assert dropped, "the killed worker held no phone"
    assert acknowledged == [0, 1, 2, 0, 1, 2, 0]
    assert log == dict(enumerate(acknowledged)), "every acknowledged tap is in the log, and nothing else"
    assert "starting another" in supervisor.err
