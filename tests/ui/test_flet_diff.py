"""What the browser holds after Flet's patches equals what the screen holds (companion/app/host/flet_diff.py).

Patches are encoded as for the websocket and applied to a model of the browser's tree, the way
its client applies them (a path table, then add, remove, replace and move operations). A slot
that shows a kept panel, another panel, then the kept panel again after its rows changed is what
left the decision panel without buttons at a real table; as shipped, Flet sends that panel's
rows twice over, and the fix sends them once. A property test then tries random sequences of the
same moves (show, hide, swap, change a kept panel while away, change it in place) with the fix.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import flet as ft
import msgpack
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import ObjectPatch
from flet.messaging.protocol import configure_encode_object_for_msgpack
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.app.host import flet_diff

ENCODE = configure_encode_object_for_msgpack(BaseControl)
ADD, REMOVE, REPLACE, MOVE = 1, 2, 0, 3  # flet.controls.object_patch.Operation's values


class Browser:
    """The controls as the browser holds them: the first full send, then every patch applied."""

    def __init__(self, root: ft.Control) -> None:
        self.root = _wire(ObjectPatch.from_diff(None, root, control_cls=BaseControl)[0].to_message())[1][3]

    def update(self, control: ft.Control) -> None:
        """`control.update()` as a session sends it: a diff of its subtree, encoded at once."""
        message = _wire(ObjectPatch.from_diff(control, control, control_cls=BaseControl)[0].to_message())
        target = _find(self.root, control._i)
        assert target is not None, "the browser does not hold the control being updated"
        paths = _paths(message[0])
        for op in message[1:]:
            kind = op[0]
            if kind == MOVE:
                source = _walk(target, paths[op[1]])
                item = source.pop(op[2])
                _walk(target, paths[op[3]]).insert(op[4], item)
                continue
            where = _walk(target, paths[op[1]])
            if kind == REMOVE:
                del where[op[2]]
            elif kind == ADD and isinstance(where, list):
                where.insert(op[2], op[3])
            else:
                where[op[2]] = op[3]


def _wire(message: list[Any]) -> Any:
    """The message as the browser decodes it (enumerations as their values)."""
    return msgpack.unpackb(msgpack.packb(message, default=ENCODE), strict_map_key=False)


def _paths(table: list[Any], prefix: tuple[Any, ...] = ()) -> dict[int, tuple[Any, ...]]:
    """Node id -> path, from the patch's path table ([id, {key: [id, {...}]}])."""
    found = {table[0]: prefix}
    for key, node in (table[1] if len(table) > 1 else {}).items():
        found.update(_paths(node, (*prefix, key)))
    return found


def _walk(node: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        if isinstance(node, list):
            if not isinstance(key, int) or key >= len(node):
                raise IndexError(f"index {key} of a list of {len(node)}")
            node = node[key]
        else:
            node = node.setdefault(key, [] if key == "controls" else {})
    return node


def _find(node: Any, control_id: int) -> Any:
    if isinstance(node, dict):
        if node.get("_i") == control_id:
            return node
        children = node.values()
    elif isinstance(node, list):
        children = node
    else:
        return None
    for child in children:
        found = _find(child, control_id)
        if found is not None:
            return found
    return None


def held(node: Any) -> Any:
    """What the browser's copy shows: each control's id, text, visibility and children."""
    children = node.get("controls") or ([node["content"]] if node.get("content") else [])
    return (node["_i"], node.get("value"), node.get("visible", True), [held(c) for c in children])


def shown(control: Any) -> Any:
    """The same of the screen's own controls."""
    children = getattr(control, "controls", None) or ([control.content] if getattr(control, "content", None) else [])
    return (control._i, getattr(control, "value", None), control.visible, [shown(c) for c in children])


class Table:
    """A slot that shows a kept panel or a panel built anew, as the table screen's head does."""

    def __init__(self) -> None:
        self.kept = ft.Column([ft.Text("kept title"), ft.Column([ft.Text("a"), ft.Text("b"), ft.Text("c")])])
        self.slot = ft.Container(self.kept)
        self.root = ft.Column([ft.Text("head"), self.slot])
        self.browser = Browser(self.root)
        self.count = 0

    def rows(self, n: int) -> None:
        """The kept panel's answers are rewritten (on the page or off it)."""
        self.count += 1
        offers = self.kept.controls[1]
        offers.controls = [ft.Text(f"answer {self.count}.{i}") for i in range(n)]

    def show(self, panel: ft.Control | None) -> None:
        if panel is None:
            self.slot.visible = False
        else:
            self.slot.content, self.slot.visible = panel, True
        self.send()

    def other(self) -> ft.Control:
        self.count += 1
        return ft.Column([ft.Text(f"other panel {self.count}")])

    def send(self) -> None:
        self.browser.update(self.slot)
        assert held(self.browser.root) == shown(self.root)


def test_a_kept_panel_shown_again_with_fewer_rows_arrives_once() -> None:
    flet_diff.apply()
    table = Table()
    table.show(table.other())  # the Michel cards take the slot
    table.rows(2)  # the decision comes back with two answers instead of three
    table.show(table.kept)
    table.rows(4)  # and, on the page, with four
    table.send()


AS_SHIPPED = textwrap.dedent(
    """
    import sys
    from tests.ui.test_flet_diff import Table
    if sys.argv[1] == "fixed":
        from companion.app.host import flet_diff
        flet_diff.apply()
    table = Table()
    table.show(table.other())
    table.rows(int(sys.argv[2]))
    try:
        table.show(table.kept)
    except (AssertionError, IndexError) as broken:
        print("broken", type(broken).__name__)
    else:
        print("whole")
    """
)


def _outcome(mode: str, rows: int) -> str:
    run = subprocess.run(
        [sys.executable, "-c", AS_SHIPPED, mode, str(rows)], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_as_shipped_the_browser_gets_a_kept_panels_rows_twice_and_the_fix_sends_them_once() -> None:
    """Fewer rows than it was sent with: removals past the end; more: rows doubled. Fixed: whole."""
    assert _outcome("as-shipped", 1) == "broken IndexError"
    assert _outcome("as-shipped", 5) == "broken AssertionError"
    assert _outcome("fixed", 1) == _outcome("fixed", 5) == "whole"


MOVES = st.lists(
    st.one_of(
        st.tuples(st.just("kept"), st.integers(0, 5)),
        st.tuples(st.just("away"), st.integers(0, 5)),
        st.tuples(st.just("in_place"), st.integers(0, 5)),
        st.just(("other", 0)),
        st.just(("hide", 0)),
    ),
    max_size=12,
)


@settings(max_examples=150, deadline=None)
@given(MOVES)
def test_the_browser_holds_what_the_screen_holds_after_any_sequence(moves: list[tuple[str, int]]) -> None:
    flet_diff.apply()
    table = Table()
    for move, n in moves:
        if move == "kept":
            table.rows(n)
            table.show(table.kept)
        elif move == "away":  # rewritten while another panel (or nothing) is shown
            table.rows(n)
        elif move == "in_place":
            table.rows(n)
            table.send()
        elif move == "other":
            table.show(table.other())
        else:
            table.show(None)
