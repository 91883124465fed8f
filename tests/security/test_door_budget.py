"""The door's limits piece by piece, without a server: the budgets of the loop's time, the
settings, the shapes a client's values must have, the timing of a message's work, and the error
text a client is never sent."""

from __future__ import annotations

import argparse
import asyncio
import logging
import time
from typing import Any

import pytest

from companion.app.door.budget import ANSWER, Budget, Verdict
from companion.app.door.limits import (
    EVENT_BUDGET_ENV,
    KEYLESS_PER_ADDRESS_ENV,
    KEYLESS_SESSIONS_ENV,
    DoorLimits,
    Rate,
)
from companion.app.host import flet_guard, flet_traces, wire_shapes

EVENT = 3
SMALL = DoorLimits(
    keyed_session=Rate(100, 50),
    keyless_session=Rate(10, 5),
    address=Rate(1000, 500),
    strangers=Rate(1000, 500),
    message_ms=1.0,
    refused_ms=4.0,
    flood_messages=5,
    lockout_seconds=30.0,
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _budget(limits: DoorLimits = SMALL) -> tuple[Budget, Clock]:
    clock = Clock()
    return Budget(limits, clock), clock


def stranger(session: Any) -> bool:
    return False


def _verdicts(meter: Any, count: int, action: int = EVENT) -> list[Verdict]:
    return [meter.admit(action) for _ in range(count)]


# --- budgets ------------------------------------------------------------------------------------


def test_a_burst_passes_then_drops_then_a_flood_is_closed_and_its_address_locked_out() -> None:
    budget, clock = _budget()
    meter = budget.meter("10.0.0.2", stranger)
    assert _verdicts(meter, 10) == [Verdict.PASS] * 10
    assert _verdicts(meter, 4) == [Verdict.DROP] * 4
    assert meter.admit(EVENT) is Verdict.CLOSE
    assert budget.locked("10.0.0.2") and not budget.locked("10.0.0.3")
    clock.now += 31
    assert not budget.locked("10.0.0.2")


def test_the_budget_refills_with_time_and_a_pass_forgives_the_drops() -> None:
    budget, clock = _budget()
    meter = budget.meter("10.0.0.2", stranger)
    _verdicts(meter, 13)  # ten pass, three dropped (in debt by three)
    clock.now += 1.0  # five refilled: two above zero
    assert meter.admit(EVENT) is Verdict.PASS
    assert meter.refused_in_row == 0


def test_a_costly_event_empties_the_bucket_until_refilled() -> None:
    budget, clock = _budget()
    meter = budget.meter("10.0.0.2", stranger)
    meter.charge(30.0)
    assert meter.admit(EVENT) is Verdict.DROP
    clock.now += 5.0  # 25 refilled: from -21 to 4
    assert meter.admit(EVENT) is Verdict.PASS


def test_refused_messages_drain_the_budget_faster() -> None:
    budget, _ = _budget()
    meter = budget.meter("10.0.0.2", stranger)
    for _ in range(2):
        assert meter.admit(EVENT) is Verdict.PASS
        meter.refused()
    assert meter.admit(EVENT) is Verdict.DROP  # 10 - 2 x (1 + 4) = 0


def test_the_answers_to_the_servers_calls_pass_even_when_dropping() -> None:
    budget, _ = _budget()
    meter = budget.meter("10.0.0.2", stranger)
    _verdicts(meter, 11)
    assert meter.admit(ANSWER) is Verdict.PASS


def test_a_session_with_a_key_has_the_larger_budget_and_ignores_the_strangers() -> None:
    budget, _ = _budget()
    meter = budget.meter("10.0.0.2", lambda session: True)
    meter.session = object()
    budget.strangers.level = -1000.0  # every stranger's bucket in all is empty
    assert _verdicts(meter, 100) == [Verdict.PASS] * 100


def test_a_session_with_a_key_is_not_held_back_for_its_work_only_for_junk() -> None:
    budget, _ = _budget()
    meter = budget.meter("10.0.0.2", lambda session: True)
    meter.session = object()
    meter.charge(10_000.0)  # a slow screen on a loaded machine: the host's taps still pass
    assert meter.admit(EVENT) is Verdict.PASS
    for _ in range(30):
        meter.refused()
    assert meter.admit(EVENT) is Verdict.DROP


def test_when_the_strangers_bucket_is_empty_strangers_are_dropped_but_never_closed() -> None:
    budget, _ = _budget()
    meter = budget.meter("10.0.0.2", stranger)
    budget.strangers.level = -1000.0
    assert set(_verdicts(meter, 8)) == {Verdict.DROP}
    assert not budget.locked("10.0.0.2")


def test_one_address_shares_its_bucket_between_connections() -> None:
    limits = DoorLimits(keyless_session=Rate(100, 0), address=Rate(10, 0), flood_messages=1000)
    budget, _ = _budget(limits)
    first, second = budget.meter("10.0.0.2", stranger), budget.meter("10.0.0.2", stranger)
    assert _verdicts(first, 10) == [Verdict.PASS] * 10
    assert second.admit(EVENT) is Verdict.DROP
    assert budget.meter("10.0.0.9", stranger).admit(EVENT) is Verdict.PASS


def test_the_address_buckets_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.app.door import budget as module

    monkeypatch.setattr(module, "MOST_ADDRESSES", 50)
    budget, _ = _budget()
    for n in range(500):
        budget.meter(f"10.0.{n // 250}.{n % 250}", stranger).admit(EVENT)
    assert len(budget._addresses) <= 50


# --- settings -----------------------------------------------------------------------------------


def test_the_settings_come_from_the_environment() -> None:
    assert DoorLimits.from_env({}) == DoorLimits()
    limits = DoorLimits.from_env({KEYLESS_PER_ADDRESS_ENV: "3", KEYLESS_SESSIONS_ENV: " 40 ", EVENT_BUDGET_ENV: "2"})
    assert (limits.keyless_per_address, limits.keyless_sessions) == (3, 40)
    assert limits.keyless_session == Rate(DoorLimits().keyless_session.burst_ms * 2, 400)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        (KEYLESS_PER_ADDRESS_ENV, "0"),
        (KEYLESS_PER_ADDRESS_ENV, "-3"),
        (KEYLESS_SESSIONS_ENV, "many"),
        (KEYLESS_SESSIONS_ENV, "1.5"),
        (EVENT_BUDGET_ENV, "0"),
        (EVENT_BUDGET_ENV, "nan"),
        (EVENT_BUDGET_ENV, "fast"),
    ],
)
def test_a_bad_setting_is_named(name: str, value: str) -> None:
    with pytest.raises(ValueError, match=name):
        DoorLimits.from_env({name: value})


