"""No traceback leaves the server: what Flet 1.0.5 would send a client about an error goes to
the server's log, and the client gets one line.

Flet sends the text of an exception, with its whole traceback (the install's and the source's
paths in it), to the client whose session raised it: from an event handler, an effect, the
session's start, its `before_main` hook or a reconnect (as a "session crashed" message, or as
the error of its registration answer). Every one of those leaves through the connection's
`send_message`, where it is replaced here by one line, from `apply`'s `notice(session)` (the
app's words, in the session's language); the original text is logged as an error.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

CRASHED, REGISTERED = 6, 1  # Flet's MessageAction values of the messages that carry an error
_applied: list[Callable[[Any], str]] = []  # the notice in force (the last server's; one per process)


def apply(notice: Callable[[Any], str]) -> None:
    """Send `notice(session)` (one line) instead of any error text (the patch is made once per
    process; a later call changes the notice)."""
    _applied[:] = [notice]
    from flet_web.fastapi.flet_app import FletApp

    if getattr(FletApp.send_message, "_dyo_quiet", False):
        return
    send_message = FletApp.send_message

    @functools.wraps(send_message)  # Flet's own source stays what inspect reads (tests pin it)
    def quiet(app: FletApp, message: Any) -> None:
        send_message(app, redacted(message, getattr(app, "_FletApp__session", None)))

    quiet._dyo_quiet = True  # type: ignore[attr-defined]
    FletApp.send_message = quiet


def redacted(message: Any, session: Any) -> Any:
    """`message`, or, if it carries an error's text, the same message with one line instead."""
    from flet.messaging.protocol import Message, RegisterClientResponseBody, SessionCrashedBody

    action = getattr(getattr(message, "action", None), "value", None)
    body = getattr(message, "body", None)
    if action == CRASHED and isinstance(body, SessionCrashedBody):
        log.error("a session's error, not sent to its client:\n%s", body.message)
        return Message(message.action, SessionCrashedBody(_notice(session)))
    if action == REGISTERED and isinstance(body, RegisterClientResponseBody) and body.error:
        log.error("a registration's error, not sent to its client:\n%s", body.error)
        return Message(
            message.action,
            RegisterClientResponseBody(session_id=body.session_id, page_patch=body.page_patch, error=_notice(session)),
        )
    return message


def _notice(session: Any) -> str:
    try:
        text = _applied[0](session) if _applied else ""
    except Exception:  # the notice itself failed: a line that needs nothing
        log.exception("cannot word an error notice")
        text = ""
    lines = text.strip().splitlines()
    return lines[0][:200] if lines else "Error"
