"""The win screen: who escaped, and everyone's final standing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules import GameState

from .table import seat_color
from .text import Tr


@dataclass
class StandingVM:
    rank: int
    name: str
    color: str
    tunnel: int
    beatings: int
    cigarettes: int
    place: str
    winner: bool
    team: str | None = None


@dataclass
class WinVM:
    winner: str
    headline: str
    target: int
    standings: list[StandingVM] = field(default_factory=list)
    teams: list[tuple[str, int]] = field(default_factory=list)


def win_view(state: GameState, tr: Tr) -> WinVM | None:
    if state.winner is None:
        return None
    target = state.target()
    if isinstance(state.winner, str):
        winner = tr(f"ui.team_{state.winner}")
        headline = tr("ui.win_team", team=winner, target=target)
    else:
        winner = state.players[state.winner].name
        headline = tr("ui.win_player", player=winner, target=target)

    def won(p: Any) -> bool:  # a player of `state` (the engine's API names no player type)
        return bool(p.seat == state.winner if isinstance(state.winner, int) else p.team == state.winner)

    ordered = sorted(state.players, key=lambda p: (not won(p), -p.tunnel, p.beatings, -p.cigarettes, p.seat))
    standings = []
    rank = 0
    previous = None
    for i, p in enumerate(ordered):
        key = (won(p), p.tunnel)
        if key != previous:
            rank = i + 1
            previous = key
        standings.append(
            StandingVM(
                rank,
                p.name,
                seat_color(state, p.seat),
                p.tunnel,
                p.beatings,
                p.cigarettes,
                tr.name("place", p.place),
                won(p),
                tr(f"ui.team_{p.team}") if p.team else None,
            )
        )
    teams = [(tr(f"ui.team_{t}"), state.team_tunnel(t)) for t in ("a", "b")] if state.team_mode else []
    return WinVM(winner, headline, target, standings, teams)
