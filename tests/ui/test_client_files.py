"""What the app serves as its web client, without a server: the codings chosen, one version per
content, the compressed copies made once (whole, by one builder), and an icon font that holds
every icon a screen draws."""

from __future__ import annotations

import asyncio
import dataclasses
import gzip
import json
import os
import time
from pathlib import Path
from typing import Any

import brotli
import flet as ft
import pytest

from companion.app.host import client_fonts, client_http, encodings, precompress
from companion.app.host.client_files import ClientFile, Hashes, build_table

from .conftest import make_store, show
from .test_app_offline import new_app


@pytest.mark.parametrize(
    ("header", "chosen"),
    [
        ("gzip, deflate, br, zstd", ["br", "gzip"]),
        ("gzip, deflate", ["gzip"]),
        ("br;q=0.5, gzip", ["gzip", "br"]),
        ("br;q=0, gzip;q=0", []),
        ("*", ["br", "gzip"]),
        ("*;q=0, gzip", ["gzip"]),
        ("identity", []),
        ("", []),
    ],
)
def test_the_coding_is_the_best_the_browser_takes(header: str, chosen: list[str]) -> None:
    assert encodings.accepted(header) == chosen


def fake_client(root: Path) -> tuple[Path, Path]:
    """A web folder and an assets folder: a script, a page, an icon and a sound."""
    web, assets = root / "web", root / "assets"
    (web / "canvaskit").mkdir(parents=True)
    (web / "pyodide").mkdir()
    assets.mkdir()
    (web / "main.dart.js").write_text("console.log('client');\n" * 200)
    (web / "canvaskit" / "skwasm.wasm").write_bytes(b"\0asm" + bytes(range(256)) * 20)
    (web / "index.html").write_text("<html><head></head></html>")
    (web / "pyodide" / "python.exe").write_bytes(b"never loaded")
    (web / "favicon.png").write_bytes(b"flet's")
    (assets / "favicon.png").write_bytes(b"the app's")
    (assets / "roll.wav").write_bytes(b"RIFF" + bytes(4000))
    return web, assets


def table(root: Path) -> Any:
    web, assets = fake_client(root) if not (root / "web").exists() else (root / "web", root / "assets")
    return build_table(web, assets, hashes=Hashes(root / "hashes.json"), icons=set(), no_cdn=True)


def test_the_table_is_what_flet_would_serve(tmp_path: Path) -> None:
    files = table(tmp_path).files
    assert set(files) == {"main.dart.js", "canvaskit/skwasm.wasm", "favicon.png", "roll.wav"}, "no page, no pyodide"
    assert files["favicon.png"].source == tmp_path / "assets" / "favicon.png", "the app's assets come first"
    assert files["main.dart.js"].compressible and not files["favicon.png"].compressible
    assert files["canvaskit/skwasm.wasm"].media_type == "application/wasm"


def test_one_version_per_content(tmp_path: Path) -> None:
    first = table(tmp_path)
    sound = tmp_path / "assets" / "roll.wav"
    os.utime(sound, ns=(time.time_ns(), time.time_ns() + 10**9))  # touched, same bytes
    assert table(tmp_path).version == first.version
    hashes = Hashes(tmp_path / "hashes.json")
    hashes.sha(tmp_path / "web" / "main.dart.js")
    assert not hashes.changed, "an unchanged file is not read again"
    sound.write_bytes(b"RIFF" + bytes(4001))  # a new sound: a new version
    assert table(tmp_path).version != first.version


def test_every_copy_is_made_once_gzip_first(tmp_path: Path) -> None:
    files = table(tmp_path).files.values()
    store = precompress.Store(tmp_path / "cache")
    todo = store.missing(files)
    codings = [coding for _, coding in todo]
    assert codings == sorted(codings, key=lambda c: c != "gzip"), "every gzip copy before any brotli one"
    assert {f.url for f, _ in todo} == {"main.dart.js", "canvaskit/skwasm.wasm", "roll.wav"}
    process = precompress.build_in_background(store, files)
    assert process is not None and process.wait(timeout=60) == 0
    for file in files:
        for coding in ("br", "gzip") if file.compressible else ():
            copy = store.find(file.sha, coding)
            assert copy is not None, (file.url, coding)
            decode = brotli.decompress if coding == "br" else gzip.decompress
            assert decode(copy.read_bytes()) == file.source.read_bytes()
    assert precompress.build_in_background(store, files) is None, "nothing left to make"
    assert not list(store.root.glob("todo.*")) and not list(store.files.glob("*.part"))


