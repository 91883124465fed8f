"""Over HTTP (no browser), the web client as the app serves it (companion/app/host/client_http.py):
compressed in the coding asked for, cached by version with ETags and 304s, with only the fonts
the app draws with, and nothing of Flet's changed but how it is served."""

from __future__ import annotations

import gzip
import io
import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import brotli
import flet_web
import pytest

from companion.app.host import client_fonts, client_http

from .client_support import client_server, compress

WEB = Path(flet_web.get_package_web_dir())
SMALL = ("main.dart.mjs", "flutter_bootstrap.js")  # compressed by this module's server


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with client_server(tmp_path_factory.mktemp("client")) as (server, layer):
        compress(layer, SMALL)
        yield server, layer.table.result()


def get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def page(served: Any) -> tuple[dict[str, str], str]:
    server, _ = served
    status, headers, body = get(f"{server.url}/join/4f2a9c?key=abcdef")
    assert status == 200 and headers["content-type"].startswith("text/html")
    return headers, body.decode()


@pytest.mark.parametrize(
    ("accept", "coding"),
    [("br", "br"), ("gzip, deflate, br", "br"), ("gzip, deflate", "gzip"), ("br;q=0, gzip", "gzip"), ("", None)],
)
def test_a_file_goes_out_in_the_coding_asked_for(served: Any, accept: str, coding: str | None) -> None:
    server, table = served
    original = (WEB / "main.dart.mjs").read_bytes()
    status, headers, body = get(f"{server.url}/_v/{table.version}/main.dart.mjs", **{"Accept-Encoding": accept})
    assert status == 200 and headers.get("content-encoding") == coding, headers
    assert headers["vary"] == "Accept-Encoding" and headers["content-type"].startswith("text/javascript")
    decoded = {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[coding](body)
    assert decoded == original, "not the file Flet ships"
    assert int(headers["content-length"]) == len(body) and (coding is None or len(body) < len(original) / 3)


def test_versioned_files_are_kept_a_year_and_plain_addresses_revalidated(served: Any) -> None:
    server, table = served
    for path, cache in [
        (f"/_v/{table.version}/flutter_bootstrap.js", "immutable"),
        ("/flutter_bootstrap.js", "no-cache"),
    ]:
        status, headers, _ = get(server.url + path, **{"Accept-Encoding": "gzip"})
        assert status == 200 and cache in headers["cache-control"], (path, headers)
        assert headers["etag"].startswith('W/"') and "last-modified" not in headers
        again, repeat, body = get(server.url + path, **{"If-None-Match": headers["etag"], "Accept-Encoding": "br"})
        assert again == 304 and body == b"" and repeat["etag"] == headers["etag"], "the same content in any coding"
    assert "max-age=31536000" in get(f"{server.url}/_v/{table.version}/main.dart.mjs")[1]["cache-control"]


def test_another_versions_address_is_not_found(served: Any) -> None:
    """An old page asking for its files after an upgrade never gets the new ones under its name."""
    server, _ = served
    assert get(f"{server.url}/_v/0123456789abcdef/main.dart.mjs")[0] == 404


def test_the_page_is_revalidated_and_names_the_version_everywhere(served: Any) -> None:
    server, table = served
    headers, html = page(served)
    assert headers["cache-control"] == "no-cache" and headers["etag"].startswith('W/"')
    again = get(f"{server.url}/join/4f2a9c?key=abcdef", **{"If-None-Match": headers["etag"]})
    assert again[0] == 304 and again[2] == b""
    prefix = f"/_v/{table.version}/"
    for script in re.findall(r'<script src="([^"]+)"', html):
        assert ("/" + script).startswith(prefix), script
        assert get(f"{server.url}/{script}")[0] == 200, script
    for key in ("entrypointBaseUrl", "assetBase", "canvasKitBaseUrl"):
        assert re.search(rf'flet\.{key}="{re.escape(prefix)}', html), key
    assert '<meta name="theme-color"' in html, "the theme colour is still added (manifest.py)"


def test_the_page_forbids_other_hosts_and_stops_the_rive_script(served: Any) -> None:
    headers, html = page(served)
    policy = headers["content-security-policy"]
    assert "default-src 'self' data: blob:" in policy and "script-src 'self'" in policy
    assert not re.search(r"https?://", policy), "no other host is allowed"
    assert html.index("const foreign") < html.index("flutter_bootstrap.js"), "the guard runs before Flet's scripts"


def test_only_the_fonts_the_app_draws_with(served: Any) -> None:
    server, table = served
    status, _, body = get(f"{server.url}/_v/{table.version}/assets/FontManifest.json")
    families = {family["family"]: family["fonts"] for family in json.loads(body)}
    assert status == 200 and set(families) == {"MaterialIcons", "Roboto"}, families
    [icons] = families["MaterialIcons"]
    status, _, font = get(f"{server.url}/_v/{table.version}/assets/{icons['asset']}")
    whole = (WEB / "assets" / "fonts" / "MaterialIcons-Regular.otf").read_bytes()
    assert status == 200 and len(font) < len(whole) / 20, "the icon font is not cut down"
    from fontTools.ttLib import TTFont

    drawn = set(TTFont(io.BytesIO(font)).getBestCmap())
    code_of = {
        glyph: code for code, glyph in TTFont(str(WEB / "assets/fonts/MaterialIcons-Regular.otf")).getBestCmap().items()
    }
    needed = client_fonts.app_icon_names(Path(client_http.APP_PACKAGE)) | set(client_fonts.FRAMEWORK_ICONS)
    assert {code_of[client_fonts.glyph_name(name)] for name in needed} <= drawn
    assert {"VISIBILITY", "QR_CODE_SCANNER", "MENU_BOOK"} <= needed, "the scan misses icons the app names"


def test_the_files_served_are_flets_own(served: Any) -> None:
    """Flet's files are served as they are on disk (only how: coding, headers), and what Flet
    writes at start (the page, its manifest) still comes from Flet."""
    server, table = served
    for url in ("flutter_bootstrap.js", "canvaskit/skwasm.js", "assets/AssetManifest.bin.json"):
        assert get(f"{server.url}/_v/{table.version}/{url}")[2] == (WEB / url).read_bytes(), url
        assert table.files[url].source == WEB / url
    assert "index.html" not in table.files and "manifest.json" not in table.files
