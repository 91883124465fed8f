"""The table: map, players, and the referee's panel for whoever must act now.

This screen owns one `TableSession` and turns taps into actions: a menu tap starts a
`Composer` (asking only what that action still needs), a pending decision shows only its legal
answers, a Warden offence raises the alert with Report/Freepass/Punishment. Every submission
carries the version on screen; what happened is shown in words (and a rolled die) right after.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import flet as ft

from ..session import Outcome, TableSession
from ..vm.actions import ActionVM, ChoiceVM, Composer, StepVM, action_menu, confirm_view, end_turn_vm
from ..vm.dice import michel_ask, michel_draws
from ..vm.log import recent_lines
from ..vm.pending import AnswerVM, pending_view
from ..vm.reactions import reactions_view
from ..vm.table import build_table, names_of, score_strip
from ..vm.undo import redo_view, undo_view
from ..widgets import panels
from ..widgets.board import BoardMap
from ..widgets.common import Chip, Memo, button, card, heading, icon_button, muted, paint
from ..widgets.die import RollingDie, die_face
from ..widgets.players import PlayersPanel, ScoreStrip, piles_row
from .base import Screen

log = logging.getLogger(__name__)
REST_DELAY = 0.012  # about a frame: the browser starts drawing the tap's answer before the rest arrives
NARROW_BAR = 2  # buttons a phone's app bar keeps (Undo, Redo)


class TableScreen(Screen):
    viewer: int | None = None  # whose eyes the screen is for (None: the referee's, who sees every entry)
    may_force = True  # "record anyway" (a house rule wins over the referee): the referee's console only

    def __init__(self, app: Any, game_id: str, query: dict[str, str]) -> None:
        super().__init__(app, query)
        self.game_id = game_id
        self.missing: str | None = None
        self.redirect: str | None = None
        try:
            self.session = self.open_session(app, game_id)
        except Exception as error:  # unknown id or an unreadable database: say which
            self.missing = getattr(error, "message", str(error))
            return
        if self.session.state.winner is not None:
            self.redirect = f"/game/{game_id}/win"
        # The version the whole screen shows: a tap is made on it, even when news of a later one
        # is arriving (it is then refused as stale, never judged against a table nobody saw).
        self.shown_version = self.session.version
        self.composer: Composer | None = None
        self.draft: dict[str, Any] = {}
        self.die_for: AnswerVM | None = None
        self.pick: list[str] = []
        self.result: list[str] = []
        self.result_die: int | None = None
        self.result_die_rolls = False
        self.busy = False
        self.roller: RollingDie | None = None
        self.memo = Memo(keep=2)
        self._rest: list[ft.Control] = []  # parts still to send after a tap's first patch
        self._rest_scheduled = False
        self._news_waiting = False  # a headline was sent, the rest of the table not yet
        self.bg_open: int | None = None  # whose combat Backgrounds are listed
        self.refused_open = False  # the actions not possible now are folded away
        self.michel_for: tuple[dict[str, Any], int] | None = None  # an action waiting for the real Michel cards
        self.michel_drawn: list[str] = []
        self.topic = f"game:{game_id}"
        try:
            app.page.pubsub.subscribe_topic(self.topic, self._remote_change)
        except Exception:  # pubsub is a convenience for a second screen on the same game
            pass

    # --- frame ---------------------------------------------------------------------------------

    def leave(self) -> None:
        try:
            self.app.page.pubsub.unsubscribe_topic(self.topic)
        except Exception:
            pass

    def title(self) -> str:
        if self.missing:
            return self.tr("ui.game_missing_title")
        key, params = self.title_template()
        return self.tr(key, **params)

    def title_template(self) -> tuple[str, dict[str, Any]] | None:
        if self.missing:
            return None
        s = self.session.state
        return "ui.table_title", {"turn": s.turn, "player": s.players[s.active].name}

    def back_route(self) -> str | None:
        return "/"

    def actions(self) -> list[ft.Control]:
        tr = self.tr
        if self.missing:
            return []
        can_undo = self.session.can_undo
        actions = [
            icon_button(ft.Icons.UNDO, tr("ui.undo"), lambda e: self.undo(), identifier="nav-undo", enabled=can_undo),
            icon_button(ft.Icons.REDO, tr("ui.redo"), lambda e: self.redo(), identifier="nav-redo",
                        enabled=self.session.can_redo),
            icon_button(ft.Icons.RECEIPT_LONG, tr("ui.log"), lambda e: self.app.go(f"/game/{self.game_id}/log"),
                        identifier="nav-log"),
            icon_button(ft.Icons.EDIT_NOTE, tr("correct.open"), lambda e: self.app.go(f"/game/{self.game_id}/correct"),
                        identifier="nav-correct"),
            icon_button(ft.Icons.MENU_BOOK, tr("ui.rules"),
                        lambda e: self.app.go("/rules", back=f"/game/{self.game_id}"), identifier="nav-rules"),
            icon_button(ft.Icons.SETTINGS, tr("ui.settings"),
                        lambda e: self.app.go("/settings", back=f"/game/{self.game_id}"), identifier="nav-settings"),
        ]
        if self.app.services.joinable:  # the table view holds the join QR code: only where phones can reach us
            actions.append(icon_button(ft.Icons.QR_CODE_2, tr("join.table_view"),
                                       lambda e: self.app.go(f"/game/{self.game_id}/table"),
                                       identifier="nav-table-view"))
        return actions

    def bar_actions(self) -> list[ft.Control]:
        """On a phone the bar keeps Undo and Redo; the other buttons go in a row on top of the
        table, so the title keeps room for the turn number and the player's name."""
        actions = self.actions()
        return actions[:NARROW_BAR] if self.app.narrow and len(actions) > NARROW_BAR + 1 else actions

    def _body_actions(self) -> list[ft.Control]:
        return self.actions()[len(self.bar_actions()):]

    def resized(self, old: float, new: float) -> bool:
        def bucket(w: float) -> int:
            return 0 if w < 720 else 1 if w < 1100 else 2
        return bucket(old) != bucket(new)

    def key(self, e: ft.KeyboardEvent) -> None:
        if self.missing:
            return
        k = (e.key or "").lower()
        if (e.ctrl or e.meta) and k == "z":
            self.redo() if e.shift else self.undo()
        elif (e.ctrl or e.meta) and k == "y":
            self.redo()
        elif k == "escape" and (self.composer is not None or self.die_for is not None):
            self.cancel_action()

    # --- whose screen it is (a phone's seat view overrides these: join/seat.py) ---------------

    def open_session(self, app: Any, game_id: str) -> TableSession:
        return TableSession(app.store, game_id)

    def menu_seat(self, s: Any) -> int | None:
        """The seat whose turn menu this screen offers (the referee's: whoever's turn it is)."""
        return s.active

    def pending_for(self, s: Any, physical: bool) -> Any:
        return pending_view(s, self.tr, physical)

    def reactions_for(self, s: Any) -> Any:
        return reactions_view(s, self.tr)

    # --- the body ------------------------------------------------------------------------------

    def body(self) -> ft.Control:
        tr = self.tr
        if self.missing:
            return ft.Container(ft.Column([heading(tr("ui.game_missing_title"), 20), muted(self.missing, 14),
                                           button(tr("ui.home"), lambda e: self.app.go("/"), identifier="go-home")],
                                          spacing=12), padding=20)
        s = self.session.state
        self.shown_version = self.session.version
        narrow = self.app.narrow
        out = self._frame(narrow)
        physical = self.app.settings.physical_dice
        pend = self.pending_for(s, physical)
        # Only an open destination decision lights Places up: a finished move leaves the map plain.
        highlight = set(pend.highlight if pend is not None else [])
        table = build_table(s, tr, highlight, viewer=self.viewer)
        reactions = self.reactions_for(s)
        self._fill_status(table)
        if self._strip.set(score_strip(table, tr)):
            self._head_dirty = True
        tools = self._body_actions()
        if _buttons_key(tools) != _buttons_key(self._tools.controls):  # else keep the controls sent
            self._tools.controls = tools
            self._head_dirty = True
        self._tools.visible = bool(tools)
        alert = panels.offence_alert(self, reactions, tr)
        self._alert_slot.content = alert
        self._alert_slot.visible = alert is not None
        self._fill_result()
        main = None
        if self.michel_for is not None:
            action, count = self.michel_for
            main = panels.michel_panel(self, michel_ask(s, action, count, self.michel_drawn, tr), tr)
        elif pend is not None:
            main = panels.pending_panel(self, pend, tr, self.die_for, self.pick)
        elif self.composer is not None:
            step = self.composer.step()
            kind_label = tr.name("action", self.composer.kind)
            main = panels.composer_panel(self, kind_label, self.composer.summary(), step, tr, self.draft,
                                         bool(self.composer.history), self.composer.force)
        self._main_slot.content = main
        self._main_slot.visible = main is not None
        # The menu stays on the page under a composer (no rebuilding it on Cancel); a pending
        # decision hides it: only the decision's answers are offered then.
        seat = self.menu_seat(s)
        self._menu.visible = pend is None and s.winner is None and seat is not None
        if self._menu.visible:
            from companion.rules import action_options
            options = action_options(s, seat)  # once for the menu and End turn
            menu = action_menu(s, seat, tr, options, physical_dice=physical)
            self._menu_col.controls = panels.action_menu_rows(self, menu, end_turn_vm(s, seat, tr, options), tr,
                                                              tr.name("place", s.players[seat].place), self.memo)
        react = panels.reactions_panel(self, reactions, tr, self.bg_open, names_of(s))
        self._react_slot.content = react
        self._react_slot.visible = react is not None
        self._pad_box.height = getattr(self, "_pad", 0) or 0
        side = self._side_parts
        memo = self.memo
        self._board_dirty = self._map.set(table, self.choose_place if pend else None)
        self._players_dirty = self._players.set(table)
        board, players = self._board, self._players_row
        piles = memo.get(("piles", repr(table.piles)), lambda: piles_row(table, tr, memo))
        memo.cycle()
        self._piles.content = piles
        if narrow:
            self._side.controls = side
            if not self._single.controls:
                self._single.controls = [self._side, heading(tr("ui.map_title"), 16), board,
                                         heading(tr("ui.players_title"), 16), players, self._piles]
        else:
            self._right.controls = side
            if not self._left.controls:
                self._left.controls = [board, players, self._piles]
        if self.roller is not None:
            roller = self.roller
            self.result_die_rolls = False
            self.app.run_later(roller.roll)
        return out

    def _fill_result(self) -> None:
        """What just happened, with the die rolled (tumbling when it was rolled just now)."""
        tr = self.tr
        die = None
        if self.result_die is not None:
            if self.result_die_rolls:
                self.roller = RollingDie(self.result_die, 52, tr("ui.die_rolled", value=self.result_die))
                die = self.roller.control
            else:
                self.roller = None
                die = self.memo.get(("die", self.result_die), lambda: ft.Semantics(
                    label=tr("ui.die_rolled", value=self.result_die), container=True, identifier="die-result",
                    content=die_face(self.result_die, 52)))
        if self._result.set(self.result, die):
            self._head_dirty = True
        self._result_slot.visible = bool(self.result)

    def _frame(self, narrow: bool) -> ft.Control:
        """The scrolling columns are kept between renders (a tap never resets the scroll)."""
        key = (narrow, self.app.wide)
        if getattr(self, "_frame_key", None) == key:
            return self._root
        self._frame_key = key
        self._offset = 0.0
        self._map = BoardMap(self.tr, 2 if narrow else 3)
        self._board, self._board_row = self._map.control, self._map.row
        self._players = PlayersPanel(self.tr, {"xs": 12} if narrow else {"xs": 6})
        self._players_row = self._players.row
        self._menu_col = ft.Column(spacing=6, tight=True)
        self._menu = card(self._menu_col, identifier="actions", padding=10)
        self._piles = ft.Container()
        self._status_title = ft.Text(size=19, weight=ft.FontWeight.BOLD)
        self._status_chips = ft.Row(wrap=True, spacing=6, run_spacing=6)
        self._status_box = ft.Container(ft.Column([self._status_title, self._status_chips], spacing=6, tight=True),
                                        padding=12, width=float("inf"), border_radius=ft.BorderRadius.all(12))
        self._status = ft.Semantics(identifier="status", container=True, live_region=True, content=self._status_box)
        self._alert_slot, self._result_slot, self._main_slot, self._react_slot = (ft.Container(visible=False)
                                                                                 for _ in range(4))
        self._result = panels.ResultStrip(self.tr, self.clear_result)
        self._result_slot.content = self._result.control
        self._turn_chip, self._target_chip = Chip(), Chip(icon=ft.Icons.FLAG)
        self._actions_chip = Chip(icon=ft.Icons.BOLT, bold=True, size=14)
        self._status_chips.controls = [self._turn_chip.control, self._actions_chip.control, self._target_chip.control]
        self._head_dirty = False  # a part of the head changed in place (its signature cannot tell)
        self._pad_box = ft.Container(height=0)
        # What answers a tap (the banner, an alert, what happened, the decision or composer) is one
        # part, sent as one patch so the browser draws it in one frame.
        self._strip = ScoreStrip(self.tr, self.show_player)
        self._tools = ft.Row(spacing=0, wrap=True, alignment=ft.MainAxisAlignment.END)  # a phone's other buttons
        self._head = ft.Column([self._tools, self._strip.control, self._status, self._alert_slot, self._result_slot,
                                self._main_slot], spacing=10)
        self._side_parts = [self._head, self._menu, self._react_slot, self._pad_box]
        self._side = ft.Column(spacing=10)
        if narrow:
            self._single = ft.Column(spacing=10, scroll=ft.ScrollMode.AUTO, expand=True, on_scroll=self._scrolled,
                                     scroll_interval=120)
            self._root = ft.Container(self._single, padding=ft.Padding.symmetric(horizontal=8, vertical=8),
                                      expand=True)
        else:
            self._left = ft.Column(spacing=10, scroll=ft.ScrollMode.AUTO, expand=True)
            self._right = ft.Column(spacing=10, scroll=ft.ScrollMode.AUTO, expand=True, on_scroll=self._scrolled,
                                    scroll_interval=120)
            self._root = ft.Container(ft.Row([ft.Container(self._left, expand=True),
                                              ft.Container(self._right, width=460 if self.app.wide else 400)],
                                             spacing=12, vertical_alignment=ft.CrossAxisAlignment.START, expand=True),
                                      padding=10, expand=True)
        return self._root

    def _frame_on_page(self) -> bool:
        """This screen is shown, in the frame built for the window's current size."""
        return getattr(self, "_frame_key", None) == (self.app.narrow, self.app.wide) and self.app.screen is self

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
        if column is not None and offset > 1:
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
        if self._pad:
            self._pad = 0
            self.refresh()

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
            if _buttons_key(actions) != _buttons_key(self._appbar.actions[:-1]):  # else keep the controls sent
                self._appbar.actions = actions + [ft.Container(width=6)]
        return self._appbar

    def refresh(self) -> None:
        """Redraw after a change, sending only the parts that changed.

        The page's structure stays put (columns, slots, the menu card); unchanged Places, players
        and menu entries keep their controls (see `Memo`). So Flet sends small patches and the
        browser rebuilds only what is new: that is what keeps a tap under 100 ms.
        """
        self._news_waiting = False  # this redraw shows everything
        if self.missing or not self._frame_on_page():
            self.app.render()
            return
        # The banner and "what happened" are rewritten in place and mark `_head_dirty`; the
        # decision and alert slots get new content, which their signatures tell.
        head = [self._main_slot, self._alert_slot]
        parts = [self._menu, self._menu_col, self._react_slot, self._pad_box, self._piles]
        head_before = [_signature(c) for c in head]
        before = [_signature(c) for c in parts]
        title_before = (id(self._appbar.title), tuple(map(id, self._appbar.actions or [])))
        self.appbar()
        self.body()
        rest: list[ft.Control] = []
        for control, old in zip(parts, before, strict=False):
            if control is self._menu_col and self._menu in rest:
                continue  # sent with its card
            if _signature(control) != old:
                rest.append(control)
        rest += self._board_dirty + self._players_dirty  # Places and cards updated in place
        if (id(self._appbar.title), tuple(map(id, self._appbar.actions or []))) != title_before:
            rest.append(self._appbar)
        try:
            if self._head_dirty or [_signature(c) for c in head] != head_before:
                self._head_dirty = False
                self._head.update()
        except RuntimeError:  # not on the page any more (navigated away meanwhile)
            return
        if rest:
            # What answers the tap leaves first and the browser draws it at once; the rest of the
            # screen (menu, map, cards) follows a moment later in the next patches.
            self._rest.extend(c for c in rest if c not in self._rest)
            if not self._rest_scheduled:  # not scheduled while the browser is away: the next redraw sends it
                self._rest_scheduled = self.app.run_later(self._send_rest)

    async def _send_rest(self) -> None:
        await asyncio.sleep(REST_DELAY)
        controls, self._rest = self._rest, []
        self._rest_scheduled = False
        try:
            for control in controls:
                control.update()
        except RuntimeError:  # the screen changed meanwhile: the new one draws itself
            return

    def _fill_status(self, table: Any) -> None:
        """The banner: whose turn or decision, in their colour, with actions left and the target."""
        tr = self.tr
        s = self.session.state
        deciding = table.deciding if table.deciding is not None else table.active
        fill, ink = paint(table.players[deciding].color)
        key = (table.headline, table.turn, table.actions_left, deciding, s.pending is None, table.target)
        if getattr(self, "_status_key", None) == key:
            return
        self._status_key = key
        shade = ft.Colors.with_opacity(0.25, ft.Colors.BLACK)
        self._turn_chip.set(tr("ui.turn_number", turn=table.turn), bgcolor=shade, color=ink)
        self._actions_chip.set(tr("ui.actions_left", count=table.actions_left), bgcolor=shade, color=ink)
        self._actions_chip.control.visible = s.pending is None
        self._target_chip.set(tr("ui.target_chip", target=table.target), bgcolor=shade, color=ink)
        self._head_dirty = True
        self._status_title.value = table.headline
        self._status_title.color = ink
        self._status_box.bgcolor = fill
        self._status.label = table.headline

    # --- starting and composing actions -----------------------------------------------------

    def start_action(self, kind: str, force: bool = False, quick: bool = False) -> None:
        if self.busy:
            return
        s = self.session.state
        composer = Composer(s, self.menu_seat(s), kind, self.tr, physical_dice=self.app.settings.physical_dice,
                            force=force, quick=quick)
        if not composer.possible:
            self.app.flag(self.tr("ui.not_allowed", action_label=self.tr.name("action", kind)),
                          self._reasons_for(kind))
            return
        self.composer = composer
        self.draft = {}
        if composer.step() is None:
            self._submit_composed()
        else:
            self._show()

    def _reasons_for(self, kind: str) -> list[Any]:
        """Why `kind` cannot be done now: the engine's violations for it."""
        from companion.rules import action_options

        from ..vm.actions import reasons
        s = self.session.state
        for option in action_options(s, self.menu_seat(s)):
            if option.type == kind:
                return reasons(option.violations, self.tr)
        return []

    def toggle_refused(self) -> None:
        """Open or fold the actions that are not possible now."""
        self.refused_open = not self.refused_open
        self.refresh()

    def explain_refused(self, a: ActionVM) -> None:
        """A disabled action was tapped: show the flag with each rule, and the override."""
        on_force = (lambda: self.start_action(a.type, force=True)) if a.forceable and self.may_force else None
        self.app.flag(self.tr("ui.not_allowed", action_label=a.label), a.reasons, on_force=on_force)

    def explain_choice(self, c: ChoiceVM) -> None:
        composer = self.composer
        on_force = None
        if composer is not None and self.may_force and c.reasons and all(r.forceable for r in c.reasons):
            def force() -> None:
                composer.force = True
                composer.pool = list(composer.all)
                composer.answer(self._step_field(), c.value)
                self._continue()
            on_force = force
        self.app.flag(self.tr("ui.not_allowed", action_label=c.label), c.reasons, on_force=on_force)

    def _step_field(self) -> str:
        step = self.composer.step() if self.composer is not None else None
        return step.field if step is not None else ""

    def answer(self, field: str, value: Any) -> None:
        if self.composer is None:
            return
        self.composer.answer(field, value)
        self.draft.pop(field, None)
        self._continue()

    def answer_die(self, step: StepVM, value: int) -> None:
        got = list(self.draft.get("die_progress", [])) + [value]
        if len(got) >= (step.exact or 1):
            self.draft.pop("die_progress", None)
            self.answer("die", got)
        else:
            self.draft["die_progress"] = got
            self._show()

    def set_draft(self, field: str, value: Any) -> None:
        self.draft[field] = value
        self._show()

    def set_count(self, field: str, value: Any, count: int, chosen: list[Any]) -> None:
        rest = [c for c in chosen if c != value]
        self.draft[field] = rest + [value] * max(0, count)
        self._show()

    def back_action(self) -> None:
        if self.composer is not None and self.composer.back():
            self._show()
        else:
            self.cancel_action()

    def cancel_action(self) -> None:
        self.composer = None
        self.draft = {}
        self.die_for = None
        self.michel_for = None
        self._show()

    def pick_michel(self, card: str) -> None:
        """The table says which Michel card came up; with all of them, the action is recorded."""
        if self.michel_for is None:
            return
        action, count = self.michel_for
        self.michel_drawn.append(card)
        if len(self.michel_drawn) < count:
            self._show()
            return
        self.michel_for = None
        self.submit_checked(dict(action, michel_cards=list(self.michel_drawn)))

    def _continue(self) -> None:
        if self.composer is not None and self.composer.step() is None:
            self._submit_composed()
        else:
            self._show()

    def _submit_composed(self) -> None:
        composer = self.composer
        if composer is None:
            return
        self.submit_checked(composer.action())

    def submit_checked(self, action: dict[str, Any]) -> None:
        """Record `action`, asking first which real Michel cards came up (when the table draws
        them) and, once, whether to go on when the engine says it wins or is an offence."""
        if self.app.settings.physical_michel and self.michel_for is None:
            count = michel_draws(self.session.state, action)
            if count:
                self.michel_for, self.michel_drawn = (action, count), []
                self._show()
                return
        ask = confirm_view(self.session.state, action, self.tr)
        if ask is None:
            self.submit(action)
            return
        self.app.confirm(ask.title, ask.text, self.tr("ui.confirm_record"), lambda: self.submit(action))

    # --- pending decisions and reactions --------------------------------------------------------

    def choose_answer(self, a: AnswerVM) -> None:
        if a.needs_die and self.app.settings.physical_dice:
            self.die_for = a
            self._show()
            return
        self.submit_checked(a.action)

    def answer_with_die(self, a: AnswerVM, value: int) -> None:
        self.die_for = None
        self.submit_checked(dict(a.action, die=[value]))

    def cancel_die(self) -> None:
        self.die_for = None
        self._show()

    def choose_place(self, place: str) -> None:
        """A highlighted Place was tapped: it answers a destination decision."""
        s = self.session.state
        if s.pending is not None and s.pending.kind in ("destination", "neutral_destination") \
                and place in s.pending.options:
            self.submit_checked({"type": "choose", "player": s.pending.player, "option": place})

    def set_pick(self, card: str, count: int) -> None:
        self.pick = [c for c in self.pick if c != card] + [card] * max(0, count)
        self._show()

    def submit_pick(self) -> None:
        s = self.session.state
        if s.pending is None:
            return
        self.submit({"type": "end_turn", "player": s.pending.player, "discard": list(self.pick)})

    def open_backgrounds(self, seat: int | None) -> None:
        self.bg_open = seat
        self.refresh()

    def show_player(self, seat: int) -> None:
        """A score was tapped: bring that player's board into view."""
        column = self._single if self.app.narrow else self._left
        self.app.run_later(self._scroll_to_player, column, seat)

    async def _scroll_to_player(self, column: ft.Column, seat: int) -> None:
        try:
            await column.scroll_to(scroll_key=f"player-{seat}", duration=300)
        except Exception:  # the layout changed meanwhile: nothing to scroll
            return

    def open_rule(self, rule: str) -> None:
        self.app.go("/rules", rule=rule, back=f"/game/{self.game_id}")

    # --- writing ---------------------------------------------------------------------------------

    def submit(self, action: dict[str, Any]) -> None:
        if self.busy:
            return
        self.busy = True  # until the store answers: a second tap meanwhile is dropped
        if not self.later(self._record, action):
            self.busy = False

    async def _record(self, action: dict[str, Any]) -> None:
        try:
            outcome = await self.session.record(action, self.shown_version)
        except Exception as error:
            if self.write_refused(error):
                return
            raise
        finally:
            self.busy = False
        self._after(outcome)

    def write_refused(self, error: Exception) -> bool:
        """Whether `error` is a write the session refused before the store (a phone's, join/seat.py)."""
        return False

    def _after(self, outcome: Outcome) -> None:
        tr = self.tr
        if outcome.stale:
            self._reset()
            self.app.toast(tr("ui.stale"))
            self._show()
            return
        if outcome.error:
            self.app.toast(tr("ui.store_problem", problem=outcome.error))
            self._show()
            return
        if not outcome.accepted:
            from ..vm.actions import reasons
            action = outcome.action or {}
            label = tr.name("action", str(action.get("type", "")))
            found = reasons(outcome.violations, tr)
            retry = None
            if self.may_force and found and all(r.forceable for r in found) and not action.get("force"):
                retry = lambda: self.submit(dict(action, force=True))  # noqa: E731
            self.app.flag(tr("ui.not_allowed", action_label=label), found, on_force=retry)
            return
        self._reset()
        s = self.session.state
        self.result = self.lines_for(outcome.events)
        rolls = [ev for ev in outcome.events if ev.get("type") == "roll"]
        self.result_die = rolls[-1].get("die") if rolls else None
        self.result_die_rolls = bool(rolls) and rolls[-1].get("source") != "table"
        self._notify(outcome.events)
        if outcome.winner is not None or s.winner is not None:
            self.game_won()
            return
        self._show()

    def game_won(self) -> None:
        self.app.go(f"/game/{self.game_id}/win")

    def _reset(self) -> None:
        self.bg_open = None
        self.michel_for = None
        self.composer = None
        self.draft = {}
        self.die_for = None
        self.pick = []

    def clear_result(self, e: Any = None) -> None:
        self.result = []
        self.result_die = None
        self.refresh()

    # --- undo / redo ---------------------------------------------------------------------------

    def undo(self) -> None:
        self.later(self._undo)

    async def _undo(self) -> None:
        tr = self.tr
        entries = await self.session.read_events()
        vm = undo_view(entries, self.session.state, tr, self.session.can_redo)
        if not vm.can_undo:
            self.app.toast(tr("ui.nothing_to_undo"))
            return
        if vm.confirm:
            self.app.confirm(tr("ui.undo_confirm_title", what=vm.last), vm.confirm, tr("ui.undo"),
                             lambda: self._rewind("undo", vm.last), danger=True)
        else:
            await self._rewind_now("undo", vm.last)

    def redo(self) -> None:
        self.later(self._redo)

    async def _redo(self) -> None:
        tr = self.tr
        vm = redo_view(await self.session.read_events(), self.session.state, tr)
        if not self.session.can_redo or not vm.can_redo:
            self.app.toast(tr("ui.nothing_to_redo"))
            return
        if vm.confirm:
            self.app.confirm(tr("ui.redo_confirm_title", what=vm.last), vm.confirm, tr("ui.redo"),
                             lambda: self._rewind("redo", vm.last), danger=True)
        else:
            await self._rewind_now("redo", vm.last)

    def _rewind(self, which: str, what: str) -> None:
        self.later(self._rewind_now, which, what)

    async def _rewind_now(self, which: str, what: str) -> None:
        tr = self.tr
        outcome = await self.session.rewind(which)
        if outcome.stale:
            self.app.toast(tr("ui.stale"))
        elif outcome.error:
            self.app.toast(outcome.error)
        else:
            self._reset()
            self.result_die = None
            self.result = [tr("ui.undone" if which == "undo" else "ui.redone", what=what)]
            self._notify()
        self._show()

    # --- other screens on the same game ------------------------------------------------------------

    def _notify(self, events: list[dict[str, Any]] | None = None) -> None:
        """Tell the other screens of this game (the events stay in this process: each screen
        shows only what its viewer may read, join/seat.py)."""
        try:
            self.app.page.pubsub.send_others_on_topic(self.topic, {"version": self.session.version,
                                                                   "events": list(events or [])})
        except Exception:
            pass

    def lines_for(self, events: list[dict[str, Any]]) -> list[str]:
        """What just happened, in words, for this screen's viewer."""
        return recent_lines(events, names_of(self.session.state), self.tr)

    async def _remote_change(self, topic: str, message: Any) -> None:
        version = message.get("version", 0) if isinstance(message, dict) else 0
        if self.app.screen is not self or self.missing:
            return
        if await self.session.refresh(version):
            events = list(message.get("events") or []) if isinstance(message, dict) else []
            self.show_news(events)

    def news_lines(self, events: list[dict[str, Any]]) -> list[str]:
        """What another screen's action did, as this screen words it."""
        return [self.tr("ui.remote_change")]

    def show_news(self, events: list[dict[str, Any]]) -> None:
        """Another screen changed the game: whose turn it is and what happened go out first.

        Every screen of the game hears of the change at once, and each rebuilds its whole table
        for its own viewer; so each first sends only its banner and "what happened" (a small
        patch, drawn in one frame), and rebuilds the rest once every screen's headline is out.
        Any redraw meanwhile (a tap) draws everything, and the late rebuild then does nothing.
        """
        self._reset()
        self.result = self.news_lines(events)
        rolls = [ev for ev in events if ev.get("type") == "roll"]
        self.result_die = rolls[-1].get("die") if rolls else None
        self.result_die_rolls = False
        if not self._frame_on_page():
            self._show()
            return
        table = build_table(self.session.state, self.tr, set(), viewer=self.viewer)
        self._fill_status(table)
        self._strip.set(score_strip(table, self.tr))
        self._fill_result()
        self.memo.cycle()
        self._head_dirty = False
        try:
            self._head.update()
        except RuntimeError:  # not on the page any more
            return
        self._news_waiting = True
        if not self.app.run_later(self._show_rest_of_news):
            self._show()

    async def _show_rest_of_news(self) -> None:
        await asyncio.sleep(0)  # the other screens' headlines were queued first; this goes after them
        if self._news_waiting and self.app.screen is self:
            self._show()


def _buttons_key(controls: list[ft.Control]) -> tuple:
    """What app bar buttons show and do (a button's handler is the same screen's): equal keys,
    the same buttons."""
    return tuple((type(c), getattr(c, "identifier", None), getattr(c, "label", None),
                  getattr(getattr(c, "content", None), "icon", None),
                  getattr(getattr(c, "content", None), "disabled", None)) for c in controls)


def _signature(control: ft.Control) -> tuple:
    """What a redraw may have changed in a part: its children's identities and its own state."""
    children = getattr(control, "controls", None)
    content = getattr(control, "content", None)
    own = tuple(getattr(control, name, None) for name in ("visible", "height", "bgcolor", "label", "value"))
    if children is not None:
        return own + tuple(map(id, children))
    if isinstance(control, ft.Semantics) and control.content is not None and hasattr(control.content, "bgcolor"):
        box = control.content
        inner = box.content
        texts = tuple((c.value, c.color) for c in getattr(inner, "controls", []) if isinstance(c, ft.Text))
        rows = tuple(tuple(map(id, c.controls)) for c in getattr(inner, "controls", []) if isinstance(c, ft.Row))
        return own + (box.bgcolor,) + texts + rows
    return own + (id(content),)
