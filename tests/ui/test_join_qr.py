"""The join QR code is a PNG the app writes itself (no Pillow, no pypng): a decoder reads the link
back from it, and it is drawn with no imaging library installed."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.app.ui.phone.table_view import bilevel_png, qr_png

ROOT = Path(__file__).resolve().parents[2]
LINK = "http://192.168.1.20:8550/join/0123456789abcdef0123456789abcdef?key=AbCdEfGhIjKlMnOpQrStUv"


def test_a_decoder_reads_the_link_back() -> None:
    zxingcpp = pytest.importorskip("zxingcpp", reason="pip install -e '.[test]' installs the decoder")
    from PIL import Image

    image = Image.open(io.BytesIO(qr_png(LINK)))
    assert image.format == "PNG" and image.size[0] == image.size[1]
    assert [found.text for found in zxingcpp.read_barcodes(image.convert("L"))] == [LINK]


def test_the_quiet_zone_is_white_and_the_modules_are_boxes() -> None:
    from PIL import Image

    box = 8
    image = Image.open(io.BytesIO(qr_png(LINK, box=box))).convert("L")
    side = image.size[0]
    assert side % box == 0
    quiet = 4 * box
    assert all(image.getpixel((x, y)) == 255 for x in range(side) for y in range(quiet))
    assert image.getpixel((quiet, quiet)) == 0  # the top-left finder pattern's corner


def test_a_png_of_any_width() -> None:
    """Rows whose width is no multiple of eight are padded to whole bytes, as PNG wants."""
    from PIL import Image

    rows = [[(x + y) % 3 == 0 for x in range(13)] for y in range(5)]
    image = Image.open(io.BytesIO(bilevel_png(rows))).convert("L")
    assert image.size == (13, 5)
    assert [[image.getpixel((x, y)) == 255 for x in range(13)] for y in range(5)] == rows


def test_no_imaging_library_is_needed() -> None:
    script = textwrap.dedent(
        """
        import sys
        sys.modules["PIL"] = None  # an import of Pillow fails
        sys.modules["png"] = None  # and of pypng
        from companion.app.ui.phone.table_view import qr_png
        assert qr_png("http://127.0.0.1:8550/join/x").startswith(b"\\x89PNG")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
