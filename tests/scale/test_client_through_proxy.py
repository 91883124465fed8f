"""The web client through the example nginx configuration (assets/hosting/nginx.conf), over HTTPS:
the app's compressed copies, ETags and cache headers pass as they are, the page is compressed by
nginx, and a 304 still comes back for what the browser has."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flet_web
import httpx
import pytest

from companion.app.host import precompress

WEB = Path(flet_web.get_package_web_dir())


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    from companion.bench.proxy import Proxy, nginx_binary
    from storage import Store

    from drivers.browser import AppServer

    if nginx_binary() is None:
        pytest.fail("the proxy test needs nginx: install Debian's package (apt-get install nginx; .ci/run does)")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(precompress.ENV, str(tmp_path / "web-cache"))
        patch.setattr(precompress, "build_in_background", lambda store, files: None)
        store = Store(url=f"sqlite:///{tmp_path / 'games.sqlite3'}")
        with AppServer(store, tmp_path / "settings.json", lan=True) as server:
            layer = server.app.app.state.client
            table = layer.table.result(timeout=120)
            precompress.build(layer.store, [table.files["main.dart.mjs"]])
            proxy = Proxy(tmp_path, [server.port])
            try:
                yield proxy, table
            finally:
                proxy.stop()


def test_the_client_keeps_its_coding_and_cache_headers_through_nginx(proxied: tuple[Any, Any]) -> None:
    proxy, table = proxied
    base = f"https://127.0.0.1:{proxy.port}"
    with httpx.Client(verify=proxy.tls, timeout=30) as client:
        answer = client.get(f"{base}/_v/{table.version}/main.dart.mjs", headers={"Accept-Encoding": "gzip, br"})
        assert answer.status_code == 200 and answer.headers["content-encoding"] == "br"
        assert (
            "immutable" in answer.headers["cache-control"]
            and answer.headers["etag"] == table.files["main.dart.mjs"].etag
        )
        assert answer.content == (WEB / "main.dart.mjs").read_bytes()  # decoded by httpx
        again = client.get(
            f"{base}/_v/{table.version}/main.dart.mjs", headers={"If-None-Match": answer.headers["etag"]}
        )
        assert again.status_code == 304
        page = client.get(f"{base}/join/4f2a9c?key=abcdef", headers={"Accept-Encoding": "gzip"})
        assert page.status_code == 200 and page.headers["content-encoding"] == "gzip", "nginx compresses the page"
        assert page.headers["cache-control"] == "no-cache" and f"/_v/{table.version}/" in page.text
        same = client.get(f"{base}/join/4f2a9c?key=abcdef", headers={"If-None-Match": page.headers["etag"]})
        assert same.status_code == 304
