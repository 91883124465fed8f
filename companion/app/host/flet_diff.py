"""A fault of Flet 1.0.5's diff that left panels without their buttons, and its fix.

A screen keeps some panels between redraws (the pending decision, buttons kept by `Memo`) and
puts them back in a slot after another panel stood there. Flet then sends the kept panel whole,
as it stands now, and in the same patch it also compares the panel against the snapshot it
took when the panel was last sent: a second, stale set of changes for the same controls. The
browser applies both, so a list that shrank meanwhile gets removals past its end (an
`IndexError` and a panel with no buttons) and one that grew gets its new rows twice (doubled
controls that do nothing when tapped).

The fix: a control that a patch adds whole is not compared in place in that same patch. What
the browser receives is then the control as it stands, once; the snapshots are taken again as
it is encoded, so the next patch compares against what the browser holds. Nothing else changes
(tests/ui/test_flet_diff.py replays patches into a model of the browser's tree, with and
without the fix, against the Flet version pinned in pyproject.toml).
"""

from __future__ import annotations

from typing import Any

_applied = False


def apply() -> None:
    """Fix the diff (once per process; the server and the benchmarks' sessions call it)."""
    global _applied
    if _applied:
        return
    from flet.controls.object_patch import DiffBuilder

    compare = DiffBuilder._compare_dataclasses

    def compare_unless_added(
        builder: DiffBuilder, parent: Any, path: list[Any], src: Any, dst: Any, frozen: bool
    ) -> None:
        if not frozen and src is dst and builder._get_dataclass_key(dst) in builder._added_dataclasses:
            return  # sent whole by this patch, as it stands: its old snapshot says nothing now
        compare(builder, parent, path, src, dst, frozen)

    DiffBuilder._compare_dataclasses = compare_unless_added  # type: ignore[method-assign,assignment]
    _applied = True
