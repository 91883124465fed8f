"""What the web client is made of, as this server serves it: one table of files, each with the
hash of its content, and one version for all of them.

The table lists what Flet's static files would answer (the app's assets/ first, then flet_web's
web folder, as Flet looks them up), less what Flet writes at start (index.html, manifest.json)
and what a served client never loads (Python in the browser, debugging symbols), plus the files
made here (client_fonts.py: the font manifest and the cut-down icon font). The version is a hash
of every file's hash: any change in Flet, its client or the app's assets gives a new version, so
a page never loads one version's files with another's. Hashing the client (60 MB) is done once:
the hashes are kept in the cache folder by path, size and modification time (precompress.py).
"""

from __future__ import annotations

import hashlib
import json
import logging
import mimetypes
import os
from dataclasses import dataclass, field
from pathlib import Path

from . import client_fonts, encodings

log = logging.getLogger(__name__)

# Served by Flet itself from what it writes at start, or by the app's own route (manifest.py).
FLET_WRITES = ("index.html", "manifest.json")
FONT_MANIFEST = "assets/FontManifest.json"
# Never loaded by a client served from here: Python in the browser (a `flet build web` thing) and
# debugging aids. Left to Flet.
NOT_LOADED_DIRS = ("pyodide",)
NOT_LOADED_SUFFIXES = (".map", ".symbols", ".exe", ".bat")
# Formats already compressed: a second compression only costs time.
COMPRESSED_SUFFIXES = (
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".webp",
    ".woff",
    ".woff2",
    ".gz",
    ".br",
    ".zip",
    ".whl",
    ".mp3",
)
SMALLEST_COMPRESSED = 1024  # below this, a compressed copy saves less than its headers
MEDIA_TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".otf": "font/otf",
    ".ttf": "font/ttf",
    ".woff2": "font/woff2",
    ".png": "image/png",
    ".wav": "audio/wav",
}
LAYOUT = "1"  # bumped when this module changes what it serves for the same files


@dataclass(frozen=True)
class ClientFile:
    """One file of the client: on disk (`source`) or made here (`data`)."""

    url: str  # relative to the app's root, no leading slash
    sha: str  # sha256 of the content, hex
    size: int
    media_type: str
    source: Path | None = None
    data: bytes | None = None
    compressible: bool = False
    made: dict[str, bytes] = field(default_factory=dict, compare=False)  # encoding -> bytes, for `data`

    @property
    def etag(self) -> str:
        """Weak: every encoding of the file is the same content, so they share their validator."""
        return f'W/"{self.sha[:20]}"'


@dataclass(frozen=True)
class ClientTable:
    files: dict[str, ClientFile]
    version: str


def media_type(path: str) -> str:
    suffix = os.path.splitext(path)[1].lower()
    return MEDIA_TYPES.get(suffix) or mimetypes.guess_type(path)[0] or "application/octet-stream"


def compressible(path: str, size: int) -> bool:
    return size >= SMALLEST_COMPRESSED and not path.lower().endswith(COMPRESSED_SUFFIXES)


def served_by_flet(web_dir: Path, assets_dir: Path | None) -> dict[str, Path]:
    """Every file Flet's static files answer, by URL path: the app's assets first, as Flet's own
    lookup has it, then the web client's files."""
    found: dict[str, Path] = {}
    for root in (assets_dir, web_dir):
        if root is None or not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            url = path.relative_to(root).as_posix()
            if path.is_file() and url not in found and _loaded(url):
                found[url] = path
    return found


def _loaded(url: str) -> bool:
    return url.split("/", 1)[0] not in NOT_LOADED_DIRS and not url.endswith(NOT_LOADED_SUFFIXES)


