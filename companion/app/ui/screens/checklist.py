"""The setup checklist: what to lay out for a game, each line tickable, and a printable page.

Opened from New game before Start (`/setup/checklist`: the form being filled in, kept in this
tab's session so Back returns to it whole) or from a game's menu (`/game/<id>/checklist`: the
stored game's configuration). The ticks are this browser's: a game's are kept in its storage
(`dyo.checklist.<game>`), a setup's with the form until Start, which hands them to the new game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import flet as ft

from ...door.device_storage import storage_of
from ...services.opening import Opening
from ...vm.checklist import ChecklistVM, LineVM, checklist_view, ticks_from, ticks_text
from ...vm.setup import SetupForm
from ..port import AppPort
from ..printable import address_of
from ..widgets.common import button, card, heading, muted, pill, tap
from .base import Screen

DRAFT_KEY = "dyo.setup_draft"  # this tab's session: the setup form while its checklist is open
TICKS_PREF = "dyo.checklist.{game}"  # this browser's storage: a game's ticks


@dataclass
class SetupDraft:
    """A setup not started yet, as its checklist leaves it: the form and the lines ticked."""

    form: SetupForm
    ticked: set[str] = field(default_factory=set)


def keep_draft(app: AppPort, draft: SetupDraft) -> None:
    app.page.session.store.set(DRAFT_KEY, draft)


def draft_of(app: AppPort) -> SetupDraft | None:
    found = app.page.session.store.get(DRAFT_KEY)
    return found if isinstance(found, SetupDraft) else None


def drop_draft(app: AppPort) -> None:
    if app.page.session.store.contains_key(DRAFT_KEY):
        app.page.session.store.remove(DRAFT_KEY)


async def hand_ticks_to_game(app: AppPort, game_id: str, ticked: set[str]) -> None:
    """A setup's ticks become the new game's (a browser without storage keeps none)."""
    if not ticked:
        return
    try:
        await storage_of(app).set(TICKS_PREF.format(game=game_id), ticks_text(ticked))
    except Exception:
        return


class ChecklistScreen(Screen):
    title_key = "checklist.title"

    def __init__(
        self, app: AppPort, query: dict[str, str], config: Any, *, game_id: str | None, problem: str | None = None
    ) -> None:
        super().__init__(app, query)
        self.config = config
        self.game_id = game_id
        self.problem = problem
        self.draft = draft_of(app) if game_id is None else None
        self.ticked: set[str] = set(self.draft.ticked) if self.draft is not None else set()
        if game_id is not None and problem is None:
            self.later(self._read_ticks)

    @classmethod
    def of_game(cls, app: AppPort, opening: Opening, query: dict[str, str]) -> ChecklistScreen:
        config = opening.table.config if opening.table is not None else None
        return cls(app, query, config, game_id=opening.game_id, problem=opening.problem)

    @classmethod
    def of_setup(cls, app: AppPort, query: dict[str, str]) -> ChecklistScreen:
        draft = draft_of(app)
        if draft is None:  # a checklist opened without a setup (a typed address): nothing to check
            return cls(app, query, None, game_id=None, problem=app.tr("checklist.no_setup"))
        return cls(app, query, draft.form.config(app.tr), game_id=None)

    def back_route(self) -> str | None:
        if self.game_id is None:
            return "/setup?keep=1"
        return self.query.get("back") or f"/game/{self.game_id}"

    def view(self) -> ChecklistVM:
        if self.problem is not None:
            return ChecklistVM(problem=self.problem)
        return checklist_view(self.config, self.tr, self.ticked)

    def content(self) -> ft.Control:
        tr = self.tr
        vm = self.view()
        if vm.problem is not None:
            return card(muted(vm.problem, 14), identifier="checklist-problem")
        rows: list[ft.Control] = [self._head(vm)]
        for section in vm.sections:
            lines: list[ft.Control] = [heading(section.title, 17)]
            lines += [self._line(line) for line in section.lines]
            rows.append(card(ft.Column(lines, spacing=4, tight=True), identifier=f"checklist-{section.id}"))
        rows.append(muted(tr("checklist.kept_here"), 12))
        return ft.Column(rows, spacing=10)

    def _head(self, vm: ChecklistVM) -> ft.Control:
        """What the list is, how far the table is, the printable page and a fresh start."""
        tr = self.tr
        progress = ft.Semantics(
            identifier="checklist-progress",
            container=True,
            live_region=True,
            content=pill(vm.progress, bold=True, icon=ft.Icons.CHECKLIST),
        )
        clear = button(
            tr("checklist.clear"), self._clear if self.ticked else None, style="text", identifier="checklist-clear"
        )
        actions = ft.Row([clear], wrap=True, spacing=10)
        if self.app.services.joinable:  # served over HTTP: the page a browser prints (entry/web.py)
            url = ft.Url(self.print_address())
            link = ft.OutlinedButton(content=tr("checklist.print"), icon=ft.Icons.PRINT, url=url)
            actions.controls.insert(0, ft.Semantics(identifier="checklist-print", content=link))
        return card(ft.Column([muted(tr("checklist.intro"), 14), progress, actions], spacing=8, tight=True))

    def _line(self, line: LineVM) -> ft.Control:
        """One line: a box to tick, the text, the rule it comes from."""
        icon = ft.Icons.CHECK_BOX if line.done else ft.Icons.CHECK_BOX_OUTLINE_BLANK
        inner = ft.Row(
            [
                ft.Icon(icon, color=ft.Colors.PRIMARY if line.done else ft.Colors.ON_SURFACE_VARIANT),
                ft.Text(line.text, size=14, expand=True),
                pill(line.rule, size=11) if line.rule else ft.Container(),
            ],
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
        return tap(
            inner,
            lambda e, key=line.key: self._toggle(key),
            line.text,
            identifier=f"check-{line.key}",
            selected=line.done,
            padding=6,
        )

    def print_address(self) -> str:
        """The printable page: the game's, or one that carries the setup in its address."""
        lang = self.tr.lang
        access = self.app.services.access
        key = access.host_key if access.lan else None  # a browser elsewhere shows the host's key
        if self.game_id is not None:
            query = f"?lang={lang}" + (f"&host={key}" if key else "")
            return f"/game/{self.game_id}/setup.html{query}"
        return address_of(self.config, lang, key)

    # --- ticks ---------------------------------------------------------------------------------

    def _toggle(self, key: str) -> None:
        self.ticked ^= {key}
        self._kept()

    def _clear(self, e: Any = None) -> None:
        self.ticked = set()
        self._kept()

    def _kept(self) -> None:
        if self.draft is not None:
            self.draft.ticked = set(self.ticked)
        elif self.game_id is not None:
            self.app.run_later(self._write_ticks, ticks_text(self.ticked))
        self.app.render()

    async def _read_ticks(self) -> None:
        try:
            stored = await storage_of(self.app).get(TICKS_PREF.format(game=self.game_id))
        except Exception:  # no storage in this browser (yet): the ticks last as long as the screen
            return
        found = ticks_from(stored, self.view().keys)
        if found and self.app.screen is self:
            self.ticked |= found
            self.app.render()

    async def _write_ticks(self, text: str) -> None:
        try:
            await storage_of(self.app).set(TICKS_PREF.format(game=self.game_id), text)
        except Exception:  # private browsing, full storage: the ticks last as long as the screen
            return
