"""The table: map, players, and the panel for whoever must act now, through one viewer's eyes.

One screen serves the referee's console, a seat's phone and the table view: its `Console`
policy (screens/viewer.py, ui/phone/) says whose eyes it is for. What the players are in the
middle of (composing an action, answering a decision, entering the real die) is the Flet-free
`TableControl` (vm/interaction.py); this screen draws it and keeps its structure between
redraws, so a tap sends small patches (widgets/patch.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import flet as ft

from companion.rules import Event, action_options, view

from ...host import flet_costs
from ...services.kept_rulings import kept_with
from ...services.opening import Opening
from ...services.session import Outcome
from ...vm.actions import action_menu
from ...vm.dice import TableChance, card_ask, michel_ask
from ...vm.interaction import TableControl
from ...vm.pending import PendingVM
from ...vm.rulings import Ruling
from ...vm.table import ScoreVM, TableVM, build_table, names_of, score_strip
from ...vm.turn_end import turn_end_view
from ...vm.tutorial import coach_view
from .. import sound
from ..port import AppPort
from ..widgets import panels
from ..widgets.board import BoardMap
from ..widgets.common import Memo, button, card, heading, muted, width_class
from ..widgets.head import TableHead
from ..widgets.patch import Patch, buttons_key
from ..widgets.players import PilesRow, PlayersPanel
from .base import Screen
from .table_news import TableNews
from .viewer import Console

log = logging.getLogger(__name__)
NARROW_BAR = 2  # buttons a phone's app bar keeps (Undo, Redo)


class TableScreen(Screen):
    # Parts of the layout `_frame` builds, declared here as the methods using them come first.
    _head: TableHead
    _pad_box: ft.Container
    _side_parts: list[ft.Control]
    _side: ft.Column
    _single: ft.Column  # a narrow screen's one column
    _left: ft.Column  # a wide screen's two
    _right: ft.Column
    _extra: ft.Container  # the policy's own panel (a phone's hand, the join panel)

    def __init__(self, app: AppPort, opening: Opening, query: dict[str, str], policy: Console | None = None) -> None:
        super().__init__(app, query)
        self.policy = policy = policy or Console()
        self.viewer = policy.viewer
        self.game_id = game_id = opening.game_id
        self.missing: str | None = opening.problem  # unknown id or an unreadable database: say which
        self.redirect: str | None = None
        if self.missing is not None:
            return
        self.session = policy.open_session(app, opening)
        if self.session.state.winner is not None and policy.won_route:
            self.redirect = f"/game/{game_id}/win"
        self.control = TableControl(self.session, self.tr, self, policy)
        self.memo = Memo(keep=2)
        self.patch = Patch(app)
        self._extra_key: Any = None
        self._vm_key: Any = None
        self._coach_off = not policy.may_rewind  # the tutorial's guide is the referee's console's
        self.news = TableNews(self)
        policy.opened(self, opening.seating)
        self._tell_what_this_tab_recorded()
        sound.prepare(self)  # the console's whistle and roll, loaded before they are needed

    def _tell_what_this_tab_recorded(self) -> None:
        """Back from another screen of this game that recorded something (a correction): what it
        did is what just happened, as long as the table is still where it left it."""
        recorded = self.app.just_recorded.pop(self.game_id, None)
        if recorded is not None and recorded[0] == self.session.version:
            self.control.tell(self.lines_for(recorded[1]), recorded[1])

    # --- frame ---------------------------------------------------------------------------------

    def leave(self) -> None:
        if not self.missing:
            self.news.leave()
            self.policy.left(self)

    def gone(self) -> None:
        """The game was deleted (on the host's screen): say so, instead of a table nobody can play."""
        self.leave()
        self.missing = self.tr("ui.game_deleted")
        self.app.render()

    def title(self) -> str:
        template = self.title_template()
        if template is None:
            return self.tr("ui.game_missing_title")
        key, params = template
        return self.tr(key, **params)

    def title_template(self) -> tuple[str, dict[str, Any]] | None:
        return None if self.missing else self.policy.title_template(self)

    def back_route(self) -> str | None:
        return "/" if self.missing else self.policy.back_route(self)

    def actions(self) -> list[ft.Control]:
        return [] if self.missing else self.policy.actions(self)

    def bar_actions(self) -> list[ft.Control]:
        """On a phone the bar keeps Undo and Redo; the other buttons go in a row on top of the
        table, so the title keeps room for the turn number and the player's name."""
        return self._in_bar(self.actions())

    def _in_bar(self, actions: list[ft.Control]) -> list[ft.Control]:
        return actions[:NARROW_BAR] if self.app.narrow and len(actions) > NARROW_BAR + 1 else actions

    def _body_actions(self) -> list[ft.Control]:
        """The buttons a narrow screen keeps on top of its table; a wide one builds none here."""
        if not self.app.narrow:
            return []
        actions = self.actions()
        return actions[len(self._in_bar(actions)) :]

    def resized(self, old: float, new: float) -> bool:
        return width_class(old) != width_class(new)

    def key(self, e: ft.KeyboardEvent) -> None:
        if self.missing:
            return
        k = (e.key or "").lower()
        if (e.ctrl or e.meta) and k == "z":
            self.control.redo() if e.shift else self.control.undo()
        elif (e.ctrl or e.meta) and k == "y":
            self.control.redo()
        elif k == "escape" and self.control.asking:
            self.control.cancel_action()

    # --- the body ------------------------------------------------------------------------------

    def body(self) -> ft.Control:
        tr = self.tr
        if self.missing:
            return self._missing_body(self.missing)
        s = self.session.state
        ctl = self.control
        policy = self.policy
        ctl.shown_version = self.session.version
        narrow = self.app.narrow
        out = self._frame(narrow)
        physical = self.app.settings.physical_dice
        pend = policy.pending_for(s, tr, physical)
        # Only an open destination decision lights Places up: a finished move leaves the map plain.
        highlight = set(pend.highlight if pend is not None else [])
        table, scores = self._table(highlight)
        reactions = policy.reactions_for(s, tr)
        head = self._head
        head.set_table(table, scores, s.pending is not None, policy.said(self))
        head.set_tools(self._body_actions())
        head.fill(head.alert_slot, panels.offence_alert(ctl, reactions, tr))
        self._fill_result()
        main, rewritten = self._main_panel(pend)
        head.fill(head.main_slot, main, rewritten)
        self._fill_menu(pend, physical)
        react = panels.reactions_panel(ctl, reactions, tr, ctl.bg_open, names_of(s))
        self._react_slot.content = react
        self._react_slot.visible = react is not None
        self._fill_coach(physical)
        self._pad_box.height = getattr(self, "_pad", 0) or 0
        if policy.has_extra:
            self._extra_key, shown = policy.extra(self, self._extra_key)
            if shown is not None:
                self._extra.content = shown
        self._fill_board(table, pend, narrow)
        if head.roller is not None:
            ctl.result_die_rolls = False
            self.app.run_later(head.roller.roll)
        return out

    def _fill_coach(self, physical: bool) -> None:
        """The tutorial round's guide (on the referee's console), above the rest, until the table
        carries on without it."""
        coach = None if self._coach_off else coach_view(self.session.table.game, self.tr, physical)
        key = None if coach is None else (coach.title, coach.text, coach.die_hint, coach.phase)
        if key == getattr(self._coach_slot, "data", None) and self._coach_slot.content is not None:
            return  # the same step: its controls stay, nothing is sent
        ctl = self.control
        self._coach_slot.data = key
        self._coach_slot.visible = coach is not None
        self._coach_slot.content = (
            None
            if coach is None
            else panels.coach_panel(
                coach, self.tr, play=ctl.submit_checked, undo=ctl.undo, carry_on=self._carry_on, leave=self._leave
            )
        )

    def _carry_on(self) -> None:
        self._coach_off = True
        self._show()

    def _leave(self) -> None:
        self.app.go("/")

    def _missing_body(self, missing: str) -> ft.Control:
        """No such game (deleted, or a stale address): say so, with the way Home."""
        tr = self.tr
        return ft.Container(
            ft.Column(
                [
                    heading(tr("ui.game_missing_title"), 20),
                    muted(missing, 14),
                    button(tr("ui.home"), lambda e: self.app.go("/"), identifier="go-home"),
                ],
                spacing=12,
            ),
            padding=20,
        )

    def _main_panel(self, pend: PendingVM | None) -> tuple[ft.Control | None, bool]:
        """What answers a tap now, the first that applies: a Michel card or a card drawn from a hand
        to name, the pending decision, or the action being composed. Also whether the decision's
        panel was rewritten in place."""
        s, ctl, tr = self.session.state, self.control, self.tr
        if ctl.michel_for is not None:
            ask = michel_ask(s, ctl.michel_for, ctl.michel_drawn, tr, ctl.michel_next)
            return panels.michel_panel(ctl, ask, tr), False
        if ctl.card_for is not None and ctl.card_asked is not None:
            drawn = list(ctl.card_for.get("picks", ()))
            return panels.card_panel(ctl, card_ask(s, ctl.card_asked, drawn, tr), tr), False
        if pend is not None:
            rewritten = self._pending.show(ctl, pend, tr, ctl.die_for, ctl.pick)
            return self._pending.control, rewritten
        if ctl.composer is not None:
            composer = ctl.composer
            return (
                panels.composer_panel(
                    ctl,
                    tr.name("action", composer.kind),
                    composer.summary(),
                    composer.step(),
                    tr,
                    ctl.draft,
                    bool(composer.history),
                    composer.force,
                ),
                False,
            )
        return None, False

    def _fill_menu(self, pend: PendingVM | None, physical: bool) -> None:
        """The menu stays on the page under a composer (no rebuilding it on Cancel); a pending
        decision hides it, as does a question about the box (a Michel card, a random card): only
        their answers are offered then (a move tapped meanwhile replaced the waiting one unseen)."""
        s, ctl, tr = self.session.state, self.control, self.tr
        seat = self.policy.menu_seat(s)
        self._menu.visible = pend is None and s.winner is None and seat is not None and not ctl.drawing
        if self._menu.visible and seat is not None:
            options = action_options(s, seat)  # once for the menu and End turn
            menu = action_menu(s, seat, tr, options, physical_dice=physical)
            stay = self.app.settings.neutrals_stay
            self._menu_col.controls = panels.action_menu_rows(
                ctl,
                menu,
                turn_end_view(s, seat, tr, options, physical_dice=physical, neutrals_stay=stay),
                tr,
                tr.name("place", s.players[seat].place),
                self.memo,
                composing=ctl.composer.kind if ctl.composer is not None else None,
            )

    def _fill_board(self, table: TableVM, pend: PendingVM | None, narrow: bool) -> None:
        """The map, the players and the piles, rewritten in place; laid out once, in one column on a
        phone (under the side panel) or beside it on a wider screen."""
        tr = self.tr
        side = self._side_parts
        memo = self.memo
        # The map answers a destination only on a screen that answers its decider.
        answers_map = pend is not None and self.policy.answers_for(pend.seat)
        self._board_dirty = self._map.set(table, self.control.choose_place if answers_map else None)
        self._players_dirty = self._players.set(table)
        board, players = self._board, self._players_row
        self._piles_dirty = self._piles.set(table.piles)
        memo.cycle()
        if narrow:
            self._side.controls = side
            if not self._single.controls:
                self._single.controls = [
                    self._side,
                    heading(tr("ui.map_title"), 16),
                    board,
                    heading(tr("ui.players_title"), 16),
                    players,
                    self._piles.control,
                ]
        else:
            self._right.controls = side
            if not self._left.controls:
                self._left.controls = [board, players, self._piles.control]

    def _table(self, highlight: set[str] | frozenset[str] = frozenset()) -> tuple[TableVM, list[ScoreVM]]:
        """The table through this screen's eyes (the policy's: a shared console's are the public's,
        or one seat's while its hand is shown), and its scores; built once for each version seen
        (news draw the headline first and the rest of the table a moment later)."""
        state, eyes = self.policy.seen(self)
        board = self.control.board  # a Michel card being drawn: the neutral already where it went
        if board is not None:
            state = board if eyes is None or state is self.session.state else view(board, eyes)
        key = (id(self.session.table), self.session.version, eyes, frozenset(highlight), id(self.tr), id(board))
        if self._vm_key != key:
            table = build_table(state, self.tr, highlight, viewer=eyes, shared=self.policy.shared)
            self._vm_key, self._vm = key, (table, score_strip(table, self.tr))
        return self._vm

    def _reveal(self, seat: int | None) -> None:
        """A board's "show my hand" (a seat) or "hide" (None) on a shared screen."""
        if seat is None:
            self.control.hide()
        else:
            self.control.reveal(seat)

    def _fill_result(self) -> None:
        ctl = self.control
        self._head.set_result(ctl.result, ctl.result_die, ctl.result_die_rolls)

    def _frame(self, narrow: bool) -> ft.Control:
        """The scrolling columns are kept between renders (a tap never resets the scroll)."""
        key = (narrow, self.app.wide)
        if getattr(self, "_frame_key", None) == key:
            return self._root
        self._frame_key = key
        self._offset = 0.0
        self._map = BoardMap(self.tr, 2 if narrow else 3)
        self._board, self._board_row = self._map.control, self._map.row
        self._players = PlayersPanel(self.tr, {"xs": 12} if narrow else {"xs": 6}, self._reveal)
        self._players_row = self._players.row
        self._menu_col = ft.Column(spacing=6, tight=True)
        self._menu = card(self._menu_col, identifier="actions", padding=10)
        self._piles = PilesRow(self.tr)
        self._react_slot = ft.Container(visible=False)
        self._coach_slot = ft.Container(visible=False)  # the tutorial round's guide
        self._pending = panels.PendingPanel()
        self._pad_box = ft.Container(height=0)
        self._head = TableHead(self.tr, self.show_player, lambda e=None: self.control.clear_result())
        self._side_parts = [self._coach_slot, self._head.control, self._menu, self._react_slot, self._pad_box]
        if self.policy.has_extra:
            self._extra = ft.Container()
            self._extra_key = None
            self._side_parts.insert(2, self._extra)  # just under what answers a tap
        self._side = ft.Column(spacing=10)
        if narrow:
            self._single = ft.Column(
                spacing=10, scroll=ft.ScrollMode.AUTO, expand=True, on_scroll=self._scrolled, scroll_interval=120
            )
            self._root = ft.Container(self._single, padding=ft.Padding.symmetric(horizontal=8, vertical=8), expand=True)
        else:
            self._left = ft.Column(spacing=10, scroll=ft.ScrollMode.AUTO, expand=True)
            self._right = ft.Column(
                spacing=10, scroll=ft.ScrollMode.AUTO, expand=True, on_scroll=self._scrolled, scroll_interval=120
            )
            self._root = ft.Container(
                ft.Row(
                    [
                        ft.Container(self._left, expand=True),
                        ft.Container(self._right, width=460 if self.app.wide else 400),
                    ],
                    spacing=12,
                    vertical_alignment=ft.CrossAxisAlignment.START,
                    expand=True,
                ),
                padding=10,
                expand=True,
            )
        return self._root

    def frame_on_page(self) -> bool:
        """This screen is shown, in the frame built for the window's current size."""
        return getattr(self, "_frame_key", None) == (self.app.narrow, self.app.wide) and self.app.screen is self

    @property
    def scrolled(self) -> bool:
        """The side panel (a phone's one column) is scrolled down from its top."""
        return getattr(self, "_offset", 0.0) > 1

    def _scrolled(self, e: Any) -> None:
        ft.context.disable_auto_update()  # just remember where the panel is; nothing to redraw
        self._offset = float(getattr(e, "pixels", 0) or 0)

    def _show(self) -> None:
        """Show the new state with the panel scrolled to its top.

        The scroll happens first: when a scrolled column's content shrinks under it, Flutter
        web leaves the accessibility tree at the old offset (screen readers, and taps by
        position, would land on the wrong control).
        """
        column = getattr(self, "_single", None) if self.app.narrow else getattr(self, "_right", None)
        offset = getattr(self, "_offset", 0)
        if column is not None and self.scrolled:
            # Keep the column taller than where it is scrolled (so nothing is clamped), show the new
            # state now, then scroll to the top; the padding goes with the next redraw.
            self._pad = offset + (self.app.page.height or 1000)
            self.refresh()
            self.app.run_later(self._to_top, column)
        else:
            self._pad = 0
            self.refresh()

    async def _to_top(self, column: ft.Column) -> None:
        try:
            await column.scroll_to(offset=0, duration=0)
        except Exception:  # the column is gone (layout changed): nothing to scroll
            return
        self._offset = 0.0
        self._pad = 0  # the padding goes with the next redraw: taken away at once, right after the
        # scroll, it left Flutter web's accessibility tree of the panel where the panel had been
        # scrolled to (seen here: every node of it 145 px below where it is drawn)

    def appbar(self) -> ft.AppBar:
        """One app bar for the screen's life: a turn changes its title and buttons, not the bar."""
        if getattr(self, "_appbar", None) is None:
            self._appbar = super().appbar()
            self._title_shown = self.title()
        else:
            if self.title() != self._title_shown:
                self._title_shown = self.title()
                self._appbar.title = self.title_control()
            actions = self.bar_actions()
            if buttons_key(actions) != buttons_key((self._appbar.actions or [])[:-1]):  # else keep the controls sent
                self._appbar.actions = actions + [ft.Container(width=6)]
        return self._appbar

    def refresh(self) -> None:
        """Redraw after a change, sending only the parts that changed.

        The page's structure stays put (columns, slots, the menu card); unchanged Places, players
        and menu entries keep their controls (see `Memo`). So Flet sends small patches and the
        browser rebuilds only what is new: that is what keeps a tap under 100 ms.
        """
        if self.app.screen is not self:  # left before a late answer from the store: nothing to draw
            return
        if not self.missing:
            self.news.waiting = False  # this redraw shows everything
        if self.missing or not self.frame_on_page():
            self.app.render()
            return
        parts = [self._menu, self._menu_col, self._react_slot, self._pad_box, self._coach_slot]
        if self.policy.has_extra:
            parts.append(self._extra)
        before = Patch.before(parts)
        title_before = (id(self._appbar.title), tuple(map(id, self._appbar.actions or [])))
        extra_before = self._extra_key
        self.appbar()
        self.body()
        rest = Patch.changed(parts, before)
        if self._menu in rest and self._menu_col in rest:
            rest.remove(self._menu_col)  # sent with its card
        if self.policy.has_extra and self._extra_key != extra_before and self._extra not in rest:
            rest.append(self._extra)
        rest += self._board_dirty + self._players_dirty + self._piles_dirty  # updated in place
        if (id(self._appbar.title), tuple(map(id, self._appbar.actions or []))) != title_before:
            rest.append(self._appbar)
        try:
            self._head.send()
        except RuntimeError:  # not on the page any more (navigated away meanwhile)
            return
        # What answers the tap leaves first and the browser draws it at once; the rest of the
        # screen (menu, map, cards) follows a moment later in the next patches.
        self.patch.later(rest)

    # --- what the controller asks of the screen (vm/interaction.py, TablePort) --------------------

    def later(self, coro_fn: Any, *args: Any) -> bool:
        """A tap's step, as every screen's; the tap itself changed nothing on the page (the step
        redraws when it is done), so Flet's update of the whole page after it is spared."""
        flet_costs.spare_page_update()
        return super().later(coro_fn, *args)

    def show(self) -> None:
        self._show()

    def flag(self, title: str, found: list[Any], on_force: Callable[[Ruling], Any] | None = None) -> None:
        self.app.flag(title, found, on_force=on_force)

    def keep_ruling(self, house_rules: dict[str, Any], ruling: str) -> None:
        settings = self.app.settings
        self.app.save_settings(replace(settings, kept_rulings=kept_with(settings.kept_rulings, house_rules, ruling)))
        self.app.toast(self.tr("ui.ruling_kept"))

    def confirm(self, title: str, text: str, yes: str, on_yes: Callable[[], Any], danger: bool = False) -> None:
        self.app.confirm(title, text, yes, on_yes, danger=danger)

    def toast(self, text: str) -> None:
        self.app.toast(text)

    def open_rule(self, rule: str) -> None:
        self.app.go("/rules", rule=rule, back=f"/game/{self.game_id}")

    def physical(self) -> TableChance:
        settings = self.app.settings
        return TableChance(settings.physical_dice, settings.physical_michel, settings.physical_cards)

    def lines_for(self, events: Sequence[Event]) -> list[str]:
        return self.policy.lines_for(self, events)

    def after(self, seconds: float, fn: Callable[[], Any]) -> None:
        async def wait() -> None:
            await asyncio.sleep(seconds)
            if self.app.screen is self:
                fn()

        self.app.run_later(wait)

    def recorded(self, outcome: Outcome) -> None:
        """An action went in (the session told the other screens): sound it, and show the table (or the win)."""
        sound.after(self, outcome.events, outcome.offence)
        self.policy.heard(self, news=False)
        if (outcome.winner is not None or self.session.state.winner is not None) and self.policy.won_route:
            self.app.go(f"/game/{self.game_id}/win")
            return
        self.news.headline_first()

    def show_player(self, seat: int) -> None:
        """A score was tapped: bring that player's board into view."""
        column = self._single if self.app.narrow else self._left
        self.app.run_later(self._scroll_to_player, column, seat)

    async def _scroll_to_player(self, column: ft.Column, seat: int) -> None:
        try:
            await column.scroll_to(scroll_key=f"player-{seat}", duration=300)
        except Exception:  # the layout changed meanwhile: nothing to scroll
            return

    def show_headline(self) -> None:
        """Whose turn it is and what happened, sent alone (after a change, the rest of the table
        follows: table_news.py). A panel with nothing left to show (the composer of the action
        just recorded) goes with it; a new one (a decision) comes with the rest."""
        state = self.session.state
        ctl = self.control
        self._head.set_table(*self._table(), state.pending is not None, self.policy.said(self))
        self._fill_result()
        if ctl.michel_for is None and ctl.card_for is None and ctl.composer is None and state.pending is None:
            self._head.fill(self._head.main_slot, None)
        self._head.send()
