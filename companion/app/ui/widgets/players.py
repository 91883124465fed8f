"""A player's board at a glance: Tunnel progress, Beatings, cigarettes, hand, Gang, tokens, Trauma.

A `PlayerCard` is built once per seat and then updated in place: after a tap only the values
that changed travel to the browser (a new hand count, a Beating), which keeps taps fast. On a
shared screen each card carries "show my hand" (`on_reveal(seat)`; `on_reveal(None)` hides).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, cast

import flet as ft

from ...vm.call import SaidVM
from ...vm.table import PileVM, PlayerVM, ScoreVM, TableVM, TeamVM
from ...vm.text import Tr
from .common import (
    DANGER,
    TOUCH,
    Chip,
    Memo,
    card,
    edge,
    flat_button,
    muted,
    paint,
    pill,
    ring,
    standee,
    start_border,
    tap,
)

Reveal = Callable[[int | None], None]  # show a seat's hand on a shared screen (None: hide it)


class PlayerCard:
    def __init__(self, tr: Tr, col: ft.ResponsiveNumber, on_reveal: Reveal | None = None) -> None:
        self.tr = tr
        self.on_reveal = on_reveal
        self.vm: PlayerVM | None = None
        self.avatar = ft.Container()
        self.name = ft.Text(size=16, weight=ft.FontWeight.BOLD)
        self.place = muted("", 12)
        self.flags = ft.Row(spacing=6, tight=True)
        self.tunnel = ft.Text(size=14, weight=ft.FontWeight.BOLD)
        self.bar = ft.ProgressBar(value=0, bar_height=10, border_radius=ft.BorderRadius.all(5))
        self.stats = ft.Row(wrap=True, spacing=5, run_spacing=5)
        self.hand = muted("", 12)
        self.dug = muted("", 12)
        self.background = muted("", 12, italic=True)
        self.reveal = ft.Container()
        content = ft.Column(
            [
                ft.Row(
                    [self.avatar, ft.Column([self.name, self.place], spacing=0, expand=True, tight=True), self.flags],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                    spacing=8,
                ),
                ft.Row(
                    [
                        ft.Icon(ft.Icons.HARDWARE, size=18, color=ft.Colors.PRIMARY),
                        self.tunnel,
                        ft.Container(self.bar, expand=True),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                    spacing=6,
                ),
                self.stats,
                self.hand,
                self.reveal,
                self.dug,
                self.background,
            ],
            spacing=7,
            tight=True,
        )
        self.box = ft.Container(
            content=content, padding=12, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW, border_radius=ft.BorderRadius.all(12)
        )
        self.control = ft.Semantics(content=self.box, container=True)
        self.control.col = col
        self.memo = Memo(keep=3)  # the avatar, flags and chips a turn toggles come back

    def set(self, p: PlayerVM) -> None:
        """Show this player; unchanged parts are left alone (nothing to send for them)."""
        old, self.vm = self.vm, p
        if old == p:
            return
        tr = self.tr
        self.control.identifier = f"player-{p.seat}"
        self.control.key = ft.ScrollKey(f"player-{p.seat}")  # type: ignore[call-arg]  # a dataclass Flet's types miss
        self.control.label = tr(
            "ui.player_label",
            player=p.name,
            place=p.place,
            tunnel=p.tunnel,
            target=p.target,
            beatings=p.beatings,
            cigarettes=p.cigarettes,
            hand=p.hand_size,
        )
        memo = self.memo
        self.avatar.content = memo.make(
            standee, p.name[:1].upper(), p.color, p.name, size=34, active=p.active, identifier=f"avatar-{p.seat}"
        )
        self.name.value = p.name
        self.place.value = tr("ui.player_at", place=p.place)
        row = []
        if p.active:
            row.append(
                memo.make(pill, tr("ui.their_turn"), bgcolor=ft.Colors.PRIMARY, color=ft.Colors.ON_PRIMARY, bold=True)
            )
        elif p.deciding:
            row.append(
                memo.make(pill, tr("ui.deciding"), bgcolor=ft.Colors.TERTIARY, color=ft.Colors.ON_TERTIARY, bold=True)
            )
        if p.winner:
            row.append(
                memo.make(
                    pill, tr("ui.winner"), icon=ft.Icons.EMOJI_EVENTS, bgcolor=ft.Colors.AMBER, color=ft.Colors.BLACK
                )
            )
        self.flags.controls = row
        self.tunnel.value = tr("ui.tunnel_short", tunnel=p.tunnel, target=p.target)
        self.bar.value = p.progress
        self.bar.semantics_label = tr("ui.tunnel_progress", tunnel=p.tunnel, target=p.target)
        self.stats.controls = _stats(p, tr, memo)
        memo.cycle()
        hand = [f"{name} ×{tr.num(n)}" if n > 1 else name for name, n in p.hand_known]
        if p.hand_unknown:
            hand.append(tr("ui.unknown_cards", count=p.hand_unknown))
        self.hand.value = tr("ui.hand_line", cards=tr.join(hand) if hand else tr("ui.hand_empty"))
        self.hand.visible = not p.hand_hidden  # its size is in the stats; its cards are its owner's
        if old is None or (old.reveal, old.seat, old.name) != (p.reveal, p.seat, p.name):
            self.reveal.content = self._reveal_button(p)
        self.reveal.visible = p.reveal is not None and self.on_reveal is not None
        self.dug.value = tr("ui.dug_line", tools=tr.join(p.dug)) if p.dug else ""
        self.dug.visible = bool(p.dug)
        self.background.value = p.background
        self.background.visible = bool(p.background)
        # The colour stripe sits where reading starts (the right edge in Persian).
        ring = ft.BorderSide(2, ft.Colors.PRIMARY) if p.active else None
        self.box.border = start_border(ft.BorderSide(6, edge(p.color)), tr.rtl, ring)

    def _reveal_button(self, p: PlayerVM) -> ft.Control | None:
        on_reveal = self.on_reveal
        if p.reveal is None or on_reveal is None:
            return None
        if p.reveal == "hide":
            return flat_button(
                self.tr("ui.hide_my_hand", player=p.name),
                lambda e: on_reveal(None),
                icon=ft.Icons.VISIBILITY_OFF,
                style="tonal",
                identifier=f"hide-hand-{p.seat}",
            )
        return flat_button(
            self.tr("ui.show_my_hand", player=p.name),
            lambda e: on_reveal(p.seat),
            icon=ft.Icons.VISIBILITY,
            style="outlined",
            identifier=f"show-hand-{p.seat}",
        )


def _stats(p: PlayerVM, tr: Tr, memo: Memo) -> list[ft.Control]:
    """The chips under the Tunnel bar; an unchanged chip keeps its control (see `Memo`)."""
    chip = functools.partial(memo.make, pill)
    stats = [
        chip(
            tr("ui.stat_beatings", count=p.beatings, most=p.max_beatings),
            icon=ft.Icons.PERSONAL_INJURY,
            color=ft.Colors.WHITE if p.beatings else None,
            bgcolor=DANGER if p.beatings else None,
            bold=bool(p.beatings),
        ),
        chip(tr("ui.stat_cigarettes", count=p.cigarettes), icon=ft.Icons.SMOKING_ROOMS),
        chip(
            tr("ui.stat_hand", count=p.hand_size, limit=p.hand_limit),
            icon=ft.Icons.STYLE,
            bgcolor=ft.Colors.ERROR_CONTAINER if p.hand_size > p.hand_limit else None,
        ),
    ]
    if p.gang:
        stats.append(
            chip(
                tr("ui.stat_gang", gang=p.gang, ability=p.ability or ""),
                icon=ft.Icons.GROUPS,
                bgcolor=ft.Colors.TERTIARY_CONTAINER,
                color=ft.Colors.ON_TERTIARY_CONTAINER,
            )
        )
    for token, n in p.tokens:
        stats.append(chip(tr("ui.stat_token", token=token, count=n), icon=ft.Icons.TOLL))
    if p.trauma:
        stats.append(
            chip(
                tr("ui.stat_trauma", trauma=p.trauma),
                icon=ft.Icons.PSYCHOLOGY,
                bgcolor=ft.Colors.ERROR_CONTAINER,
                color=ft.Colors.ON_ERROR_CONTAINER,
            )
        )
    if p.team:
        stats.append(chip(p.team, icon=ft.Icons.FLAG))
    return stats


class TeamBar:
    """Team mode: the pooled Tunnel points of a team against the target."""

    def __init__(self) -> None:
        self.title = ft.Text(weight=ft.FontWeight.BOLD)
        self.members = muted("")
        self.score = ft.Text(weight=ft.FontWeight.BOLD)
        self.bar = ft.ProgressBar(value=0, bar_height=10, border_radius=ft.BorderRadius.all(5))
        control = card(
            ft.Column(
                [
                    ft.Row(
                        [self.title, self.members, self.score], alignment=ft.MainAxisAlignment.SPACE_BETWEEN, wrap=True
                    ),
                    self.bar,
                ],
                spacing=6,
                tight=True,
            ),
            identifier="team",
            label="",
        )
        assert isinstance(control, ft.Semantics)  # card() gives a card it names a Semantics
        self.control = control
        self.control.col = {"xs": 12}

    def set(self, team: TeamVM, tr: Tr) -> None:
        label = tr("ui.team_tunnel", team=team.name, tunnel=team.tunnel, target=team.target)
        self.control.identifier = f"team-{team.ident}"
        self.control.label = label
        self.title.value = team.name
        self.members.value = tr.join(team.members)
        self.score.value = tr("ui.tunnel_short", tunnel=team.tunnel, target=team.target)
        self.bar.value = 0 if team.target <= 0 else min(1.0, team.tunnel / team.target)
        self.bar.semantics_label = label


class PlayersPanel:
    """The team bars and the players' cards, kept and updated in place."""

    def __init__(self, tr: Tr, col: ft.ResponsiveNumber, on_reveal: Reveal | None = None) -> None:
        self.tr = tr
        self.col = col
        self.on_reveal = on_reveal
        self.row = ft.ResponsiveRow(spacing=8, run_spacing=8)
        self.cards: list[PlayerCard] = []
        self.teams: list[TeamBar] = []

    def set(self, vm: TableVM) -> list[ft.Control]:
        """Show `vm`; returns what to send: the cards that changed, or the whole row if it did."""
        before = [c.vm for c in self.cards]
        while len(self.teams) < len(vm.teams):
            self.teams.append(TeamBar())
        while len(self.cards) < len(vm.players):
            self.cards.append(PlayerCard(self.tr, self.col, self.on_reveal))
        for bar, team in zip(self.teams, vm.teams, strict=False):
            bar.set(team, self.tr)
        for player_card, p in zip(self.cards, vm.players, strict=False):
            player_card.set(p)
        wanted: list[ft.Control] = [b.control for b in self.teams[: len(vm.teams)]]
        wanted += [c.control for c in self.cards[: len(vm.players)]]
        if list(map(id, self.row.controls)) != list(map(id, wanted)):
            self.row.controls = wanted
            return [self.row]
        changed: list[ft.Control] = [b.control for b in self.teams[: len(vm.teams)]]
        changed += [
            c.control for c, old in zip(self.cards, before + [None] * len(self.cards), strict=False) if c.vm != old
        ]
        return changed


