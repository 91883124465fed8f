"""What the helpers of the table screen (its news, its viewer policies) use of it: the table
screen (table.py) is one; the helpers never import it, so nothing loops back."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from ...services.session import TableSession
from ...vm.interaction import TableControl
from ...vm.text import Tr
from ..port import AppPort, ShownScreen
from ..widgets.common import Memo


class LiveTable(ShownScreen, Protocol):
    """A table screen on a page (the app's screen while it is shown): its game, its session and
    control, and how it redraws."""

    app: AppPort
    tr: Tr
    game_id: str
    session: TableSession
    control: TableControl
    policy: Any  # the screen's viewer policy (viewer.py), whose methods take the screen back
    missing: str | None  # why the game cannot be shown (gone from the store, unreadable)
    viewer: int | None  # whose eyes the screen is for (None: the referee's)
    memo: Memo  # the controls the screen keeps between redraws

    @property
    def scrolled(self) -> bool: ...  # the panel is scrolled away from its top

    def gone(self) -> None: ...

    def leave(self) -> None: ...

    def toast(self, text: str) -> None: ...

    def later(self, coro_fn: Callable[..., Awaitable[Any]], *args: Any) -> bool: ...

    def confirm(self, title: str, text: str, yes: str, on_yes: Callable[[], Any], danger: bool = False) -> None: ...

    def frame_on_page(self) -> bool: ...

    def show(self) -> None: ...

    def show_headline(self) -> None: ...

    def refresh(self) -> None: ...
