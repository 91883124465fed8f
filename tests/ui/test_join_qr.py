"""The join QR code is a PNG the app writes itself (no Pillow, no pypng): a decoder reads the link
back from it, and it is drawn with no imaging library installed."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.app.host.launch import phones_line
from companion.app.host.net import networks
from companion.app.ui.phone.table_view import bilevel_png, qr_png

from .conftest import drawn, identified, make_store, show

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


def test_a_link_no_phone_can_open_is_said_plainly(tmp_path: Path) -> None:
    """Served on this computer only, the table view shows no QR code (its link names 127.0.0.1,
    which opens on no phone) but says so and names the command that serves phones; with --lan
    the code is there."""
    import asyncio

    from .test_app_offline import new_app

    store = make_store(tmp_path)
    game = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})

    async def run() -> None:
        for lan_url, reached in ((None, False), ("http://192.168.1.20:8550/", True)):
            app = await new_app(store, tmp_path, 390, lan_url=lan_url)
            await show(app, f"/game/{game}/table")
            assert bool(identified(app.page, "join-qr")) is reached
            note = identified(app.page, "join-local-only")
            assert bool(note) is not reached
            if note:
                texts = [c.value for c in drawn(app.page) if hasattr(c, "value") and isinstance(c.value, str)]
                assert "dyo-companion --lan" in texts and "Phones cannot open this link yet" in note[0].label

    asyncio.run(run())


def test_the_start_says_whether_phones_can_join() -> None:
    assert phones_line("http://192.168.1.20:8550/") == (
        "Phones on this network join by the QR code on a game's table view (http://192.168.1.20:8550/)."
    )
    alone = phones_line(None)
    assert alone is not None and "Phones cannot join" in alone and alone.endswith("dyo-companion --lan")
    no_network = phones_line("http://127.0.0.1:8550/")  # --lan on a machine with no network
    assert no_network is not None and no_network.startswith("Phones cannot open the join QR code")
    assert phones_line(None, networks(["10.0.0.1"])) is None  # a reverse proxy brings them
