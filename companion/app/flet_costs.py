"""Two costs Flet 1.0.5's web server pays on every patch it sends, and the app does without.

Every session of a process shares one event loop, so what a patch costs one screen delays every
phone of every table on that instance. Two of those costs buy nothing:

- Its web transport formats `f"send_message: {message}"` for a debug log before every frame,
  whether or not that log is on, and a message's dataclass text spells out its whole patch.
  About a tenth of a busy instance's CPU (py-spy, 20 tables).
- Its diff keeps the patch's operations in a doubly linked list, and its teardown unlinks only
  the list's head: every patch is left as a cycle of a few hundred lists, dicts and operations
  that only the cyclic collector frees. At 45 tables an instance collected 5,000-15,000 such
  objects every few seconds in pauses of 50-170 ms, and its middle generation in 300-400 ms,
  stalling every screen on it.

Both fixes change nothing a browser receives (tests/ui/test_flet_costs.py checks each against
the Flet version pinned in pyproject.toml; an upgrade that changes either fails there).
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


def _brief_message(message: Any) -> str:
    """A message's text for a debug log: its action; no one reads more."""
    return f"Message({message.action!r})"


def unlink_operations(builder: Any) -> list[Any] | None:
    """Empty every node of the diff's operation list ([previous, next, operation]) but its head,
    which is returned, so the patch is freed the moment it is sent."""
    root = getattr(builder, "_DiffBuilder__root", None)
    if not root:
        return None
    node = root[1]
    while node is not root and node:
        following = node[1]
        node.clear()
        node = following
    return root
