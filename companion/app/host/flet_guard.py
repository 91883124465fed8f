"""Every message a client sends is checked before Flet 1.0.5 does any work for it, and the work
it then does is timed and charged to the connection that asked for it.

Every session of a process shares one event loop, so what one client makes the server do
delays every table. Flet trusts its client: an event for a control id it does not know sends
it walking the whole page in search of it (30-40 ms on the rule book, for nothing), an event
nobody listens to still updates the whole page, data of the wrong shape raises inside Flet or
the app's handler, a second registration on one socket opens another session, and the page
events only the server raises (connect, disconnect, close) can be raised by anyone.

Checked here, in constant time, before Flet reads a message: its action and fields; an event's
control is a live one (Flet's own index of mounted controls, never the page), its name one the
control has and someone listens to, its data of the shape the event is built from; a property
patch names fields the control has, of fitting values (wire_shapes.py); a method's answer names
a live control. What fails is dropped (and logged, a few per connection); a malformed
registration closes the connection.

What passes is timed: each step of the work a message sets off on the loop is measured and
charged to `ACCOUNT`, the connection's account the door sets (door/budget.py): the message's own
handling, and every task made while the connection is served (Flet's event dispatch and the
session's start, the app's follow-ups: each task inherits the account of the context it was
made in). What is refused is charged there as refused, so a flood of junk drains its sender's
budget at once. Outside a web connection nothing is charged.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import re
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Generator
from functools import cache
from time import thread_time
from typing import Any, Generic, Protocol, TypeVar, cast, get_origin

from . import wire_shapes

log = logging.getLogger(__name__)


class Account(Protocol):
    """What a connection's work costs it (door/budget.py's `Meter`)."""

    def charge(self, ms: float) -> None:
        """The loop's time its work took (milliseconds)."""

    def refused(self) -> None:
        """One of its messages was refused."""


# The account of the connection being served; set per connection by the door, inherited by its tasks.
ACCOUNT: contextvars.ContextVar[Account | None] = contextvars.ContextVar("dyo_account", default=None)
REGISTER, EVENT, PATCH, ANSWER = 1, 3, 4, 5  # Flet's MessageAction values a client may send
# Page events only the server raises (a client raising them would detach or close its session).
SERVER_EVENTS = frozenset({"connect", "disconnect", "close", "login", "logout", "authorize"})
# Page events Flet itself acts on even when nobody listens (its route, its visibility).
PAGE_OWN_EVENTS = frozenset({"route_change", "view_pop", "views_pop_until", "app_lifecycle_state_change"})
EVENT_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")
LOGGED_PER_CONNECTION = 3  # refusals logged one by one; the rest are counted
_EVENT_GIVEN = frozenset({"control", "name"})  # what Flet fills in an event itself
_MISSING = object()
POLICY_VIOLATION = 1008  # the websocket close code of a refused connection
T = TypeVar("T")

_applied = False


class Refused(Exception):
    """A client message that is not carried out; `close`: the connection goes with it;
    `quiet`: a message a real browser sends (an event nobody listens to), not worth a log line."""

    def __init__(self, why: str, *, close: bool = False, quiet: bool = False) -> None:
        super().__init__(why)
        self.close = close
        self.quiet = quiet


def apply() -> None:
    """Check and time what clients send (once per process; the web server calls it)."""
    global _applied
    if _applied:
        return
    from fastapi import WebSocketDisconnect
    from flet_web.fastapi.flet_app import FletApp

    on_message = FletApp._FletApp__on_message

    @functools.wraps(on_message)  # Flet's own source stays what inspect reads (tests pin it)
    async def guarded(app: FletApp, data: Any) -> None:
        charge_tasks(asyncio.get_running_loop())
        try:
            check(app._FletApp__session, data)
        except Refused as refusal:
            _note(app, refusal)
            account = ACCOUNT.get()
            if account is not None:
                account.refused()
            if refusal.close:
                await _close(app)
                if app._FletApp__session is None:  # Flet stops its send loop only for a session
                    app._FletApp__send_queue.put_nowait(None)
                raise WebSocketDisconnect(POLICY_VIOLATION) from None
            return
        await timed(on_message(app, data))

    FletApp._FletApp__on_message = guarded
    _applied = True


def session_closed(session: Any) -> bool:
    """Whether Flet has closed a session (evicted after its grace period, or the server stopping)."""
    return bool(getattr(session, "_Session__closed", False))


# --- the checks ---------------------------------------------------------------------------------


def check(session: Any, data: Any) -> None:
    """Raise `Refused` unless `data` (a decoded client message) is one Flet may carry out for
    `session` (None: the connection has not registered yet)."""
    if not (isinstance(data, list) and len(data) == 2 and isinstance(data[1], dict)):
        raise Refused("not a Flet message")
    action, body = data
    if action == REGISTER:
        _check_registration(session, body)
    elif session is None:
        raise Refused("a message before the registration", close=True)
    elif action == EVENT:
        _check_event(session, body)
    elif action == PATCH:
        _check_patch(session, body)
    elif action == ANSWER:
        _check_answer(session, body)
    else:
        raise Refused(f"no action {str(action)[:20]!r} from a client")


def _check_registration(session: Any, body: dict[Any, Any]) -> None:
    from flet.controls.page import Page

    if session is not None:
        raise Refused("a second registration on one connection", close=True)
    page = body.get("page")
    if not isinstance(page, dict) or not wire_shapes.patches(Page, page):
        raise Refused("a registration with a malformed page", close=True)


