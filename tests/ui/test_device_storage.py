"""The browser's storage across a socket that drops: a call waits for the socket, is made again
on a new service when the socket drops before the answer, and never waits forever."""

from __future__ import annotations

import asyncio

import pytest

from companion.app.door import device_storage
from companion.app.door.device_storage import DeviceStorage, SessionClosed


class Service:
    """A storage service whose calls answer only when the test says so (`answer`)."""

    made: list[Service]

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[str, ...], asyncio.Future[object]]] = []
        Service.made.append(self)

    def _call(self, name: str, *args: str) -> asyncio.Future[object]:
        answer: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        self.calls.append((name, args, answer))
        return answer

    def get(self, key: str) -> asyncio.Future[object]:
        return self._call("get", key)

    def set(self, key: str, value: str) -> asyncio.Future[object]:
        return self._call("set", key, value)

    def remove(self, key: str) -> asyncio.Future[object]:
        return self._call("remove", key)


@pytest.fixture(autouse=True)
def services() -> list[Service]:
    Service.made = []
    return Service.made


async def passes() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_call_made_while_the_socket_is_gone_is_made_once_it_is_back(services) -> None:
    async def run() -> None:
        storage = DeviceStorage(Service, connected=False)
        asked = asyncio.ensure_future(storage.set("dyo.token", "t"))
        await passes()
        assert services[0].calls == []
        storage.connected()
        await passes()
        [(name, args, answer)] = services[-1].calls
        assert (name, args) == ("set", ("dyo.token", "t"))
        answer.set_result(True)
        assert await asked is True

    asyncio.run(run())


def test_a_call_whose_socket_drops_is_made_again_on_a_new_service(services) -> None:
    async def run() -> None:
        storage = DeviceStorage(Service, connected=True)
        asked = asyncio.ensure_future(storage.get("dyo.token"))
        await passes()
        assert len(services[0].calls) == 1
        storage.disconnected()
        await passes()
        assert not asked.done()
        storage.connected()
        await passes()
        assert len(services) == 2 and len(services[1].calls) == 1  # the old service answers nothing now
        services[1].calls[0][2].set_result("t")
        assert await asked == "t"

    asyncio.run(run())


def test_a_connected_browser_that_does_not_answer_times_out(services, monkeypatch) -> None:
    monkeypatch.setattr(device_storage, "ANSWER_SECONDS", 0.05)

    async def run() -> None:
        storage = DeviceStorage(Service, connected=True)
        with pytest.raises(TimeoutError):
            await storage.remove("dyo.token")

    asyncio.run(run())


def test_a_closed_session_ends_the_calls_waiting_for_its_socket(services) -> None:
    async def run() -> None:
        storage = DeviceStorage(Service, connected=False)
        asked = asyncio.ensure_future(storage.get("dyo.host"))
        await passes()
        storage.closed()
        with pytest.raises(SessionClosed):
            await asked

    asyncio.run(run())
