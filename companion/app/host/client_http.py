"""How the web client reaches a phone: compressed, cached, versioned, and from this server only.

An ASGI layer in front of Flet's app (server.py mounts it at `/`); Flet's files are served as
they are on disk, only differently:

- **Compressed.** Each file of the client (client_files.py) goes out in the coding the browser
  takes, brotli or gzip, from the copies precompress.py made once; a file whose copy is not made
  yet goes out as it is.
- **Cached, one version at a time.** The page Flet writes (index.html) is given the client's
  version in every address it loads from: `/_v/<version>/main.dart.wasm`, Flutter's asset and
  CanvasKit bases, the bootstrap script. Those addresses never change content, so they are kept
  a year (`immutable`): a phone's next visit loads the client from its own cache. The page
  itself, and any file asked for at its plain address, is revalidated every time (`no-cache`
  and an ETag: a 304 costs a round trip and no bytes). A new Flet or app version is a new page
  naming new addresses, so an old file is never mixed with a new one; an old version's address
  is a 404, never the new file under the old name.
- **Only what the app uses.** The font manifest (client_fonts.py) leaves out the fonts the app
  never draws with.
- **From this server only.** The page forbids loading anything from another host (a
  Content-Security-Policy), and stops, before it is asked for, the one script Flet's client
  fetches from a CDN at every start (the Rive runtime, for animations this app does not use).
- **Never frozen by its renderer.** A trap of the renderer's WebAssembly reloads the page,
  which keeps its Flet session (PAGE_GUARD).
- **Something to see at once.** The page may carry a screen of its own, drawn before the client
  has loaded (`page_extra`: the join page's seats, ui/phone/early_join.py); the client's first
  frame takes its place.

`COMPANION_PLAIN_CLIENT=1` turns the layer off: Flet's client served exactly as Flet serves it,
the reference `dyo-companion bench phones` times against.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import re
import threading
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import Future

from . import encodings
from .client_files import ClientFile, ClientTable
from .manifest import ASGIApp, Message, Receive, Scope, Send
from .precompress import Store

log = logging.getLogger(__name__)

PLAIN_ENV = "COMPANION_PLAIN_CLIENT"
PREFIX = "/_v/"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# A page with a screen of its own (names of a table's players): the phone's cache only.
REVALIDATE_PRIVATE = "private, no-cache"
# What Flet's own middleware adds to each answer of its app (flet_web/fastapi/app.py): answers
# made here carry them too.
FLET_HEADERS = {
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-embedder-policy": "require-corp",
    "access-control-allow-origin": "*",
}
# Everything from this server, nothing from any other host. Inline scripts and styles are Flet's
# page's; wasm compilation is the client's and CanvasKit's (eval stays allowed for the JavaScript
# glue of the renderer Safari gets, which this machine cannot try); blob: is Flutter's renderer
# worker; websockets by scheme, as not every browser counts ws: as 'self'.
CONTENT_POLICY = (
    "default-src 'self' data: blob:; script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' blob:; "
    "style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss: data: blob:; object-src 'none'; base-uri 'self'"
)
# Runs before Flet's scripts, and guards two things:
# - a <script> naming another host is never added to the page, so the browser never asks for it
#   (Flet's client adds one for the Rive runtime at every start and waits for it in vain; offline
#   that was a failed request and an error in the console);
# - a trap of the renderer's WebAssembly (CanvasKit's "memory access out of bounds", a known,
#   rare Flutter web crash) leaves a frozen screen that answers no tap: the page reloads instead,
#   at most once a minute, and Flet gives it back its session (its id is in sessionStorage), so
#   a phone is back on its seat in seconds without its player doing anything.
PAGE_GUARD = b"""<script>
(() => {
  const foreign = (n) => n instanceof HTMLScriptElement && n.src !== "" && new URL(n.src).origin !== location.origin;
  const append = Element.prototype.append;
  Element.prototype.append = function (...nodes) { return append.apply(this, nodes.filter((n) => !foreign(n))); };
  const appendChild = Node.prototype.appendChild;
  Node.prototype.appendChild = function (node) { return foreign(node) ? node : appendChild.call(this, node); };
  const recover = (error) => {
    if (!(error instanceof WebAssembly.RuntimeError)) return;
    const last = Number(sessionStorage.getItem("companion-recovered") || 0);
    if (Date.now() - last < 60000) return;
    sessionStorage.setItem("companion-recovered", String(Date.now()));
    location.reload();
  };
  addEventListener("error", (event) => recover(event.error));
  addEventListener("unhandledrejection", (event) => recover(event.reason));
})();
</script>
"""
# Where Flet's page tells Flutter to load the client, its assets and CanvasKit from.
_BASES = re.compile(rb'(flet\.(?:entrypointBaseUrl|assetBase|canvasKitBaseUrl)\s*=\s*")(/[^"]*")')
# What the page loads to start (its scripts and the loading picture); the icons its links name
# (favicon, home screen) keep their plain addresses, revalidated.
_SOURCES = re.compile(rb'\bsrc="([^"/:?#][^":?#]*)"')


# What a page request may add to the page's body, drawn before the client loads (b"": nothing).
PageExtra = Callable[[Scope], Awaitable[bytes]]


def plain() -> bool:
    return os.environ.get(PLAIN_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def versioned_page(html: bytes, table: ClientTable, extra: bytes = b"") -> bytes:
    """Flet's page with every address the client starts from under `/_v/<version>/`, the
    guard first in its head and `extra` first in its body."""
    prefix = f"{PREFIX}{table.version}".encode()
    html = _BASES.sub(lambda m: m[1] + prefix + m[2], html)

    def versioned(found: re.Match[bytes]) -> bytes:
        url = found[1]
        return b'src="' + prefix[1:] + b"/" + url + b'"' if url.decode() in table.files else found[0]

    html = _SOURCES.sub(versioned, html)
    if extra:
        html = html.replace(b"<body>", b"<body>\n" + extra, 1)
    return html.replace(b"<head>", b"<head>\n" + PAGE_GUARD, 1)


def matches(if_none_match: str, etag: str) -> bool:
    """If-None-Match's weak comparison: any listed tag with the same opaque value, or `*`."""
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag.removeprefix("W/") in tags


