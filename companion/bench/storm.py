"""The `storm` benchmark suite (`dyo-companion bench storm`): what a reconnect storm leaves behind.

The real command serves a six-seat game (`--lan --host 127.0.0.1`, behind a "proxy" on loopback
so that every client is a device on the network, each with a forwarded address of its own).
Bare Flet clients (wire.py) open 600 sessions over a minute, half of them seated phones (a
device token in their storage), half strangers with no key; each shows its screen and drops
its socket, as a phone losing wifi does. The server's resident memory is read before, at the
end of the storm, once the keyless sessions' grace period is over, and once every session's is.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.app.ui.phone.device import TOKEN_PREF
from companion.app.ui.shell import KEYLESS_SESSION_SECONDS, SESSION_SECONDS
from companion.bench import rss_mb, stop_process

from drivers.browser import free_port
from drivers.wire import WireClient

SESSIONS = 600
STORM_SECONDS = 60
EVICTION_SLACK = 15  # Flet looks for expired sessions every 10 s
GAME: dict[str, Any] = {
    "players": [{"name": n} for n in ("Carmen", "Nicholas", "Yellow", "Dana", "Eli", "Fran")],
    "seed": 9,
}


def _serve(folder: Path, port: int) -> subprocess.Popen[str]:
    env = dict(os.environ, COMPANION_SETTINGS=str(folder / "settings.json"))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "--no-browser",
            "--lan",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--forwarded-allow-ips",
            "127.0.0.0/8",
            "--db",
            f"sqlite:///{folder / 'games.sqlite3'}",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.startswith("Press Ctrl+C"):
            return proc
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise RuntimeError("the app did not start")


async def _one(url: str, n: int, route: str, prefs: dict[str, str], marker: str) -> bool:
    forwarded = {"X-Forwarded-For": f"10.{n // 250 % 250}.{n % 250}.{1 + n % 7}"}
    try:
        async with WireClient(url, headers=forwarded, prefs=prefs) as client:
            await client.register(route)
            return await client.wait_for(marker, timeout=30) is not None
    except OSError:
        return False


async def _storm(url: str, game_id: str, tokens: list[str]) -> int:
    """SESSIONS sessions started evenly over STORM_SECONDS; how many showed their screen."""
    tasks = []
    started = time.monotonic()
    for n in range(SESSIONS):
        if n % 2:
            prefs = {TOKEN_PREF.format(game=game_id): tokens[n // 2 % len(tokens)]}
            tasks.append(asyncio.create_task(_one(url, n, f"/play/{game_id}", prefs, "my-hand")))
        else:
            tasks.append(asyncio.create_task(_one(url, n, f"/game/{game_id}", {}, "join-neutral")))
        await asyncio.sleep(max(0.0, started + (n + 1) * STORM_SECONDS / SESSIONS - time.monotonic()))
    return sum(await asyncio.gather(*tasks))


def _measure(folder: Path) -> dict[str, Any]:
    from companion.app.services.joining import JoinService
    from storage import Store

    store = Store(url=f"sqlite:///{folder / 'games.sqlite3'}")
    game_id = store.create_game(GAME)
    join = JoinService(store)
    secret = store.devices.secret(game_id)
    tokens = [join.join(game_id, secret, "127.0.0.1", seat, "bench")[1] for seat in range(len(GAME["players"]))]
    store.close()
    port = free_port()
    proc = _serve(folder, port)
    url = f"ws://127.0.0.1:{port}/ws"
    try:
        asyncio.run(_one(url, 0, f"/play/{game_id}", {TOKEN_PREF.format(game=game_id): tokens[0]}, "my-hand"))
        time.sleep(2)
        before = rss_mb(proc.pid)
        started = time.monotonic()
        shown = asyncio.run(_storm(url, game_id, tokens))
        storm_seconds = time.monotonic() - started
        peak = rss_mb(proc.pid)
        time.sleep(KEYLESS_SESSION_SECONDS + EVICTION_SLACK)
        keyless_gone = rss_mb(proc.pid)
        time.sleep(max(0.0, SESSION_SECONDS + EVICTION_SLACK - (time.monotonic() - started - storm_seconds)))
        all_gone = rss_mb(proc.pid)
    finally:
        stop_process(proc)
    return {
        "shown": shown,
        "seconds": storm_seconds,
        "before": before,
        "peak": peak,
        "keyless_gone": keyless_gone,
        "all_gone": all_gone,
    }


def storm_suite() -> list[tuple[str, str, str]]:
    with tempfile.TemporaryDirectory() as folder:
        m = _measure(Path(folder))
    base = m["before"]
    return [
        (
            f"storm: {SESSIONS} sessions over {m['seconds']:.0f} s (half seated phones, half keyless), screens shown",
            f"{m['shown']} of {SESSIONS}",
            f"{SESSIONS}",
        ),
        ("storm: server memory at the end of the storm", f"{m['peak'] - base:+.0f} MB (from {base:.0f} MB)", "-"),
        (
            f"storm: ... once the keyless sessions expired ({KEYLESS_SESSION_SECONDS} s)",
            f"{m['keyless_gone'] - base:+.0f} MB",
            "-",
        ),
        (
            f"storm: ... once every session expired ({SESSION_SECONDS} s)",
            f"{m['all_gone'] - base:+.0f} MB",
            "< +100 MB",
        ),
    ]
