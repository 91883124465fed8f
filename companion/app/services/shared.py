"""What every session of a process shares: the store, the settings file, the process's options,
the one service every write goes through (tables.py), the game news and the phones' join service."""

from __future__ import annotations

import threading
from concurrent.futures import Future

from storage import Store

from ..door.access import Access
from . import notify
from .joining import JoinService
from .news import News
from .settings import SettingsFile
from .tables import TableService


class Services:
    """What every session shares: the store, the settings file, the process's options.

    The store may still be opening when the server starts (a `Future`): the browser loads the
    Flutter client meanwhile, and the first session waits for it.
    """

    def __init__(
        self,
        store: Store | Future[Store],
        settings_file: SettingsFile,
        lan_url: str | None = None,
        access: Access | None = None,
        joinable: bool = True,
    ) -> None:
        self._store: Store | Future[Store] = store
        self.settings_file = settings_file
        self.lan_url = lan_url
        self.joinable = joinable  # False in a packaged app: no server for a phone to join
        self.access = access or Access()  # who may use the host's screens (door/access.py)
        self._join: JoinService | None = None
        self._news: News | None = None
        self._news_lock = threading.Lock()
        self.tables = TableService(lambda: self.store, lambda: self.news, lambda: self.join)  # every write

    @property
    def news(self) -> News:
        """The game news of this server (news.py); on PostgreSQL it also reaches the other
        instances, from the first time a screen listens or speaks."""
        with self._news_lock:
            if self._news is None:
                news = News(lambda: self.store)
                news.presence = lambda origin, kind, devices: self.join.heard(origin, kind, devices)
                notify.start(news, self.store)
                self._news = news
            return self._news

    @property
    def join(self) -> JoinService:
        """The join links and devices of every table (services/joining.py), made on first use."""
        if self._join is None:
            self._join = JoinService(self.store)
        return self._join

    @property
    def store(self) -> Store:
        if isinstance(self._store, Future):
            self._store = self._store.result()
        return self._store
