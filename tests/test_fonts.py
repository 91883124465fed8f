"""Every character the app can put on screen has a glyph in the font that draws it.

The offline web build ships one text font, Roboto (inside flet-web); Persian is drawn with the
bundled Vazirmatn (assets/fonts). A character neither has is a box on screen (an arrow in a
recipe once was), so every text of every catalog, and every literal in the app's code, is
checked against the fonts its language uses.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.vm.text import FONT_FILES, Tr

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT / "companion" / "i18n"
INVISIBLE = {0x200C, 0x200D, 0x200E, 0x200F, 0x2068, 0x2069}  # joiners and direction marks: no glyph needed


def _cmap(path: Path) -> set[int]:
    try:
        from fontTools.ttLib import TTFont
    except ImportError:
        pytest.fail("the font checks need fontTools and brotli: pip install -e '.[test]'")
    return set(TTFont(str(path)).getBestCmap())


@pytest.fixture(scope="module")
def roboto() -> set[int]:
    import flet_web

    found = sorted(Path(flet_web.__file__).parent.rglob("roboto*.woff2")) + sorted(
        Path(flet_web.__file__).parent.rglob("Roboto*.ttf")
    )
    assert found, "flet-web ships no Roboto file any more: find the offline build's text font"
    return _cmap(found[0])


def _texts(lang: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted((CATALOGS / lang).glob("*.json")):
        out.update(json.loads(path.read_text(encoding="utf-8")))
    return out


def _missing(text: str, *fonts: set[int]) -> set[str]:
    return {ch for ch in text if ord(ch) > 0x7E and ord(ch) not in INVISIBLE and not any(ord(ch) in f for f in fonts)}


@pytest.mark.parametrize("lang", sorted(p.name for p in CATALOGS.iterdir() if p.is_dir()))
def test_every_catalog_text_has_glyphs(lang: str, roboto: set[int]) -> None:
    def fonts_for(key: str) -> list[set[int]]:
        named = key.removeprefix("ui.language_")
        written_in = named if (CATALOGS / named).is_dir() else lang
        own = Tr(written_in).font  # a language's name is written in its own script's font
        return [roboto, _cmap(ROOT / "assets" / FONT_FILES[own])] if own else [roboto]

    boxes = {key: "".join(sorted(_missing(text, *fonts_for(key)))) for key, text in _texts(lang).items()}
    boxes = {key: chars for key, chars in boxes.items() if chars}
    assert not boxes, f"{lang}: characters no shipped font draws (they show as boxes): {boxes}"


def test_symbols_in_the_app_code_have_glyphs(roboto: set[int]) -> None:
    """Symbols written in the views themselves (•, ×, −, ·, Persian digits) have a glyph."""
    bundled = [_cmap(ROOT / "assets" / path) for path in FONT_FILES.values()]
    boxes = {}
    for path in sorted((ROOT / "companion" / "app").rglob("*.py")):
        chars = _missing(path.read_text(encoding="utf-8"), roboto, *bundled)
        if chars:
            boxes[str(path.relative_to(ROOT))] = "".join(sorted(chars))
    assert not boxes, f"characters no shipped font draws: {boxes}"