def test_a_bad_setting_stops_the_server_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.app.entry import web

    monkeypatch.setenv(KEYLESS_SESSIONS_ENV, "lots")
    monkeypatch.setattr(web.launch, "run_app", lambda *args: pytest.fail("the server started"))
    assert web.serve(argparse.Namespace()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and KEYLESS_SESSIONS_ENV in err


# --- shapes -------------------------------------------------------------------------------------

PADDING = {"top": 0.0, "right": 0.0, "bottom": 0.0, "left": 0.0}
MEDIA = {
    "padding": PADDING,
    "view_padding": PADDING,
    "view_insets": PADDING,
    "device_pixel_ratio": 1.0,
    "orientation": "landscape",
    "always_use_24_hour_format": False,
}
# What Flet 1.0.5's web client sent, recorded from chromium on the rule book.
BROWSER_PAGE = {
    "route": "/rules",
    "pwa": False,
    "web": True,
    "debug": False,
    "wasm": True,
    "test": False,
    "multi_view": False,
    "pyodide": False,
    "platform_brightness": "light",
    "width": 1280.0,
    "height": 800.0,
    "platform": "linux",
    "window": {},
    "media": MEDIA,
}
BROWSER_EVENTS = [
    ("Page", "keyboard_event", {"key": "D", "shift": False, "ctrl": False, "alt": False, "meta": False}),
    ("Page", "resize", {"width": 500.0, "height": 800.0}),
    ("Page", "app_lifecycle_state_change", {"state": "inactive"}),
    ("Page", "route_change", {"route": "/rules?q=dig"}),
    ("TextField", "change", "ig"),
    ("Container", "click", None),
    ("Column", "scroll", {"event_type": "update", "pixels": 12.0, "min_scroll_extent": 0.0, "max_scroll_extent": 900.0,
                          "viewport_dimension": 600.0, "scroll_delta": 12.0}),
]  # fmt: skip
MALFORMED_EVENTS = [
    ("Page", "route_change", 5),
    ("Page", "route_change", ["/game", 1]),
    ("Page", "route_change", {"route": 7}),
    ("Page", "route_change", {"route": "/", "control": 1}),
    ("Page", "route_change", {"route": "/", "_i": 1}),
    ("Page", "keyboard_event", "garbage"),
    ("Page", "keyboard_event", {"key": "a"}),
    ("Page", "keyboard_event", {"key": "a", "shift": "no", "ctrl": False, "alt": False, "meta": False}),
    ("Page", "resize", 3),
    ("Page", "resize", {"width": "wide", "height": 1.0}),
    ("Page", "app_lifecycle_state_change", {"state": "gone"}),
    ("Page", "view_pop", {"route": "/", "view": {"route": "/x"}}),  # a control built from client data
    ("Container", "click", {"x": 1}),
    ("Container", "click", [1, 2]),
]


def _control(name: str) -> Any:
    import flet as ft

    return getattr(ft, name)


@pytest.mark.parametrize(("control", "name", "data"), BROWSER_EVENTS)
def test_a_browsers_events_fit(control: str, name: str, data: Any) -> None:
    kind = flet_guard.event_type(_control(control), name)
    assert kind is not None and flet_guard.event_data_fits(kind, data)


@pytest.mark.parametrize(("control", "name", "data"), MALFORMED_EVENTS)
def test_malformed_event_data_does_not_fit(control: str, name: str, data: Any) -> None:
    kind = flet_guard.event_type(_control(control), name)
    assert kind is not None and not flet_guard.event_data_fits(kind, data)


def test_a_browsers_registration_and_patches_fit_and_malformed_ones_do_not() -> None:
    import flet as ft

    assert wire_shapes.patches(ft.Page, BROWSER_PAGE)
    assert wire_shapes.patches(ft.Page, {"media": MEDIA, "width": 500.0, "height": 800, "platform_brightness": "dark"})
    assert wire_shapes.patches(ft.TextField, {"value": "dig"})
    for bad in (
        {"route": 5},
        {"route": None},
        {"width": "wide"},
        {"platform": "amiga"},
        {"media": {"padding": {"top": "x"}}},
        {"media": {"padding": {"_i": 3}}},
        {"_i": 5},
        {"on_route_change": True},
        {"no_such_field": 1},
        {"views": [{"route": "/"}]},  # controls built from client data
        {"theme": {"color_scheme_seed": "red"}},  # an object the page does not hold yet
        {"title": [[[[[[[[[[["deep"]]]]]]]]]]]},
    ):
        assert not wire_shapes.patches(ft.Page, bad), bad
    assert not wire_shapes.patches(ft.TextField, {"value": 5})


class FakeSession:
    """Just what the checks read: Flet's index of live controls."""

    def __init__(self, controls: dict[int, Any]) -> None:
        self.index = controls


def test_the_checks_refuse_without_looking_beyond_the_index() -> None:
    import flet as ft

    field = ft.TextField(on_change=lambda e: None)
    session = FakeSession({7: field, 8: ft.Text("x")})
    flet_guard.check(session, [EVENT, {"target": 7, "name": "change", "data": "dig"}])
    refusals = {
        "unknown id": [EVENT, {"target": 99, "name": "change", "data": "x"}],
        "id not a number": [EVENT, {"target": "7", "name": "change", "data": "x"}],
        "id a boolean": [EVENT, {"target": True, "name": "change", "data": "x"}],
        "no handler": [EVENT, {"target": 7, "name": "submit", "data": None}],
        "no such event": [EVENT, {"target": 8, "name": "click", "data": None}],
        "server's event": [EVENT, {"target": 7, "name": "disconnect", "data": None}],
        "extra field": [EVENT, {"target": 7, "name": "change", "data": "x", "more": 1}],
        "patch of a handler": [4, {"id": 7, "props": {"on_change": None}}],
        "answer of another": [5, {"control_id": 99, "call_id": "a", "result": None, "error": None}],
        "unknown action": [9, {}],
        "not a message": {"target": 7},
    }
    for what, message in refusals.items():
        with pytest.raises(flet_guard.Refused):
            flet_guard.check(session, message)
            pytest.fail(what)
    with pytest.raises(flet_guard.Refused) as second:
        flet_guard.check(session, [1, {"session_id": "", "page_name": "", "page": {}}])
    assert second.value.close
    huge = FakeSession({n: ft.Text(str(n)) for n in range(1, 5_000)})
    start = time.perf_counter()
    for n in range(2000):
        with pytest.raises(flet_guard.Refused):
            flet_guard.check(huge, [EVENT, {"target": 100_000 + n, "name": "click", "data": None}])
    assert (time.perf_counter() - start) / 2000 < 0.001  # no walk of 5,000 controls: a lookup


# --- timing -------------------------------------------------------------------------------------


class Account:
    def __init__(self) -> None:
        self.charged: list[float] = []
        self.refusals = 0

    def charge(self, ms: float) -> None:
        self.charged.append(ms)

    def refused(self) -> None:
        self.refusals += 1


def test_the_work_is_charged_step_by_step_and_the_waits_are_free() -> None:
    def busy(seconds: float) -> None:  # of the processor's time, which is what is charged
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass

    async def work() -> str:
        busy(0.02)
        await asyncio.sleep(1.0)
        busy(0.02)
        return "done"

    async def run() -> tuple[str, Account]:
        account = Account()
        token = flet_guard.ACCOUNT.set(account)
        try:
            return await flet_guard.timed(work()), account
        finally:
            flet_guard.ACCOUNT.reset(token)

    result, account = asyncio.run(run())
    assert result == "done"
    assert 40 <= sum(account.charged) < 300, account.charged  # the second asleep cost nothing
    assert len(account.charged) >= 2


def test_an_error_in_the_work_is_charged_and_raised() -> None:
    async def failing() -> None:
        await asyncio.sleep(0)
        raise KeyError("x")

    async def run() -> Account:
        account = Account()
        token = flet_guard.ACCOUNT.set(account)
        try:
            with pytest.raises(KeyError):
                await flet_guard.timed(failing())
            return account
        finally:
            flet_guard.ACCOUNT.reset(token)

    assert len(asyncio.run(run()).charged) == 2


# --- no traceback leaves -----------------------------------------------------------------------

TRACE = 'boom\nTraceback (most recent call last):\n  File "/srv/app/site-packages/flet/x.py", line 3\nKeyError: 1'


def test_an_errors_text_becomes_one_line_and_goes_to_the_log(caplog: pytest.LogCaptureFixture) -> None:
    from flet.messaging.protocol import (
        Message,
        MessageAction,
        PatchControlBody,
        RegisterClientResponseBody,
        SessionCrashedBody,
    )

    flet_traces.apply(lambda session: "That screen could not be shown.\nsecond line")
    with caplog.at_level(logging.ERROR):
        crashed = flet_traces.redacted(Message(MessageAction.SESSION_CRASHED, SessionCrashedBody(TRACE)), None)
        registered = flet_traces.redacted(
            Message(MessageAction.REGISTER_CLIENT, RegisterClientResponseBody("s", {}, TRACE)), None
        )
    assert crashed.body.message == "That screen could not be shown."
    assert registered.body.error == "That screen could not be shown." and registered.body.session_id == "s"
    assert caplog.text.count("Traceback") == 2
    fine = Message(MessageAction.REGISTER_CLIENT, RegisterClientResponseBody("s", {}, ""))
    patch = Message(MessageAction.PATCH_CONTROL, PatchControlBody(1, []))
    assert flet_traces.redacted(fine, None) is fine and flet_traces.redacted(patch, None) is patch


def test_the_notice_falls_back_to_one_plain_line() -> None:
    from flet.messaging.protocol import Message, MessageAction, SessionCrashedBody

    def broken(session: Any) -> str:
        raise RuntimeError("no words")

    flet_traces.apply(broken)
    try:
        crashed = flet_traces.redacted(Message(MessageAction.SESSION_CRASHED, SessionCrashedBody(TRACE)), None)
    finally:
        from companion.app.entry.web import error_notice

        flet_traces.apply(error_notice)
    assert crashed.body.message == "Error"


def test_the_apps_notice_is_in_the_sessions_language() -> None:
    from companion.app.door import crowd
    from companion.app.entry.web import error_notice
    from companion.app.ui.shell import App
    from companion.app.vm.text import Tr

    class Session:
        pass

    session = Session()
    assert error_notice(session) == Tr("en")("ui.screen_failed")
    app = App.__new__(App)
    app.tr = Tr("it")
    app.host = app.link_ok = False
    crowd.watch(session, app)
    assert error_notice(session) == Tr("it")("ui.screen_failed") != Tr("en")("ui.screen_failed")


def test_an_address_that_spent_its_budget_is_known() -> None:
    budget, clock = _budget(DoorLimits(keyless_session=Rate(10_000, 0), address=Rate(10, 10)))
    meter = budget.meter("10.0.0.2", stranger)
    assert not budget.spent("10.0.0.2")
    meter.charge(25.0)
    assert budget.spent("10.0.0.2") and not budget.spent("10.0.0.3")
    clock.now += 2.0
    assert not budget.spent("10.0.0.2")


def test_the_flet_internals_the_guard_reads_are_there() -> None:
    """The guard and the door read a few of Flet 1.0.5's private names (the version pinned in
    pyproject.toml): an upgrade that renames one fails here, not silently at the door."""
    import inspect

    from flet.messaging.session import Session
    from flet_web.fastapi.flet_app import FletApp

    app_source = inspect.getsource(FletApp)
    for name in ("__on_message", "__session", "__websocket", "__client_ip"):
        assert f"self.{name}" in app_source, name
    assert callable(FletApp._FletApp__on_message)  # type: ignore[attr-defined]
    assert "self.__closed = True" in inspect.getsource(Session.close)
    assert "self.__find_live_control(self.__page, control_id)" in inspect.getsource(Session)
    assert "def index(self)" in inspect.getsource(Session)
    assert "self.__session.error(" in app_source and "SESSION_CRASHED" in inspect.getsource(Session.error)
