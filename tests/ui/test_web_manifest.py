"""Over HTTP, the served app says what it is: "Add to Home Screen" from a join link gets the
app's name, description, colours and icons, not Flet's (no browser needed)."""

from __future__ import annotations

import json
import re
import struct
import tomllib
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from companion.app.host import manifest

from drivers.browser import AppServer

ROOT = Path(__file__).resolve().parents[2]
FLET_DEFAULTS = ("Flet", "Build cross-platform apps in Python", "Flet application.", "#FF005F")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from .conftest import make_store

    folder = tmp_path_factory.mktemp("manifest")
    with AppServer(make_store(folder), folder / "settings.json", lan=True) as srv:
        yield srv


def fetch(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status, answer.headers.get("content-type", ""), answer.read()


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "not a PNG file"
    return struct.unpack(">II", data[16:24])


def test_manifest_names_the_app(served: Any) -> None:
    status, kind, body = fetch(f"{served.url}/manifest.json")
    assert status == 200 and kind.startswith("application/manifest+json"), kind
    data = json.loads(body)
    description = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["description"]
    assert data["name"] == "Dig Your Way Out"
    assert data["short_name"] and len(data["short_name"]) <= 12, "a home-screen label this long is cut"
    assert data["description"] == description == manifest.DESCRIPTION, "the web app and the packages differ"
    assert data["theme_color"] == manifest.THEME_COLOR and data["background_color"] == manifest.BACKGROUND_COLOR
    assert not set(FLET_DEFAULTS) & {data["name"], data["short_name"], data["description"], data["theme_color"]}
    assert data["display"] == "standalone"


def test_manifest_icons_are_ours(served: Any) -> None:
    icons = json.loads(fetch(f"{served.url}/manifest.json")[2])["icons"]
    assert {icon["sizes"] for icon in icons} >= {"192x192", "512x512"}, "browsers want a 192 and a 512 px icon"
    for icon in icons:
        status, kind, data = fetch(f"{served.url}/{icon['src']}")
        assert status == 200 and kind == "image/png", icon
        width, height = png_size(data)
        assert icon["sizes"] == f"{width}x{height}", f"{icon['src']} is {width}x{height}, said {icon['sizes']}"
        ours = ROOT / "assets" / icon["src"]
        assert ours.is_file() and data == ours.read_bytes(), f"{icon['src']} is not the app's icon (assets/)"


@pytest.mark.parametrize("path", ["/", "/join/4f2a9c?key=abcdef"])
def test_page_head_names_the_app(served: Any, path: str) -> None:
    status, kind, body = fetch(f"{served.url}{path}")
    assert status == 200 and kind.startswith("text/html"), kind
    page = body.decode("utf-8")
    head = page.split("</head>")[0]

    def meta(name: str) -> str | None:
        found = re.search(rf'<meta name="{name}" content="([^"]*)">', head)
        return found[1] if found else None

    assert re.search(r"<title>Dig Your Way Out</title>", head)
    assert meta("description") == manifest.DESCRIPTION
    assert meta("theme-color") == manifest.THEME_COLOR
    assert meta("apple-mobile-web-app-title") == "Dig Your Way Out"
    assert '<link rel="manifest" href="manifest.json">' in head
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', head)
    assert touch, "the page names no icon for iOS's home screen"
    data = fetch(f"{served.url}/{touch[1]}")[2]
    assert data == (ROOT / "assets" / touch[1]).read_bytes(), "iOS would get Flet's icon"
    assert png_size(data) == (192, 192)
    favicon = fetch(f"{served.url}/favicon.png")[2]
    assert favicon == (ROOT / "assets" / "favicon.png").read_bytes(), "the tab shows Flet's icon"


def test_theme_colour_is_added_once() -> None:
    page = b"<html><head><title>x</title></head><body></body></html>"
    once = manifest.theme_color_meta(page)
    assert once.count(b'name="theme-color"') == 1 and manifest.theme_color_meta(once) == once
    assert manifest.theme_color_meta(b"{}") == b"{}"  # not a page: untouched