class Hashes:
    """sha256 of files by path, kept in a JSON file by (size, modification time): a file is read
    again only when it changed."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.known: dict[str, list[object]] = {}
        self.changed = False
        if path is not None:
            try:
                self.known = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                self.known = {}

    def sha(self, file: Path) -> tuple[str, int]:
        stat = file.stat()
        key = str(file.resolve())
        entry = self.known.get(key)
        if entry is not None and entry[:2] == [stat.st_size, stat.st_mtime_ns]:
            return str(entry[2]), stat.st_size
        digest = hashlib.sha256()
        with file.open("rb") as content:
            while chunk := content.read(1 << 20):
                digest.update(chunk)
        self.known[key] = [stat.st_size, stat.st_mtime_ns, digest.hexdigest()]
        self.changed = True
        return digest.hexdigest(), stat.st_size

    def save(self) -> None:
        if self.path is None or not self.changed:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            spare = self.path.with_name(f"{self.path.name}.{os.getpid()}")
            spare.write_text(json.dumps(self.known), encoding="utf-8")
            os.replace(spare, self.path)
        except OSError as error:
            log.warning("could not keep the client's hashes in %s: %s", self.path, error)


def build_table(
    web_dir: Path, assets_dir: Path | None, *, hashes: Hashes, icons: set[str], no_cdn: bool, keep: Path | None = None
) -> ClientTable:
    """The client's files and its version (see the module's docstring); `keep`: a folder where
    the cut icon font is kept between starts (cutting it takes most of a second)."""
    files: dict[str, ClientFile] = {}
    found = served_by_flet(web_dir, assets_dir)
    for url, path in found.items():
        if url in FLET_WRITES or url == FONT_MANIFEST:
            continue
        sha, size = hashes.sha(path)
        files[url] = ClientFile(url, sha, size, media_type(url), source=path, compressible=compressible(url, size))
    hashes.save()
    manifest_source = found.get(FONT_MANIFEST)
    if manifest_source is not None:
        files.update(_fonts(manifest_source.read_bytes(), files, icons=icons, no_cdn=no_cdn, keep=keep))
    digest = hashlib.sha256(LAYOUT.encode())
    for url in sorted(files):
        digest.update(f"\n{url} {files[url].sha}".encode())
    return ClientTable(files, digest.hexdigest()[:16])


def _fonts(
    flet_manifest: bytes, files: dict[str, ClientFile], *, icons: set[str], no_cdn: bool, keep: Path | None
) -> dict[str, ClientFile]:
    """The font manifest served, and the cut-down icon font it names (client_fonts.py)."""
    made: dict[str, ClientFile] = {}
    icon_font = None
    whole = client_fonts.icon_asset(flet_manifest)
    source = files.get(f"assets/{whole}")
    if whole is not None and source is not None:
        cut = _cut_icons(source, icons, keep)
        if cut is not None:
            sha = hashlib.sha256(cut).hexdigest()
            stem, suffix = os.path.splitext(whole)
            icon_font = f"{stem}.app-{sha[:12]}{suffix}"
            made[f"assets/{icon_font}"] = _made(f"assets/{icon_font}", cut)
    manifest = client_fonts.font_manifest(flet_manifest, no_cdn=no_cdn, icon_font=icon_font)
    made[FONT_MANIFEST] = _made(FONT_MANIFEST, manifest)
    return made


def _cut_icons(font: ClientFile, icons: set[str], keep: Path | None) -> bytes | None:
    """The icon font cut to `icons`: from `keep` when it was cut before from the same font for
    the same icons, else cut now (and kept)."""
    key = hashlib.sha256(f"{font.sha} {' '.join(sorted(icons))}".encode()).hexdigest()[:32]
    kept = keep / f"icons-{key}.otf" if keep is not None else None
    if kept is not None and kept.is_file():
        return kept.read_bytes()
    if font.source is None:
        return None
    cut = client_fonts.subset_icons(font.source.read_bytes(), icons)
    if cut is not None and kept is not None:
        try:
            kept.parent.mkdir(parents=True, exist_ok=True)
            spare = kept.with_name(f"{kept.name}.{os.getpid()}.part")
            spare.write_bytes(cut)
            os.replace(spare, kept)
        except OSError as error:
            log.warning("could not keep the cut icon font in %s: %s", keep, error)
    return cut


def _made(url: str, data: bytes) -> ClientFile:
    """A file made here, compressed at once (they are small)."""
    squeezed = compressible(url, len(data))
    codings = {coding: encodings.compress(data, coding) for coding in encodings.available()} if squeezed else {}
    return ClientFile(
        url,
        hashlib.sha256(data).hexdigest(),
        len(data),
        media_type(url),
        data=data,
        compressible=squeezed,
        made=codings,
    )
