"""Three costs Flet 1.0.5's web server pays, and the app does without.

Every session of a process shares one event loop, so what a patch costs one screen delays every
phone of every table on that instance. Three of those costs buy nothing:

- Its web transport formats `f"send_message: {message}"` for a debug log before every frame,
  whether or not that log is on, and a message's dataclass text spells out its whole patch.
  About a tenth of a busy instance's CPU (py-spy, 20 tables).
- Its diff keeps the patch's operations in a doubly linked list, and its teardown unlinks only
  the list's head: every patch is left as a cycle of a few hundred lists, dicts and operations
  that only the cyclic collector frees. At 45 tables an instance collected 5,000-15,000 such
  objects every few seconds in pauses of 50-170 ms, and its middle generation in 300-400 ms,
  stalling every screen on it.
- After an event handler that called no `update()`, it updates the whole page: a diff of every
  control of the screen. A tap that records an action hands its step to a task and changes
  nothing itself, so that diff finds nothing to send; on a loaded 2-core machine it still took
  25-40 ms, and the step waited for it before it could start (`spare_page_update`).

The fixes change nothing a browser receives (tests/ui/test_flet_costs.py checks each against
the Flet version pinned in pyproject.toml; an upgrade that changes any of them fails there).
"""

from __future__ import annotations

from typing import Any

_applied = False


def apply() -> None:
    """Remove both costs (once per process; the server and the benchmarks' sessions call it)."""
    global _applied
    if _applied:
        return
    from flet.controls.object_patch import DiffBuilder
    from flet.messaging.protocol import Message

    Message.__repr__ = _brief_message  # type: ignore[method-assign]
    original = DiffBuilder.teardown

    def teardown(builder: DiffBuilder) -> None:
        root = unlink_operations(builder)
        original(builder)  # which links the head to itself again
        if root is not None:
            root.clear()

    DiffBuilder.teardown = teardown  # type: ignore[method-assign,assignment]
    _applied = True


def spare_page_update() -> None:
    """Skip the update of the whole page after this event's handler: its screen sends its own.

    Only inside an event's own context (Flet gives each one): elsewhere the same call would
    change the default of every session of the process.
    """
    import flet as ft
    from flet.controls.context import _update_behavior_context_var

    if _update_behavior_context_var.get() is not None:
        ft.context.disable_auto_update()


def _brief_message(message: Any) -> str:
    """A message's text for a debug log: its action; no one reads more."""
    return f"Message({message.action!r})"


def unlink_operations(builder: Any) -> list[Any] | None:
    """Empty every node of the diff's operation list ([previous, next, operation]) but its head,
    which is returned, so the patch is freed the moment it is sent."""
    root: list[Any] | None = getattr(builder, "_DiffBuilder__root", None)
    if not root:
        return None
    node = root[1]
    while node is not root and node:
        following = node[1]
        node.clear()
        node = following
    return root