class ClientLayer:
    """The ASGI layer (see the module's docstring). `prepare` makes the table of the client's
    files; it runs on a thread from the start, and the first requests wait for it."""

    def __init__(
        self,
        app: ASGIApp,
        prepare: Callable[[], ClientTable],
        store: Store | None,
        page_extra: PageExtra | None = None,
    ) -> None:
        self.app = app
        self.store = store
        self.page_extra = page_extra
        self.table: Future[ClientTable] = Future()
        threading.Thread(target=self._prepare, args=(prepare,), name="client-files", daemon=True).start()

    def _prepare(self, prepare: Callable[[], ClientTable]) -> None:
        try:
            self.table.set_result(prepare())
        except Exception as error:  # the client is then served as Flet serves it
            log.exception("could not prepare the web client's files; serving them as they are")
            self.table.set_exception(error)

    async def _table(self) -> ClientTable | None:
        try:
            if self.table.done():
                return self.table.result()
            table: ClientTable = await asyncio.wrap_future(self.table)
            return table
        except Exception:
            return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        method = scope.get("method")
        if scope["type"] != "http" or method not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        table = await self._table()
        if table is None:
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        path: str = scope["path"]
        if path.startswith(PREFIX):
            version, _, url = path[len(PREFIX) :].partition("/")
            file = table.files.get(url) if version == table.version else None
            await self._file(file, IMMUTABLE, headers, scope, receive, send)
        elif path[1:] in table.files and "range" not in headers:
            await self._file(table.files[path[1:]], REVALIDATE, headers, scope, receive, send)
        elif method == "GET":
            # The page is read whole to be rewritten: never handed over as a file to send (pathsend).
            extensions = {k: v for k, v in scope.get("extensions", {}).items() if k != "http.response.pathsend"}
            extra = await self._extra(scope)
            rewrite = PageRewrite(send, table, headers.get("if-none-match", ""), extra)
            await self.app({**scope, "extensions": extensions}, receive, rewrite.send)
        else:
            await self.app(scope, receive, send)

    async def _extra(self, scope: Scope) -> bytes:
        """The page's own screen for this request (b"" when there is none or it failed: the
        client draws everything, as it would anyway)."""
        if self.page_extra is None:
            return b""
        try:
            return await self.page_extra(scope)
        except Exception:
            log.exception("could not draw the page's own screen for %s", scope.get("path"))
            return b""

    async def _file(
        self, file: ClientFile | None, cache: str, asked: Mapping[str, str], scope: Scope, receive: Receive, send: Send
    ) -> None:
        from fastapi.responses import FileResponse, Response

        if file is None:
            await Response("Not found", status_code=404, media_type="text/plain")(scope, receive, send)
            return
        headers = {**FLET_HEADERS, "cache-control": cache, "etag": file.etag}
        if file.compressible:
            headers["vary"] = "Accept-Encoding"
        if matches(asked.get("if-none-match", ""), file.etag):
            await Response(status_code=304, headers=headers)(scope, receive, send)
            return
        coding, found = self._coded(file, encodings.accepted(asked.get("accept-encoding", "")))
        if coding:
            headers["content-encoding"] = coding
        response: Response
        if file.data is not None:
            response = Response(file.made.get(coding, file.data), headers=headers, media_type=file.media_type)
        else:
            path = found or str(file.source)
            response = FileResponse(path, headers=headers, media_type=file.media_type, stat_result=os.stat(path))
            del response.headers["last-modified"]  # the ETag is the validator: one per content, every coding
        await response(scope, receive, send)

    def _coded(self, file: ClientFile, codings: list[str]) -> tuple[str, str | None]:
        """The coding to answer in (`""`: as it is) and, for a file on disk, its copy's path."""
        if not file.compressible:
            return "", None
        for coding in codings:
            if file.data is not None and coding in file.made:
                return coding, None
            if self.store is not None and file.data is None:
                found = self.store.find(file.sha, coding)
                if found is not None:
                    return coding, str(found)
        return "", None


