"""Touch targets as a browser lays them out: every control's box in Flutter's accessibility tree.

Flutter web mirrors each control in a semantics node (`flt-semantics`) with the control's box
(notes/FLET.md: the semantics DOM is what a screen reader, and these tests, see of the canvas).
`controls` scrolls a page from its top to its bottom and lists each tappable node it meets
(a button, switch, checkbox, tab, slider, link, text field, or any node Flutter marks tappable),
with its name (test identifier, else its accessible name) and its size; `too_small` keeps those
under `TOUCH` in either direction.
"""

from __future__ import annotations

import asyncio
from typing import Any

from drivers.browser import evaluate

TOUCH = 48  # logical pixels: the smallest a thumb can hit (Material's touch target)
CONTROLS_JS = """() => {
  const roles = ['button', 'switch', 'checkbox', 'tab', 'slider', 'link', 'radio', 'textbox', 'menuitem'];
  const host = document.querySelector('flt-semantics-host');
  const out = [];
  if (!host) return out;
  for (const e of host.querySelectorAll('flt-semantics')) {
    const role = e.getAttribute('role') || '';
    const field = e.querySelector(':scope > input, :scope > textarea');
    if (!(roles.includes(role) || e.hasAttribute('flt-tappable') || field)) continue;
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const name = e.getAttribute('flt-semantics-identifier') || e.getAttribute('aria-label')
      || (field && (field.getAttribute('aria-label') || field.value)) || e.innerText || role;
    out.push({name: name.trim().slice(0, 60), width: r.width, height: r.height, y: r.top});
  }
  return out;
}"""


async def controls(page: Any, steps: int = 40) -> dict[str, tuple[float, float]]:
    """Every control met from the top of the page to its bottom: name -> (width, height).

    Flutter reports a node cut by the edge of its scrolling column at the size still shown, so
    each name keeps the largest box seen for it (a control is seen whole once on the way down).
    The page is at its bottom when a turn of the wheel moved nothing."""
    view = page.viewport_size
    found: dict[str, tuple[float, float]] = {}
    await page.mouse.move(view["width"] / 2, view["height"] / 2)
    await page.mouse.wheel(0, -50000)
    await asyncio.sleep(0.4)
    seen: list[tuple[str, int]] | None = None
    for _ in range(steps):
        now = await evaluate(page, CONTROLS_JS)
        for c in now:
            size = (round(c["width"], 1), round(c["height"], 1))
            old = found.get(c["name"])
            found[c["name"]] = size if old is None else (max(old[0], size[0]), max(old[1], size[1]))
        where = [(c["name"], round(c["y"])) for c in now]
        if where == seen:
            break
        seen = where
        await page.mouse.wheel(0, view["height"] * 0.75)
        await asyncio.sleep(0.35)
    await page.mouse.wheel(0, -50000)
    await asyncio.sleep(0.3)
    return found


def too_small(found: dict[str, tuple[float, float]], touch: float = TOUCH) -> dict[str, tuple[float, float]]:
    return {name: size for name, size in found.items() if min(size) < touch - 0.5}
