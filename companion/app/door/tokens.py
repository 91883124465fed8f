"""What join links and device tokens look like, checked before anything else reads them.

Everything a browser sends is untrusted: the route (game id and secret), the token its
storage hands back, the host key. Each is matched against its exact shape first, so a
malformed value never reaches the database; and every wrong one counts against the address
it came from (`RateLimiter`), which is locked out for a while after a few.
"""

from __future__ import annotations

import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from storage.devices import new_secret, new_token, same_secret, token_hash

__all__ = ["GAME_ID", "RateLimiter", "SECRET", "TOKEN", "new_secret", "new_token", "same_secret", "token_hash", "valid"]

GAME_ID = re.compile(r"[0-9a-f]{32}")
SECRET = re.compile(r"[A-Za-z0-9_-]{16,64}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{32,64}")


def valid(pattern: re.Pattern[str], value: object) -> bool:
    return isinstance(value, str) and pattern.fullmatch(value) is not None


@dataclass
class _Client:
    failures: deque[float] = field(default_factory=deque)
    locked_until: float = 0.0


class RateLimiter:
    """Bad secrets, tokens and host keys per client address.

    `failures` wrong ones within `window` seconds lock the address out for `lockout` seconds:
    during a lock-out even the right secret is refused, so guessing costs a minute per few
    tries (a 128-bit secret is out of reach anyway; this keeps a noisy device from hammering
    the database). At most `most_clients` addresses are remembered: the quietest go first.
    """

    def __init__(
        self,
        failures: int = 5,
        window: float = 300.0,
        lockout: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        most_clients: int = 4096,
    ) -> None:
        self.limit = failures
        self.window = window
        self.lockout = lockout
        self.clock = clock
        self.most_clients = most_clients
        self._clients: dict[str, _Client] = {}
        self._lock = threading.Lock()  # the store's calls, which check secrets, run on worker threads

    def wait(self, client: str) -> float:
        """Seconds left of this address's lock-out (0: it may try)."""
        with self._lock:
            found = self._clients.get(client)
            return 0.0 if found is None else max(0.0, found.locked_until - self.clock())

    def failed(self, client: str) -> float:
        """Count one wrong value from `client`; the lock-out it is now under (0: none)."""
        with self._lock:
            return self._count(client)

    def _count(self, client: str) -> float:
        now = self.clock()
        found = self._clients.get(client)
        if found is None:
            self._forget_some(now)
            found = self._clients[client] = _Client()
        failures = found.failures
        failures.append(now)
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        if len(failures) >= self.limit:
            found.locked_until = now + self.lockout
            failures.clear()
        return max(0.0, found.locked_until - now)

    def _forget_some(self, now: float) -> None:
        if len(self._clients) < self.most_clients:
            return
        for key in [
            k
            for k, c in self._clients.items()
            if c.locked_until <= now and (not c.failures or c.failures[-1] <= now - self.window)
        ]:
            del self._clients[key]
        while len(self._clients) >= self.most_clients:  # still full: the least recent goes
            oldest = min(self._clients, key=lambda k: (self._clients[k].failures or [0.0])[-1])
            del self._clients[oldest]