class PilesRow:
    """The piles' counts, kept on the page; a pile whose count did not change keeps its chip."""

    def __init__(self, tr: Tr, memo: Memo | None = None) -> None:
        self.tr = tr
        self.memo = memo or Memo(keep=2)
        self.title = muted(tr("ui.piles_title"), 12)
        self.row = ft.Row([self.title], wrap=True, spacing=5, run_spacing=5)
        self.control = ft.Semantics(identifier="piles", container=True, label=tr("ui.piles_label"), content=self.row)
        self.piles: list[PileVM] | None = None

    def set(self, piles: list[PileVM]) -> list[ft.Control]:
        """Show `piles`; returns what to send (the row, when a count changed)."""
        if piles == self.piles:
            return []
        self.piles = piles
        tr = self.tr
        items = [self.memo.make(pill, tr("ui.pile_count", pile=p.label, count=p.count), size=12) for p in piles]
        self.memo.cycle()
        self.row.controls = [self.title, *items]
        return [self.row]


def piles_row(vm: TableVM, tr: Tr, memo: Memo) -> ft.Control:
    """The piles, for screens that draw them anew (with the chips `memo` kept)."""
    piles = PilesRow(tr, memo)
    piles.set(vm.piles)
    return piles.control


def player_tiles(vm: TableVM, tr: Tr, *, col: ft.ResponsiveNumber, memo: Any = None) -> list[ft.Control]:
    """Stateless cards (for screens that draw players once)."""
    panel = PlayersPanel(tr, col)
    panel.set(vm)
    return list(panel.row.controls)


