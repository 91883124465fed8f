"""The fonts the web client loads before its first frame: only those the app draws with.

Flutter's web engine downloads every font of `assets/FontManifest.json` before it paints
anything. Flet's client lists the KaTeX fonts (its Markdown's maths, 20 files), the Cupertino
icons and the whole Material icon font (1.26 MB, every icon Flet can name). This app draws no
maths and no Cupertino icon, and only a few dozen Material icons. So the server answers the
manifest with the KaTeX and Cupertino families left out, and with the Material icons cut down
(fontTools' subsetter) to the icons the app's code names plus those Flutter's own widgets draw;
Flet's files on disk are left as they are. An icon name that cannot be found in the font keeps
the whole font: an icon never goes missing to save bytes.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path

log = logging.getLogger(__name__)

# Font families of Flet's client that this app never draws with (FontManifest.json's "family").
UNUSED_FAMILIES = ("packages/flutter_math_fork/", "packages/cupertino_icons/")
ICON_FAMILY = "MaterialIcons"
# Icons Flutter's own Material widgets draw without the app naming them: the back buttons (Android
# and iOS), the menus, dropdowns, chips, snack bars, sorting, expanding, pickers and errors.
FRAMEWORK_ICONS = (  # noqa: SIM905 (a list of words reads better as words)
    "ARROW_BACK ARROW_BACK_IOS ARROW_BACK_IOS_NEW ARROW_FORWARD ARROW_FORWARD_IOS ARROW_DROP_DOWN ARROW_DROP_UP "
    "ARROW_UPWARD ARROW_DOWNWARD CLOSE CANCEL CHECK MENU MORE_VERT MORE_HORIZ EXPAND_MORE EXPAND_LESS "
    "CHEVRON_LEFT CHEVRON_RIGHT SEARCH CLEAR VISIBILITY VISIBILITY_OFF ERROR ERROR_OUTLINE WARNING "
    "INFO_OUTLINE DRAG_HANDLE EDIT CALENDAR_TODAY ACCESS_TIME KEYBOARD"
).split()
_NAMED = re.compile(r"\bIcons\.([A-Z][A-Z0-9_]*)\b")
_STYLES = ("_outlined", "_rounded", "_sharp")


def app_icon_names(package: Path) -> set[str]:
    """The Material icons the app's code names (`ft.Icons.NAME`), read from its sources: as
    Flutter's build shakes an icon font down to the icons its compiled code names. A word that is
    no icon of Flet's is not one."""
    import flet as ft

    names: set[str] = set()
    for source in sorted(package.rglob("*.py")):
        names.update(_NAMED.findall(source.read_text(encoding="utf-8", errors="replace")))
    return {name for name in names if hasattr(ft.Icons, name)}


def glyph_name(icon: str) -> str:
    """The glyph of Flet's icon name in Flutter's Material icon font: `ADD` is `add_baseline`,
    `PLAY_ARROW_ROUNDED` is `play_arrow_rounded` (Flutter's `Icons.add` and `Icons.play_arrow_rounded`)."""
    name = icon.lower()
    return name if name.endswith(_STYLES) else f"{name}_baseline"


def subset_icons(font: bytes, icons: Iterable[str]) -> bytes | None:
    """The Material icon font cut down to `icons` (Flet's names), at the code points Flutter
    draws them with; None (keep the whole font) when fontTools is missing, no icon is named, or
    a name is not in the font."""
    try:
        from fontTools import subset
        from fontTools.ttLib import TTFont
    except ImportError:
        log.warning("fontTools is missing: the whole Material icon font is served")
        return None
    wanted = sorted(set(icons))
    whole = TTFont(io.BytesIO(font), recalcTimestamp=False)  # the same bytes at every start: the same version
    code_of = {glyph: code for code, glyph in whole.getBestCmap().items()}
    missing = [icon for icon in wanted if glyph_name(icon) not in code_of]
    if not wanted or missing:
        log.warning("the whole Material icon font is served: icons not found in it: %s", ", ".join(missing))
        return None
    options = subset.Options()
    options.layout_features = []
    options.name_IDs = []
    options.notdef_outline = True
    options.glyph_names = False
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=[code_of[glyph_name(icon)] for icon in wanted])
    cutter.subset(whole)
    out = io.BytesIO()
    whole.save(out)
    return out.getvalue()


def font_manifest(flet_manifest: bytes, *, no_cdn: bool, icon_font: str | None) -> bytes:
    """Flet's FontManifest.json as Flet serves it (its Roboto added when it serves no CDN), less
    the unused families, with the Material icons at `icon_font` (an asset path) when given."""
    families = json.loads(flet_manifest)
    if no_cdn:
        families = _with_flet_roboto(families)
    kept = [family for family in families if not str(family.get("family", "")).startswith(UNUSED_FAMILIES)]
    if icon_font is not None:
        for family in kept:
            if family.get("family") == ICON_FAMILY:
                family["fonts"] = [{"asset": icon_font}]
    return json.dumps(kept, separators=(",", ":")).encode()


def icon_asset(flet_manifest: bytes) -> str | None:
    """Where Flet's manifest puts the Material icon font (relative to assets/)."""
    for family in json.loads(flet_manifest):
        if family.get("family") == ICON_FAMILY and family.get("fonts"):
            asset: str = family["fonts"][0]["asset"]
            return asset
    return None


def _with_flet_roboto(families: list[dict[str, object]]) -> list[dict[str, object]]:
    """The manifest as flet_web patches it when serving without a CDN (its own function, run on a
    copy: the entry it adds stays Flet's)."""
    from flet_web import patch_font_manifest_json

    handle, path = tempfile.mkstemp(suffix=".json")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as copy:
            json.dump(families, copy)
        patch_font_manifest_json(manifest_path=path)
        patched: list[dict[str, object]] = json.loads(Path(path).read_text(encoding="utf-8"))
        return patched
    finally:
        os.unlink(path)