def _check_event(session: Any, body: dict[Any, Any]) -> None:
    from flet.controls.page import Page

    if body.keys() != {"target", "name", "data"}:
        raise Refused("an event with other fields")
    control = _live(session, body["target"])
    name = body["name"]
    if not isinstance(name, str) or not EVENT_NAME.fullmatch(name) or name in SERVER_EVENTS:
        raise Refused(f"no event {str(name)[:40]!r} from a client")
    handler = getattr(control, f"on_{name}", _MISSING)
    if handler is _MISSING:
        raise Refused(f"no event {name!r} on a {type(control).__name__}")
    if handler is None and not (isinstance(control, Page) and name in PAGE_OWN_EVENTS):
        raise Refused(f"nobody listens to {name!r}", quiet=True)
    kind = event_type(control.__class__, name)
    if kind is None or not event_data_fits(kind, body["data"]):
        raise Refused(f"malformed data for {name!r}")


def _check_patch(session: Any, body: dict[Any, Any]) -> None:
    if body.keys() != {"id", "props"}:
        raise Refused("a patch with other fields")
    control = _live(session, body["id"])
    props = body["props"]
    if not isinstance(props, dict) or not wire_shapes.patches(control, props):
        raise Refused(f"a malformed patch of a {type(control).__name__}")


def _check_answer(session: Any, body: dict[Any, Any]) -> None:
    if body.keys() != {"control_id", "call_id", "result", "error"}:
        raise Refused("an answer with other fields")
    _live(session, body["control_id"])
    if not isinstance(body["call_id"], str) or not isinstance(body["error"], str | None):
        raise Refused("a malformed answer")


def _live(session: Any, control_id: object) -> Any:
    """The live control of that id: Flet's index of the session's mounted controls, one lookup."""
    control = session.index.get(control_id) if type(control_id) is int else None
    if control is None:
        raise Refused("an unknown control", quiet=True)
    return control


def event_data_fits(kind: Any, data: object) -> bool:
    """Whether `data` builds the event `kind` as Flet will: a plain event carries a plain value; a
    richer one (a route change, a key) is built from a dict with every field it needs."""
    from flet.controls.control_event import Event

    cls = get_origin(kind) or kind
    if not (isinstance(cls, type) and issubclass(cls, Event)):
        return False
    if cls is Event:
        return wire_shapes.scalar(data)
    return isinstance(data, dict) and wire_shapes.builds(cls, data, given=_EVENT_GIVEN)


@cache
def event_type(cls: type, name: str) -> Any:
    """The type of the event a control's `on_<name>` handler receives (Flet's answer, which reads
    only the control's class, kept per class)."""
    from flet.controls.control_event import get_event_field_type

    try:
        return get_event_field_type(cast(Any, cls).__new__(cls), f"on_{name}")
    except Exception:
        return None


# --- the refusals -------------------------------------------------------------------------------

_REFUSED: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()


def _note(app: Any, refusal: Refused) -> None:
    """Log a refusal, the first few of each connection; a flood is summed up as it goes on."""
    count = _REFUSED.get(app, 0) + 1
    _REFUSED[app] = count
    address = getattr(app, "_FletApp__client_ip", "") or "?"
    if refusal.quiet and not refusal.close:
        log.debug("dropped a message from %s: %s", address, refusal)
    elif count <= LOGGED_PER_CONNECTION or refusal.close:
        log.warning("refused a message from %s: %s", address, refusal)
    elif count & (count - 1) == 0:  # 4, 8, 16, ...: a flood is summed up as it goes on
        log.warning("refused %d messages from %s so far", count, address)


async def _close(app: Any) -> None:
    socket = getattr(app, "_FletApp__websocket", None)
    if socket is None:
        return
    try:
        await socket.close(code=POLICY_VIOLATION)
    except Exception:  # already closed
        log.debug("the socket was closed already", exc_info=True)


# --- the timing ---------------------------------------------------------------------------------


def charge_tasks(loop: asyncio.AbstractEventLoop) -> None:
    """Time every task `loop` makes in a context with an account, for that account (once per loop;
    a task factory already there is kept and used)."""
    made = loop.get_task_factory()
    if getattr(made, "_dyo_charged", False):
        return

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **options: Any) -> asyncio.Future[Any]:
        account = ACCOUNT.get()
        if account is not None and asyncio.iscoroutine(coro):
            coro = _charged(coro, account)
        if made is not None:
            return made(loop, coro, **options)
        return asyncio.Task(coro, loop=loop, **options)

    factory._dyo_charged = True  # type: ignore[attr-defined]
    loop.set_task_factory(factory)


async def _charged(work: Coroutine[Any, Any, T], account: Account) -> T:
    return await _Steps(work, account.charge)


async def timed(work: Awaitable[T]) -> T:
    """Run `work`, charging `ACCOUNT` the milliseconds each of its steps held the loop (the waits
    between them, for the database or the client, cost nothing). The loop thread's own processor
    time is what is counted: on a loaded machine, the time the system gave other processes is
    not the sender's doing."""
    account = ACCOUNT.get()
    if account is None:
        return await work
    return await _Steps(work, account.charge)


class _Steps(Generic[T]):
    """An awaitable that runs another step by step, timing each."""

    def __init__(self, work: Awaitable[T], charge: Callable[[float], None]) -> None:
        self.work = work
        self.charge = charge

    def __await__(self) -> Generator[Any, Any, T]:
        steps = self.work.__await__()
        sent: Any = None
        thrown: BaseException | None = None
        while True:
            start = thread_time()
            try:
                yielded = steps.throw(thrown) if thrown is not None else steps.send(sent)
            except StopIteration as finished:
                self.charge((thread_time() - start) * 1000)
                return cast(T, finished.value)
            except BaseException:
                self.charge((thread_time() - start) * 1000)
                raise
            self.charge((thread_time() - start) * 1000)
            sent, thrown = None, None
            try:
                sent = yield yielded
            except BaseException as error:  # cancelled while waiting: handed to the work
                thrown = error