class ScoreChip:
    """One player's entry, built once for the seat and rewritten in place when it changes."""

    def __init__(self, s: ScoreVM, on_tap: Any) -> None:
        self.vm = s
        self.edge = edge(s.color)
        self.avatar = standee(s.name[:1].upper(), s.color, s.name, size=26, active=s.turn)
        self.tunnel = ft.Text(s.tunnel, size=14, weight=ft.FontWeight.BOLD)
        self.hurt = ft.Icon(ft.Icons.PERSONAL_INJURY, size=16, color=DANGER if s.hurt else None)
        self.beatings = ft.Text(s.beatings, size=14)
        self.cigarettes = ft.Text(s.cigarettes, size=14)
        parts: list[ft.Control] = [
            self.avatar,
            ft.Icon(ft.Icons.HARDWARE, size=16),
            self.tunnel,
            self.hurt,
            self.beatings,
            ft.Icon(ft.Icons.SMOKING_ROOMS, size=16),
            self.cigarettes,
        ]
        self.control = cast(
            ft.Semantics,
            tap(
                ft.Row(parts, spacing=4, tight=True, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                lambda e, seat=s.seat: on_tap(seat),
                s.label,
                identifier=f"score-{s.seat}",
                selected=s.turn,
                padding=ft.Padding.symmetric(horizontal=10, vertical=6),
                height=TOUCH + 4,
            ),
        )
        self.box = cast(ft.Container, self.control.content)
        self.avatar_box = cast(ft.Container, cast(ft.Semantics, self.avatar).content)
        self._paint(s.turn)

    def _paint(self, turn: bool) -> None:
        self.box.border = ft.Border.all(3 if turn else 1, ft.Colors.PRIMARY if turn else self.edge)
        self.box.bgcolor = ft.Colors.with_opacity(0.12, self.edge) if turn else ft.Colors.SURFACE_CONTAINER_LOW
        self.avatar_box.border = ring(turn)
        self.control.selected = turn

    def set(self, s: ScoreVM) -> bool:
        """Show `s` (the same seat, name and colour); True when anything shown changed."""
        if s == self.vm:
            return False
        self.vm = s
        self.tunnel.value, self.beatings.value, self.cigarettes.value = s.tunnel, s.beatings, s.cigarettes
        self.hurt.color = DANGER if s.hurt else None
        self.control.label = s.label
        self._paint(s.turn)
        return True


class ScoreStrip:
    """Every player's score on top of the table, wrapped onto as many lines as the panel needs
    (a row scrolled sideways hid the third and fourth players, even on their own turn); a tap
    shows that player's board. Each seat's entry is rewritten in place, so a change sends only
    the entries that moved."""

    def __init__(self, tr: Tr, on_tap: Any) -> None:
        self.on_tap = on_tap
        self.chips: list[ScoreChip] = []
        self.row = ft.Row(spacing=6, run_spacing=6, wrap=True)
        self.control = ft.Semantics(
            identifier="score-strip", container=True, label=tr("ui.score_strip"), content=self.row
        )

    def set(self, scores: list[ScoreVM]) -> list[ft.Control]:
        """Show `scores`; the parts to send: the changed entries, or the row when the players changed."""
        same_players = [(c.vm.seat, c.vm.name, c.vm.color) for c in self.chips] == [
            (s.seat, s.name, s.color) for s in scores
        ]
        if not same_players:
            self.chips = [ScoreChip(s, self.on_tap) for s in scores]
            self.row.controls = [c.control for c in self.chips]
            return [self.control]
        return [chip.control for chip, s in zip(self.chips, scores, strict=True) if chip.set(s)]


NOTHING_SAID = SaidVM()


class StatusBanner:
    """Whose turn or decision it is, in their colour, with the turn, actions left and the target.
    Rewritten in place, and only when what it says changed."""

    def __init__(self) -> None:
        self.title = ft.Text(size=19, weight=ft.FontWeight.BOLD)
        self.cue = ft.Text(size=15, weight=ft.FontWeight.W_600, visible=False)  # what to do now (SaidVM)
        self.turn, self.target = Chip(), Chip(icon=ft.Icons.FLAG)
        self.actions = Chip(icon=ft.Icons.BOLT, bold=True, size=14)
        chips = ft.Row(
            [self.turn.control, self.actions.control, self.target.control], wrap=True, spacing=6, run_spacing=6
        )
        self.box = ft.Container(
            ft.Column([self.title, self.cue, chips], spacing=6, tight=True),
            padding=12,
            width=float("inf"),
            border_radius=ft.BorderRadius.all(12),
        )
        self.control = ft.Semantics(identifier="status", container=True, live_region=True, content=self.box)
        self._key: Any = None

    def set(self, table: TableVM, tr: Tr, deciding_now: bool, said: SaidVM = NOTHING_SAID) -> bool:
        """Show `table`'s headline (`deciding_now`: a decision, not a turn, is awaited), or the one
        `said` for this screen's viewer, with its cue; True when it changed."""
        deciding = table.deciding if table.deciding is not None else table.active
        fill, ink = paint(table.players[deciding].color)
        key = (table.headline, table.round, table.actions_left, deciding, deciding_now, table.target, said)
        if self._key == key:
            return False
        self._key = key
        shade = ft.Colors.with_opacity(0.25, ft.Colors.BLACK)
        self.turn.set(tr("ui.round_number", round=table.round), bgcolor=shade, color=ink)
        self.actions.set(tr("ui.actions_left", count=table.actions_left), bgcolor=shade, color=ink)
        self.actions.control.visible = not deciding_now and table.winner is None  # a won game has no actions left
        self.target.set(tr("ui.target_chip", target=table.target), bgcolor=shade, color=ink)
        self.title.value = said.headline or table.headline
        self.title.color = ink
        self.cue.value = said.cue or ""
        self.cue.color = ink
        self.cue.visible = bool(said.cue)
        self.box.bgcolor = fill
        self.control.label = " ".join(filter(None, (self.title.value, said.cue)))
        return True
