"""Sending a frame to a browser does not spell out its patch (server.name_messages_briefly)."""

from __future__ import annotations

from flet.messaging.protocol import Message, MessageAction

from companion.app.server import name_messages_briefly


class Costly:
    """A control whose text must never be made on the way to a browser."""

    def __repr__(self) -> str:
        raise AssertionError("the patch was spelled out")


def test_a_message_is_named_by_its_action_without_reading_its_patch() -> None:
    name_messages_briefly()
    message = Message(MessageAction.PATCH_CONTROL, {"id": 1, "patch": [Costly()]})
    assert f"send_message: {message}" == f"send_message: Message({MessageAction.PATCH_CONTROL!r})"
