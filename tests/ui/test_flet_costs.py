"""The two costs of Flet's that the app removes (companion/app/host/flet_costs.py), each checked
against the pinned Flet: with the fix it is gone, without it it is there (an upgrade that makes
a fix needless, or breaks it, fails here)."""

from __future__ import annotations

import inspect
import subprocess
import sys
import textwrap

from flet.messaging.protocol import Message, MessageAction

from companion.app.host import flet_costs

# A column patched three times (a control removed, a row added, a text changed), each patch
# encoded as for the websocket; prints what the cyclic collector found after each.
PATCHES = textwrap.dedent(
    """
    import gc, sys
    import flet as ft
    import msgpack
    from flet.controls.base_control import BaseControl
    from flet.controls.object_patch import ObjectPatch
    from flet.messaging.protocol import configure_encode_object_for_msgpack

    if sys.argv[1] == "fixed":
        from companion.app.host import flet_costs
        flet_costs.apply()
    encode = configure_encode_object_for_msgpack(BaseControl)
    column = ft.Column([ft.Text(str(i)) for i in range(5)])
    msgpack.packb(ObjectPatch.from_diff(None, column, control_cls=BaseControl)[0].to_message(), default=encode)
    found = []
    for i in range(3):
        column.controls.pop(0)
        column.controls.append(ft.Row([ft.Text(f"new {i}"), ft.Container(ft.Text("x"))]))
        column.controls[0].value = f"changed {i}"
        gc.collect()
        patch, added, removed = ObjectPatch.from_diff(column, column, control_cls=BaseControl)
        assert patch.patch and added and removed
        msgpack.packb(patch.to_message(), default=encode)
        del patch, added, removed
        found.append(gc.collect())
    print(found)
    """
)


def _cyclic_garbage(mode: str) -> list[int]:
    run = subprocess.run([sys.executable, "-c", PATCHES, mode], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return [int(n) for n in run.stdout.strip().strip("[]").split(",")]


def test_a_sent_patch_leaves_nothing_for_the_cyclic_collector() -> None:
    assert all(n > 0 for n in _cyclic_garbage("as-shipped"))  # Flet's own teardown leaves a cycle
    assert _cyclic_garbage("fixed") == [0, 0, 0]


class Costly:
    """A control whose text must never be made on the way to a browser."""

    def __repr__(self) -> str:
        raise AssertionError("the patch was spelled out")


def test_a_message_is_named_by_its_action_without_reading_its_patch() -> None:
    from flet_web.fastapi.flet_app import FletApp

    assert 'f"send_message: {message}"' in inspect.getsource(FletApp.send_message)  # still formatted there
    flet_costs.apply()
    message = Message(MessageAction.PATCH_CONTROL, {"id": 1, "patch": [Costly()]})
    assert f"send_message: {message}" == f"send_message: Message({MessageAction.PATCH_CONTROL!r})"


def test_a_tap_that_hands_its_step_to_a_task_spares_the_update_of_the_whole_page() -> None:
    """Flet still updates the whole page after a handler that updated nothing; the app turns that
    off inside an event's own context, and never outside one (it would be every session's default)."""
    import contextvars

    import flet as ft
    from flet.messaging.session import Session

    assert "auto_update_enabled()" in inspect.getsource(Session.after_event)  # still done after each event

    def event() -> bool:
        ft.context.reset_auto_update()  # what Flet does before each handler
        flet_costs.spare_page_update()
        return ft.context.auto_update_enabled()

    assert contextvars.Context().run(event) is False
    outside = contextvars.Context().run(lambda: (flet_costs.spare_page_update(), ft.context.auto_update_enabled()))
    assert outside == (None, True)
    assert contextvars.Context().run(lambda: (ft.context.reset_auto_update(), ft.context.auto_update_enabled())) == (
        None,
        True,
    )  # the default every event starts from is untouched