class PageRewrite:
    """Flet's answer to a page request, rewritten as it goes out: a whole 200 HTML page gets the
    versioned addresses, the content policy, an ETag of its own and `no-cache` (`private` too when
    it carries a screen of its own), or is a 304 when the browser already has it; any other
    answer passes as it is."""

    def __init__(self, send: Send, table: ClientTable, if_none_match: str, extra: bytes = b"") -> None:
        self.downstream = send
        self.table = table
        self.if_none_match = if_none_match
        self.extra = extra
        self.start: Message | None = None
        self.chunks: list[bytes] = []

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            kinds = [v for k, v in message.get("headers", []) if k.lower() == b"content-type"]
            if message["status"] == 200 and kinds and kinds[0].startswith(b"text/html"):
                self.start = message  # held until the whole page is read
                return
        elif message["type"] == "http.response.body" and self.start is not None:
            self.chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                await self._page(self.start, b"".join(self.chunks))
            return
        await self.downstream(message)

    async def _page(self, start: Message, page: bytes) -> None:
        body = versioned_page(page, self.table, self.extra)
        etag = f'W/"{hashlib.sha256(body).hexdigest()[:20]}"'
        dropped = (b"content-length", b"etag", b"last-modified", b"cache-control", b"accept-ranges")
        headers = [(k, v) for k, v in start.get("headers", []) if k.lower() not in dropped]
        cache = REVALIDATE_PRIVATE if self.extra else REVALIDATE
        headers += [(b"etag", etag.encode()), (b"cache-control", cache.encode())]
        if matches(self.if_none_match, etag):
            await self.downstream({**start, "status": 304, "headers": headers})
            await self.downstream({"type": "http.response.body", "body": b""})
            return
        headers += [(b"content-length", str(len(body)).encode()), (b"content-security-policy", CONTENT_POLICY.encode())]
        await self.downstream({**start, "headers": headers})
        await self.downstream({"type": "http.response.body", "body": body})


APP_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # companion/app: its icons are read


def prepare(assets_dir: str | None, store: Store | None, *, no_cdn: bool) -> ClientTable:
    """The table of the client's files as Flet would find them (its `FLET_WEB_PATH` and
    `FLET_ASSETS_DIR` included), hashed with the help of the cache; the builder of the missing
    compressed copies is started (precompress.py)."""
    from pathlib import Path

    import flet_web

    from . import client_fonts, precompress
    from .client_files import Hashes, build_table

    assets = os.getenv("FLET_ASSETS_DIR") or assets_dir
    icons = client_fonts.app_icon_names(Path(APP_PACKAGE)) | set(client_fonts.FRAMEWORK_ICONS)
    table = build_table(
        Path(flet_web.get_package_web_dir()),
        Path(assets) if assets else None,
        hashes=store.hashes() if store is not None else Hashes(None),
        icons=icons,
        no_cdn=no_cdn,
        keep=store.root / "made" if store is not None else None,
    )
    if store is not None:
        try:
            precompress.build_in_background(store, table.files.values())
        except OSError as error:
            log.warning("could not compress the web client's files in %s: %s", store.root, error)
    return table
