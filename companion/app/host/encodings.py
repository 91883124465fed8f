"""Content codings: compressing a file once, and choosing the coding a browser asked for.

Brotli (smaller, what every phone browser accepts over HTTP/1.1 and HTTPS alike) first, gzip
(the standard library's) second. Compression runs when the client's files are prepared
(precompress.py, client_files.py), never per request.
"""

from __future__ import annotations

import gzip

PREFERRED = ("br", "gzip")  # the order a coding is chosen in, when the browser takes several
SUFFIX = {"br": ".br", "gzip": ".gz"}
BROTLI_WINDOW = 24  # the largest window a browser decodes: the big wasm files shrink further


def available() -> tuple[str, ...]:
    """The codings this install can make: brotli needs its package."""
    try:
        import brotli  # noqa: F401
    except ImportError:
        return ("gzip",)
    return PREFERRED


def compress(data: bytes, coding: str, *, quick: bool = False) -> bytes:
    """`data` in `coding`: the smallest the coding makes, or (`quick`) a fast first version."""
    if coding == "gzip":
        return gzip.compress(data, compresslevel=9, mtime=0)
    import brotli

    compressed: bytes = brotli.compress(data, quality=5 if quick else 11, lgwin=BROTLI_WINDOW)
    return compressed


def accepted(header: str) -> list[str]:
    """The codings of an Accept-Encoding header this server makes, best first (`q=0` refuses one,
    `*` takes any)."""
    weights: dict[str, float] = {}
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        weights[name.strip().lower()] = weight
    star = weights.get("*")
    chosen = [c for c in PREFERRED if weights.get(c, star if star is not None else 0.0) > 0]
    return sorted(chosen, key=lambda c: -weights.get(c, star or 0.0))
