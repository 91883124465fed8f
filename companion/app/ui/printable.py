"""The setup checklist as a plain HTML page a browser prints cleanly (served by entry/web.py).

One column of text with an empty box before each line, the sections as headings that never end
a printed page, no colours the printer would waste ink on, and the viewer's language and
writing direction (Persian in the app's own Vazirmatn, served with the assets). Every text is
escaped: player names are the table's words.
"""

from __future__ import annotations

import base64
import json
from html import escape
from typing import Any
from urllib.parse import urlencode

from companion.i18n import DEFAULT_LANGUAGE, languages
from companion.rules import BadJson, decode_json

from ..vm.checklist import ChecklistVM, checklist_view
from ..vm.text import FONT_FILES, Tr

MAX_ADDRESS_CONFIG = 12_000  # characters of a configuration carried in the address (a setup is far smaller)
# The page runs one inline handler (the Print button) and loads nothing but the app's own font.
PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; font-src 'self'"

_STYLE = """
{font_face}
body {{ font-family: {family}; margin: 2em auto; max-width: 46em; padding: 0 1em; color: #000; background: #fff;
  line-height: 1.4; }}
h1 {{ font-size: 1.5em; margin: 0 0 .2em; }}
h2 {{ font-size: 1.15em; margin: 1.2em 0 .4em; border-bottom: 1px solid #000; break-after: avoid; }}
ul {{ list-style: none; margin: 0; padding: 0; }}
li {{ display: flex; gap: .6em; align-items: flex-start; padding: .25em 0; break-inside: avoid; }}
.box {{ flex: none; width: .95em; height: .95em; margin-top: .2em; border: 1.5px solid #000; }}
.text {{ flex: 1; }}
.rule {{ flex: none; font-size: .75em; color: #444; margin-top: .25em; }}
.hint {{ color: #444; }}
@media print {{ .no-print {{ display: none; }} body {{ margin: 0; max-width: none; }} @page {{ margin: 14mm; }} }}
"""


def checklist_page(vm: ChecklistVM, tr: Tr) -> str:
    """The whole page: title, whom it is for, then each section's lines (or why there are none)."""
    font = tr.font
    face = f"@font-face {{ font-family: '{font}'; src: url('/{FONT_FILES[font]}'); }}" if font else ""
    family = f"'{font}', sans-serif" if font else "sans-serif"
    title = escape(tr("checklist.page_title"))
    parts = [
        "<!doctype html>",
        f'<html lang="{escape(tr.lang)}" dir="{"rtl" if tr.rtl else "ltr"}">',
        f'<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title><style>{_STYLE.format(font_face=face, family=family)}</style></head>",
        f"<body><h1>{title}</h1>",
    ]
    if vm.players:
        parts.append(f"<p>{escape(tr('checklist.page_for', players=list(vm.players)))}</p>")
    parts.append(
        f'<p class="hint no-print">{escape(tr("checklist.print_hint"))} '
        f'<button type="button" onclick="window.print()">{escape(tr("checklist.print_button"))}</button></p>'
    )
    if vm.problem is not None:
        parts.append(f"<p>{escape(vm.problem)}</p>")
    for section in vm.sections:
        parts.append(f'<section id="{escape(section.id)}"><h2>{escape(section.title)}</h2><ul>')
        for line in section.lines:
            rule = f'<span class="rule">{escape(line.rule)}</span>' if line.rule else ""
            parts.append(
                f'<li id="{escape(line.key)}"><span class="box"></span>'
                f'<span class="text">{escape(line.text)}</span>{rule}</li>'
            )
        parts.append("</ul></section>")
    parts.append("</body></html>")
    return "\n".join(parts)


def checklist_html(config: Any, lang: str) -> str:
    """The page of `config`'s checklist in `lang` (English for a language the app does not have)."""
    tr = Tr(lang if lang in languages() else DEFAULT_LANGUAGE)
    return checklist_page(checklist_view(config, tr), tr)


def address_of(config: dict[str, Any], lang: str, key: str | None = None) -> str:
    """Where the page of a setup not started yet is: its configuration in the address."""
    packed = base64.urlsafe_b64encode(json.dumps(config, separators=(",", ":")).encode("utf-8")).decode("ascii")
    query = {"config": packed.rstrip("="), "lang": lang} | ({"host": key} if key else {})
    return f"/setup/checklist.html?{urlencode(query)}"


def config_from_address(packed: str) -> Any:
    """The configuration an address carries (None: none, or not JSON the engine may read; the
    engine then judges it as any other)."""
    if not packed or len(packed) > MAX_ADDRESS_CONFIG:
        return None
    try:
        raw = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
        return decode_json(raw)
    except (ValueError, BadJson):
        return None
