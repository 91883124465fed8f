"""What `dyo-companion` listens on: `--lan --host ADDRESS` is that address only, read off the
kernel's table of listening sockets while the real command runs."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from drivers.browser import free_port

LISTEN = "0A"  # the TCP state of a listening socket in /proc/net/tcp


def listening_on(port: int) -> set[str]:
    """The local addresses with a socket listening on `port` (IPv4 and IPv6)."""
    found = set()
    for table, family in (("/proc/net/tcp", socket.AF_INET), ("/proc/net/tcp6", socket.AF_INET6)):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            address, hex_port = fields[1].split(":")
            if fields[3] == LISTEN and int(hex_port, 16) == port:
                found.add(_address(address, family))
    return found


def _address(hexed: str, family: int) -> str:
    raw = bytes.fromhex(hexed)
    if family == socket.AF_INET:
        return socket.inet_ntop(family, raw[::-1])
    words = b"".join(raw[i : i + 4][::-1] for i in range(0, 16, 4))  # four host-order 32-bit words
    return socket.inet_ntop(family, words)


def _run(tmp_path: Path, *args: str) -> tuple[subprocess.Popen, str]:
    env = dict(os.environ, COMPANION_SETTINGS=str(tmp_path / "settings.json"))
    env.pop("PYTHONMALLOC", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "--no-browser", "--db", f"sqlite:///{tmp_path / 'games.sqlite3'}", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    lines = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if line.startswith("Press Ctrl+C"):
            return proc, "".join(lines)
    proc.kill()
    raise AssertionError(f"the app did not start:\n{''.join(lines)}")


def test_lan_with_host_listens_on_that_address_only(tmp_path: Path) -> None:
    port = free_port()
    proc, printed = _run(tmp_path, "--lan", "--host", "127.0.0.1", "--port", str(port))
    try:
        assert listening_on(port) == {"127.0.0.1"}
        assert f"http://127.0.0.1:{port}/" in printed
        assert "?host=" in printed  # phones are served: the host link for another device is printed
        environ = Path(f"/proc/{proc.pid}/environ").read_bytes().split(b"\0")
        assert b"PYTHONMALLOC=malloc" in environ  # it re-ran itself with the C allocator (memory.py)
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_a_bad_proxy_list_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "--no-browser", "--forwarded-allow-ips", "10.0.0.300"],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, COMPANION_SETTINGS=str(tmp_path / "settings.json")),
    )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "10.0.0.300" in done.stderr


def test_the_bind_plan(monkeypatch) -> None:
    from companion.app.host import launch

    plan = launch.bind_plan
    monkeypatch.setattr(launch, "lan_address", lambda: "192.168.1.20")
    assert plan(True, None, 8550) == (["192.168.1.20", "127.0.0.1"], "http://192.168.1.20:8550/")
    assert plan(True, "127.0.0.1", 8550) == (["127.0.0.1"], "http://127.0.0.1:8550/")
    assert plan(True, "10.1.2.3", 8550) == (["10.1.2.3"], "http://10.1.2.3:8550/")
    assert plan(True, "0.0.0.0", 8550) == (["0.0.0.0"], "http://192.168.1.20:8550/")
    assert plan(False, None, 8550) == (["127.0.0.1"], None)
    assert plan(False, "0.0.0.0", 9000) == (["0.0.0.0"], "http://192.168.1.20:9000/")
    assert plan(False, "10.1.2.3", 9000) == (["10.1.2.3"], "http://10.1.2.3:9000/")
