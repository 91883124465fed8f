"""Events cost the sender, not the table: each connection pays for its messages from budgets of
the event loop's time (token buckets, in milliseconds; limits.py).

Every message costs a flat `message_ms`, and a message refused as malformed `refused_ms`. A
session without a key (a stranger's) also pays for everything the server then does for it on
the loop (the handler, the page update after it, its own start), measured as it runs
(host/flet_guard.py); one with a key (the host's screens, a seated phone) does not: its taps
may be slow on a loaded machine, and are never held back for it, only counted. A connection
pays into its session's bucket and its address's; a stranger's also into the strangers'
bucket, shared by all of them.
While any of them is empty its messages are dropped before Flet reads them (but the answers to
the server's own calls, which it waits for). A connection that keeps sending while refused
(`flood_messages` in a row) is closed, and its address refused new connections for
`lockout_seconds`. An empty strangers' bucket drops strangers' messages but closes nobody: it
is not any one connection's doing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import Enum
from typing import Any

from .limits import DoorLimits, Rate

ANSWER = 5  # Flet's action of a client's answer to a method the server called
MOST_ADDRESSES = 4096  # address buckets kept; full ones (idle addresses) are forgotten first


class Verdict(Enum):
    PASS = "pass"
    DROP = "drop"
    CLOSE = "close"


class Bucket:
    """Milliseconds of the loop's time to spend: `burst_ms` at most, refilled as time passes; it
    may go below zero (a costly event), and is then empty until refilled."""

    __slots__ = ("level", "rate", "stamp")

    def __init__(self, rate: Rate, now: float) -> None:
        self.rate = rate
        self.level = rate.burst_ms
        self.stamp = now

    def refill(self, now: float) -> float:
        self.level = min(self.rate.burst_ms, self.level + (now - self.stamp) * self.rate.ms_per_second)
        self.stamp = now
        return self.level

    def full(self, now: float) -> bool:
        return self.refill(now) >= self.rate.burst_ms


class Budget:
    """One server's budgets: every address's bucket, the strangers' bucket, the lockouts."""

    def __init__(self, limits: DoorLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.strangers = Bucket(limits.strangers, clock())
        self._addresses: dict[str, Bucket] = {}
        self._locked: dict[str, float] = {}

    def meter(self, address: str, keyed: Callable[[Any], bool]) -> Meter:
        """A new connection's meter (`keyed(session)`: whether its session holds a key)."""
        return Meter(self, address, keyed)

    def locked(self, address: str) -> bool:
        until = self._locked.get(address)
        if until is None:
            return False
        if until > self.clock():
            return True
        del self._locked[address]
        return False

    def lock(self, address: str) -> None:
        if len(self._locked) >= MOST_ADDRESSES:
            now = self.clock()
            self._locked = {a: u for a, u in self._locked.items() if u > now}
        self._locked[address] = self.clock() + self.limits.lockout_seconds

    def spent(self, address: str) -> bool:
        """Whether an address has spent its budget (its bucket is empty)."""
        return self.address(address).refill(self.clock()) <= 0

    def address(self, address: str) -> Bucket:
        found = self._addresses.get(address)
        if found is None:
            now = self.clock()
            if len(self._addresses) >= MOST_ADDRESSES:
                self._addresses = {a: b for a, b in self._addresses.items() if not b.full(now)}
                while len(self._addresses) >= MOST_ADDRESSES:  # all busy: the fullest go
                    del self._addresses[max(self._addresses, key=lambda a: self._addresses[a].level)]
            found = self._addresses[address] = Bucket(self.limits.address, now)
        return found


class Meter:
    """One connection's account. `session` is set once the connection's session is known (a new
    one as Flet makes it, a returning one as it registers)."""

    def __init__(self, budget: Budget, address: str, keyed: Callable[[Any], bool]) -> None:
        self.budget = budget
        self.address = address
        self.keyed = keyed
        self.session: Any = None
        self.refused_in_row = 0
        limits = budget.limits
        self._own = Bucket(limits.keyless_session, budget.clock())
        self._own_keyed = False

    def _buckets(self) -> tuple[Bucket, Bucket, Bucket | None]:
        """Its session's bucket (a fresh, larger one once the session holds a key), its address's,
        and the strangers' while it holds none."""
        keyed = self.session is not None and self.keyed(self.session)
        if keyed and not self._own_keyed:
            self._own, self._own_keyed = Bucket(self.budget.limits.keyed_session, self.budget.clock()), True
        return self._own, self.budget.address(self.address), None if keyed else self.budget.strangers

    def admit(self, action: object) -> Verdict:
        """Whether a message of `action` (Flet's action number) is carried out, dropped, or closes
        the connection; its flat cost is paid either way."""
        now = self.budget.clock()
        own, address, strangers = self._buckets()
        for bucket in (own, address, strangers):
            if bucket is not None:
                bucket.refill(now)
        mine = own.level > 0 and address.level > 0
        crowd = strangers is None or strangers.level > 0
        self._pay(self.budget.limits.message_ms, own, address, strangers)
        if mine:
            self.refused_in_row = 0
            return Verdict.PASS if crowd or action == ANSWER else Verdict.DROP
        self.refused_in_row += 1
        if self.refused_in_row >= self.budget.limits.flood_messages:
            self.budget.lock(self.address)
            return Verdict.CLOSE
        return Verdict.PASS if action == ANSWER else Verdict.DROP

    def refused(self) -> None:
        """One of its messages was refused after it was read (host/flet_guard.py): it costs
        `refused_ms`, so that junk drains its sender's budget quickly."""
        self._charge(self.budget.limits.refused_ms, keyed_too=True)

    def charge(self, ms: float) -> None:
        """What the server spent on this connection's work (milliseconds of the loop): paid by a
        session without a key only."""
        self._charge(ms, keyed_too=False)

    def _charge(self, ms: float, *, keyed_too: bool) -> None:
        now = self.budget.clock()
        own, address, strangers = self._buckets()
        if strangers is None and not keyed_too:
            return
        for bucket in (own, address, strangers):
            if bucket is not None:
                bucket.refill(now)
        self._pay(ms, own, address, strangers)

    @staticmethod
    def _pay(ms: float, own: Bucket, address: Bucket, strangers: Bucket | None) -> None:
        """Take `ms` from buckets just refilled."""
        own.level -= ms
        address.level -= ms
        if strangers is not None:
            strangers.level -= ms
