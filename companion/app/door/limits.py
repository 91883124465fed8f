"""How much of the server one device may use: sessions without a key, and the loop's time.

A browser that presented nothing (no host key, no join secret, no seat token) is a stranger:
anyone on the network can be one, as often as they like. Each session costs the server about
1.6 MB, and every event it sends costs the one event loop that every table shares. So strangers'
sessions are counted (per address and in all), and every session's messages are paid for from
budgets (door/budget.py): a flat cost per message, more for a malformed one, and for a stranger
what its events make the server do, measured in milliseconds of the loop.

Three settings, from the environment (each a whole number, or for the budget any number > 0):

- `COMPANION_KEYLESS_PER_ADDRESS` (default 16): sessions without a key one address may hold.
- `COMPANION_KEYLESS_SESSIONS` (default 200): sessions without a key in all (~320 MB).
- `COMPANION_EVENT_BUDGET` (default 1): scales every time budget below (2: twice as much).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace

KEYLESS_PER_ADDRESS_ENV = "COMPANION_KEYLESS_PER_ADDRESS"
KEYLESS_SESSIONS_ENV = "COMPANION_KEYLESS_SESSIONS"
EVENT_BUDGET_ENV = "COMPANION_EVENT_BUDGET"


@dataclass(frozen=True)
class Rate:
    """A token bucket of the loop's time: `burst_ms` at most, refilled by `ms_per_second`."""

    burst_ms: float
    ms_per_second: float

    def scaled(self, factor: float) -> Rate:
        return Rate(self.burst_ms * factor, self.ms_per_second * factor)


@dataclass(frozen=True)
class DoorLimits:
    """The door's limits. A real player's taps and typing (a few messages a second, a burst of
    tens) stay far inside them; a flood is dropped, then its connection closed. The time budgets
    (`*_ms`, and the rates of every bucket but `keyed_session`, in milliseconds of the loop)
    apply to strangers; a session with a key pays `message_ms` per message and `refused_ms` per
    malformed one only."""

    keyless_per_address: int = 16
    keyless_sessions: int = 200
    keyed_session: Rate = Rate(600, 60)  # a session with a key: 600 messages at once, 60 a second
    keyless_session: Rate = Rate(3000, 200)  # a stranger's: 3 s of the loop at once, a fifth of it sustained
    address: Rate = Rate(8000, 600)  # every session of one address together
    strangers: Rate = Rate(8000, 600)  # every session without a key together (dropped, never closed)
    message_ms: float = 1.0  # a message's flat cost, on top of the time its work takes
    refused_ms: float = 25.0  # a malformed message's (a real browser sends a few in a session)
    frame_bytes: int = 64 * 1024  # the largest message but a method's answer (a file read: launch.WS_MAX_BYTES)
    flood_messages: int = 100  # messages sent in a row while refused: the connection is closed
    lockout_seconds: float = 30.0  # and its address refused new connections for this long

    def scaled(self, factor: float) -> DoorLimits:
        return replace(
            self,
            keyed_session=self.keyed_session.scaled(factor),
            keyless_session=self.keyless_session.scaled(factor),
            address=self.address.scaled(factor),
            strangers=self.strangers.scaled(factor),
        )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> DoorLimits:
        """The limits the environment sets (ValueError naming the variable for a bad value)."""
        limits = cls(
            keyless_per_address=_whole(environ, KEYLESS_PER_ADDRESS_ENV, cls.keyless_per_address),
            keyless_sessions=_whole(environ, KEYLESS_SESSIONS_ENV, cls.keyless_sessions),
        )
        text = environ.get(EVENT_BUDGET_ENV, "").strip()
        if not text:
            return limits
        try:
            factor = float(text)
        except ValueError:
            factor = 0.0
        if not 0 < factor < 1000:
            raise ValueError(f"{EVENT_BUDGET_ENV}={text[:40]!r}: not a number above 0")
        return limits.scaled(factor)


def _whole(environ: Mapping[str, str], name: str, default: int) -> int:
    text = environ.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit() or not 1 <= int(text) <= 1_000_000:
        raise ValueError(f"{name}={text[:40]!r}: not a whole number from 1 to 1000000")
    return int(text)