def test_a_second_builder_leaves_the_work_to_the_first(tmp_path: Path) -> None:
    files = list(table(tmp_path).files.values())
    store = precompress.Store(tmp_path / "cache")
    listing = tmp_path / "todo.json"
    listing.write_text(json.dumps([[str(files[0].source), files[0].sha, "gzip"]]))
    with store.lock(wait=False) as mine:
        assert mine
        assert precompress.main([str(store.root), str(listing)]) == 0
    assert not store.files.exists() or not list(store.files.iterdir()), "it made nothing"
    assert not listing.exists()


def test_a_missing_icon_keeps_the_whole_font_and_a_cut_is_always_the_same() -> None:
    import flet_web

    font = Path(flet_web.get_package_web_dir(), "assets", "fonts", "MaterialIcons-Regular.otf").read_bytes()
    assert client_fonts.subset_icons(font, ["ADD", "NO_SUCH_ICON"]) is None
    assert client_fonts.subset_icons(font, []) is None
    cut = client_fonts.subset_icons(font, ["ADD"])
    assert cut is not None and len(cut) < 4000
    assert client_fonts.subset_icons(font, ["ADD"]) == cut, "the same bytes every time: the same version"


def icons_of(control: Any, seen: set[int] | None = None) -> set[str]:
    """Every icon anywhere in a control tree (any field holding one: Icon, buttons, app bars)."""
    seen = set() if seen is None else seen
    if id(control) in seen:
        return set()
    seen.add(id(control))
    found: set[str] = set()
    values: list[Any] = []
    if dataclasses.is_dataclass(control):
        values = [getattr(control, f.name, None) for f in dataclasses.fields(control) if not f.name.startswith("_")]
    for value in values:
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(item, ft.IconData):
                found.add(item.name)
            elif isinstance(item, ft.BaseControl):
                found |= icons_of(item, seen)
    return found


def test_the_icon_font_holds_every_icon_a_screen_draws(tmp_path: Path) -> None:
    """Every screen, at phone and laptop width, the join pages included: each icon drawn is one
    the cut font keeps (the app's code names it)."""
    store = make_store(tmp_path)
    game = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "modules": {"warden": True}})
    won = store.create_game({"players": [{"name": "A", "tunnel": 11, "hand": ["spoon"]}, {"name": "B"}]})
    store.submit(won, {"type": "dig", "player": 0, "tool": "spoon"}, base_version=store.load(won).version)
    kept = client_fonts.app_icon_names(Path(client_http.APP_PACKAGE)) | set(client_fonts.FRAMEWORK_ICONS)
    routes = ["/", "/setup", f"/game/{game}", f"/game/{game}/log", "/rules", "/history", f"/game/{game}/correct"]
    routes += [f"/game/{won}/replay?step=1", "/settings", f"/game/{won}/win", f"/game/{game}/table"]
    routes += [f"/join/{game}?key={store.devices.secret(game)}", f"/join/{game}?key=wrong", f"/play/{game}"]
    drawn: set[str] = set()

    async def run() -> None:
        for width in (390, 1280):
            app = await new_app(store, tmp_path, width)
            for route in routes:
                await show(app, route)
                for _ in range(10):
                    await asyncio.sleep(0)
                drawn.update(icons_of(app.page))

    asyncio.run(run())
    assert len(drawn) > 20, drawn
    assert drawn <= kept, f"icons drawn that the cut font lacks: {sorted(drawn - kept)}"


def test_the_plain_switch_serves_flets_client_as_flet_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.app.host.server import web_app

    monkeypatch.setenv(client_http.PLAIN_ENV, "1")
    api = web_app(lambda page: None, routes=lambda api: None, before_main=lambda page: None, session_timeout=60)
    assert api.state.client is None
    monkeypatch.setenv(client_http.PLAIN_ENV, "0")
    monkeypatch.setenv(precompress.ENV, str(tmp_path))
    monkeypatch.setattr(precompress, "build_in_background", lambda store, files: None)
    api = web_app(lambda page: None, routes=lambda api: None, before_main=lambda page: None, session_timeout=60)
    assert isinstance(api.state.client, client_http.ClientLayer)
    api.state.client.table.result(timeout=120)


def test_a_file_made_here_has_its_copies_in_memory() -> None:
    from companion.app.host.client_files import _made

    data = b'[{"family":"MaterialIcons"}]' * 100
    made: ClientFile = _made("assets/FontManifest.json", data)
    assert made.compressible and gzip.decompress(made.made["gzip"]) == data
    assert brotli.decompress(made.made["br"]) == data
