"""Instances behind the example nginx configuration (assets/hosting/nginx.conf), on loopback:
what the scale tests and `bench tables` start.

Each instance is the real command (`dyo-companion --host 127.0.0.1 --port P --db URL
--forwarded-allow-ips 127.0.0.1`) in a process of its own. nginx runs in the foreground as a
child, from a folder of its own (its temporary files, log and pid there), with a throwaway
self-signed certificate made by the `openssl` command.
"""

from __future__ import annotations

import os
import shutil
import ssl
import subprocess
import sys
import time
from pathlib import Path

from companion.app.host.server import assets_dir
from companion.bench import stop_process

from drivers.browser import free_port

NGINX = ("nginx", "/usr/sbin/nginx")
# Each response (a websocket's handshake too) names the instance that took it: `bench tables`
# reports each instance's figures. Only here, not in the example an operator copies.
UPSTREAM = "X-Upstream"
UPSTREAM_HEADER = f"    add_header {UPSTREAM} $upstream_addr always;"


def nginx_binary() -> str | None:
    for name in NGINX:
        found = shutil.which(name) or (name if os.path.isabs(name) and os.access(name, os.X_OK) else None)
        if found:
            return found
    return None


def start_instance(db_url: str, folder: Path, port: int | None = None) -> tuple[subprocess.Popen[str], int]:
    """One instance of the command on a loopback port; returned once it says it is running."""
    port = port or free_port()
    env = dict(os.environ, COMPANION_SETTINGS=str(folder / f"settings-{port}.json"))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "--no-browser",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            db_url,
            "--forwarded-allow-ips",
            "127.0.0.1",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    seen: list[str] = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        seen.append(line)
        if line.startswith("Press Ctrl+C"):
            return proc, port
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise RuntimeError("an instance did not start: " + "".join(seen)[-2000:])


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (and its key), valid for a day."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def site_config(upstreams: list[int], listen: int, http_listen: int, cert: Path, key: Path) -> str:
    """The example configuration with its placeholders filled for loopback."""
    values = {
        "@UPSTREAMS@": "\n    ".join(f"server 127.0.0.1:{port};" for port in upstreams),
        "@LISTEN@": f"127.0.0.1:{listen}",
        "@HTTP_LISTEN@": f"127.0.0.1:{http_listen}",
        "@SERVER_NAME@": "127.0.0.1",
        "@CERTIFICATE_KEY@": str(key),
        "@CERTIFICATE@": str(cert),
    }
    out = []
    for line in (assets_dir() / "hosting" / "nginx.conf").read_text(encoding="utf-8").splitlines():
        if not line.lstrip().startswith("#"):  # the comments name the placeholders: they stay as written
            for name, value in values.items():
                line = line.replace(name, value)
            if "@" in line:
                raise ValueError(f"a placeholder of the nginx example was left unfilled: {line.strip()}")
        out.append(line)
    return "\n".join(out) + "\n"


class Proxy:
    """nginx in front of `upstreams`, on https://127.0.0.1:`port`/ (stop it with `stop`)."""

    def __init__(self, folder: Path, upstreams: list[int]) -> None:
        binary = nginx_binary()
        if binary is None:
            raise FileNotFoundError("nginx is not installed: apt-get install nginx")
        self.folder = folder / "nginx"
        self.folder.mkdir(parents=True, exist_ok=True)
        cert, key = certificate(self.folder)
        self.port = free_port()
        (self.folder / "site.conf").write_text(
            site_config(upstreams, self.port, free_port(), cert, key), encoding="utf-8"
        )
        temp = "\n".join(
            f"    {kind}_temp_path {self.folder / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (self.folder / "nginx.conf").write_text(
            f"daemon off;\nworker_processes 1;\npid {self.folder / 'nginx.pid'};\n"
            f"error_log {self.folder / 'error.log'};\n"
            f"events {{ worker_connections 4096; }}\nhttp {{\n    access_log off;\n{temp}\n{UPSTREAM_HEADER}\n"
            f"    include {self.folder / 'site.conf'};\n}}\n",
            encoding="utf-8",
        )
        self.proc = subprocess.Popen(
            [
                binary,
                "-p",
                str(self.folder),
                "-e",
                str(self.folder / "error.log"),
                "-c",
                str(self.folder / "nginx.conf"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._wait_ready()
        self.tls = ssl.create_default_context(cafile=str(cert))

    def _wait_ready(self) -> None:
        import socket

        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx stopped: {self.proc.stderr.read() if self.proc.stderr else ''}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start listening")

    @property
    def ws(self) -> str:
        return f"wss://127.0.0.1:{self.port}/ws"

    def stop(self) -> None:
        stop_process(self.proc)
