"""What the served web app says it is, from one place: its name, description, colours and icons.

A phone that opens a join link may "Add to Home Screen"; the icon, name and colours it gets come
from the web manifest and the page's head. Flet serves its own: "Flet", "Build cross-platform
apps in Python", a pink theme colour and Flet's icons. `flet_web.fastapi.app()` takes the name
and description (it writes them into the page and its manifest) but has no parameter for the
colours or the icons, so `serve(api)` answers `/manifest.json` itself (a route registered before
the Flet mount wins) and adds the theme colour to every page's head. Files in assets/ replace
Flet's of the same name (`favicon.png`, `icons/apple-touch-icon-192.png`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the web framework is imported when the server starts (`serve`)
    from fastapi import FastAPI

# ASGI's shapes (door/peer.py spells them the same way).
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

NAME = "Dig Your Way Out"
SHORT_NAME = "Dig Out"  # the label under a home-screen icon: short enough not to be cut
DESCRIPTION = (
    "Table companion and referee for the board game Dig Your Way Out "
    "(Michel & Michelle, Team mode, Dig In)"
)  # = pyproject's description (tested)
THEME_COLOR = "#E65C28"  # the icon's arch (the app's theme is seeded with deep orange)
BACKGROUND_COLOR = "#26221F"  # the icon's wall: the splash of an app opened from the home screen
ICONS = (("icons/Icon-192.png", 192), ("icons/Icon-512.png", 512))  # in assets/


def web_manifest() -> dict[str, Any]:
    """The manifest a browser reads when the app is added to a home screen or installed."""
    return {
        "name": NAME,
        "short_name": SHORT_NAME,
        "description": DESCRIPTION,
        "start_url": ".",
        "display": "standalone",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "orientation": "any",
        "prefer_related_applications": False,
        "icons": [
            {"src": src, "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any"} for src, size in ICONS
        ],
    }


def theme_color_meta(html: bytes) -> bytes:
    """The page with `<meta name="theme-color">` in its head (Flet's page has none)."""
    if b'name="theme-color"' in html or b"</head>" not in html:
        return html
    tag = f'  <meta name="theme-color" content="{THEME_COLOR}">\n'.encode()
    return html.replace(b"</head>", tag + b"</head>", 1)


class ThemeColorPages:
    """ASGI middleware: adds the theme colour to HTML pages served whole (200 answers to GET)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "GET":
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] = []

        async def rewrite(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = {k.lower(): v for k, v in message.get("headers", [])}
                if message["status"] == 200 and headers.get(b"content-type", b"").startswith(b"text/html"):
                    start = message  # held until the whole page is read
                    return
            elif message["type"] == "http.response.body" and start is not None:
                chunks.append(message.get("body", b""))
                if message.get("more_body"):
                    return
                body = theme_color_meta(b"".join(chunks))
                kept = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
                kept.append((b"content-length", str(len(body)).encode()))
                await send({**start, "headers": kept})
                await send({"type": "http.response.body", "body": body})
                return
            await send(message)

        await self.app(scope, receive, rewrite)


def serve(api: FastAPI) -> None:
    """Answer `/manifest.json` and colour the pages; call before mounting Flet at `/`."""
    from fastapi.responses import JSONResponse

    # No response model (the annotation names a class FastAPI cannot see from here): one would
    # have it import its pydantic v1 layer at start.
    @api.get("/manifest.json", include_in_schema=False, response_model=None)
    def manifest() -> JSONResponse:
        return JSONResponse(
            web_manifest(), media_type="application/manifest+json", headers={"Cache-Control": "no-cache"}
        )

    api.add_middleware(ThemeColorPages)
