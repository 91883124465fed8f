"""Compressed copies of the web client's files, made once and kept on disk.

A copy is named by the hash of the file's content and its coding (`<sha256>.br`, `<sha256>.gz`)
in the cache folder, so it can only ever be served for those bytes, whatever Flet version, app
version or install asks for it; any number of servers share the folder. The first start of a
new Flet version (or of new assets) finds copies missing and starts one builder process at the
lowest priority, which writes gzip copies of everything first (seconds), then brotli's best
(minutes for the big wasm files, the ones phones load first); until a copy exists the file is
served as it is, or in the coding that exists. Each copy is written under a spare name and
renamed into place, so a copy is whole or absent. One builder works at a time (a lock file);
a server that finds the lock taken leaves the work to it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from . import encodings
from .client_files import ClientFile, Hashes

log = logging.getLogger(__name__)

ENV = "COMPANION_WEB_CACHE"  # where the copies are kept (default: the user's cache folder)
# The files a phone loads at start, on Chromium's wasm path then Safari's JavaScript path: their
# brotli copies are made first.
FIRST = (
    "main.dart.wasm",
    "canvaskit/skwasm.wasm",
    "main.dart.js",
    "canvaskit/canvaskit.wasm",
    "canvaskit/chromium/canvaskit.wasm",
    "canvaskit/skwasm_heavy.wasm",
)
SMALL = 256 * 1024  # files under this are compressed first: many files, little time


def cache_root() -> Path:
    configured = os.environ.get(ENV)
    if configured:
        return Path(configured)
    import platformdirs

    return Path(platformdirs.user_cache_dir("dyo-companion", appauthor=False)) / "web-client"


class Store:
    """The cache folder: the client's hashes and the compressed copies."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files = root / "files"

    def hashes(self) -> Hashes:
        return Hashes(self.root / "hashes.json")

    def path(self, sha: str, coding: str) -> Path:
        return self.files / f"{sha}{encodings.SUFFIX[coding]}"

    def find(self, sha: str, coding: str) -> Path | None:
        path = self.path(sha, coding)
        return path if path.is_file() else None

    def missing(self, files: Iterable[ClientFile]) -> list[tuple[ClientFile, str]]:
        """The copies still to make, in the order they are made (see the module's docstring)."""
        todo = [f for f in files if f.compressible and f.source is not None]
        gzip = [(f, "gzip") for f in sorted(todo, key=lambda f: f.size)]
        first = {url: rank for rank, url in enumerate(FIRST)}
        brotli_order = sorted(todo, key=lambda f: (f.size >= SMALL, first.get(f.url, len(FIRST)), f.size))
        brotli = [(f, "br") for f in brotli_order] if "br" in encodings.available() else []
        return [(f, coding) for f, coding in gzip + brotli if self.find(f.sha, coding) is None]

    def make(self, source: Path, sha: str, coding: str) -> None:
        """One copy, whole or not at all."""
        target = self.path(sha, coding)
        if target.is_file():
            return
        self.files.mkdir(parents=True, exist_ok=True)
        spare = target.with_name(f"{target.name}.{os.getpid()}.part")
        try:
            spare.write_bytes(encodings.compress(source.read_bytes(), coding))
            os.replace(spare, target)
        finally:
            with contextlib.suppress(FileNotFoundError):
                spare.unlink()

    @contextlib.contextmanager
    def lock(self, wait: bool) -> Iterator[bool]:
        """Held while building; yields False when another builder holds it and `wait` is off.
        Where there is no `fcntl` (Windows) two builders may work at once, harmlessly."""
        self.root.mkdir(parents=True, exist_ok=True)
        try:
            import fcntl
        except ImportError:
            yield True
            return
        with open(self.root / "build.lock", "a+b") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


def build(store: Store, files: Iterable[ClientFile], *, codings: tuple[str, ...] = encodings.PREFERRED) -> int:
    """Make every missing copy in `codings` now, waiting for a builder already at work; the
    number made."""
    made = 0
    with store.lock(wait=True):
        for file, coding in store.missing(files):
            if coding in codings and file.source is not None:
                store.make(file.source, file.sha, coding)
                made += 1
    return made


def build_in_background(store: Store, files: Iterable[ClientFile]) -> subprocess.Popen[bytes] | None:
    """Start the builder process when copies are missing (see the module's docstring)."""
    todo = store.missing(files)
    if not todo:
        return None
    store.root.mkdir(parents=True, exist_ok=True)
    listing = store.root / f"todo.{os.getpid()}.json"
    listing.write_text(json.dumps([[str(f.source), f.sha, coding] for f, coding in todo]), encoding="utf-8")
    log.info("compressing the web client's files in the background (%d copies) into %s", len(todo), store.root)
    return subprocess.Popen(
        [sys.executable, "-m", __name__, str(store.root), str(listing)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # not stopped by the terminal's Ctrl+C meant for the server
    )


def main(argv: list[str]) -> int:
    """The builder process: `python -m companion.app.host.precompress ROOT LISTING`."""
    root, listing = Path(argv[0]), Path(argv[1])
    with contextlib.suppress(OSError, AttributeError):
        os.nice(19)  # the server's players come first
    store = Store(root)
    try:
        todo = json.loads(listing.read_text(encoding="utf-8"))
    finally:
        with contextlib.suppress(OSError):
            listing.unlink()
    with store.lock(wait=False) as mine:
        if not mine:
            return 0
        for source, sha, coding in todo:
            with contextlib.suppress(OSError):  # a file gone since (an upgrade): its copy is not needed
                store.make(Path(source), sha, coding)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
