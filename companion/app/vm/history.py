"""History and statistics: finished games, per-player totals, and the chart series.

The charts plot, for each player, the Tunnel points and the Beatings taken in each finished
game they played (x = the game's position in the history), so a table sees who is getting
better at digging and who keeps getting beaten.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .table import COLORS
from .text import Tr

if TYPE_CHECKING:  # plain data from the store's figures: the store (and SQLAlchemy) is the caller's
    from storage import Statistics


@dataclass
class GameRowVM:
    game_id: str
    title: str  # players
    when: str
    status: str
    winner: str
    detail: str

    @property
    def summary(self) -> str:
        return f"{self.when} · {self.detail}"


@dataclass
class SeriesVM:
    name: str
    points: list[tuple[int, int]]  # (game number, value)
    order: int
    color: str = ""  # the player's standee colour (as in their latest game), one per line
    # For each point, how many lines drawn after this one have a point at the same place: that
    # many rings grow around this line's dot, so players level in a game each keep a visible dot.
    under: list[int] = field(default_factory=list)


# A player's statistics after their name, in the order shown: (heading key, PlayerRowVM field).
STAT_COLUMNS = (
    ("ui.col_games", "games"),
    ("ui.col_wins", "wins"),
    ("ui.col_tunnel", "tunnel"),
    ("ui.col_beatings_taken", "beatings_taken"),
    ("ui.col_beatings_given", "beatings_given"),
    ("ui.col_extortions_won", "extortions_won"),
    ("ui.col_extortions_lost", "extortions_lost"),
)


@dataclass
class PlayerRowVM:
    name: str
    games: int
    wins: int
    tunnel: int
    beatings_taken: int
    beatings_given: int
    extortions_won: int
    extortions_lost: int

    @property
    def stats(self) -> list[tuple[str, int]]:
        """(heading key, value) for each column of `STAT_COLUMNS`."""
        return [(key, getattr(self, name)) for key, name in STAT_COLUMNS]


# The charts plot the latest games only: a line of more points than these is a blur on a phone,
# and every point is a control to send. The players' totals count every game.
CHART_GAMES = 20


@dataclass
class HistoryVM:
    players: list[PlayerRowVM] = field(default_factory=list)
    tunnel: list[SeriesVM] = field(default_factory=list)
    beatings: list[SeriesVM] = field(default_factory=list)
    first: int = 1  # the numbers (oldest first) of the first and the last game the charts plot
    last: int = 0
    max_tunnel: int = 0
    max_beatings: int = 0


def _when(value: Any) -> str:
    if getattr(value, "tzinfo", None) is not None:
        value = value.astimezone()
    return value.strftime("%Y-%m-%d %H:%M") if hasattr(value, "strftime") else str(value or "")


def winner_text(tr: Tr, winner: Any) -> str:
    if winner is None:
        return ""
    if winner in ("a", "b"):
        return tr(f"ui.team_{winner}")
    return str(winner)


def history_view(stats: Statistics, latest: int = CHART_GAMES) -> HistoryVM:
    """Every player's totals, and the chart lines of the `latest` finished games."""
    vm = HistoryVM(last=len(stats.games))
    vm.first = max(1, vm.last - latest + 1)
    for p in stats.players:
        vm.players.append(PlayerRowVM(p.name, *(getattr(p, name) for _, name in STAT_COLUMNS)))
    series_t: dict[str, SeriesVM] = {}
    series_b: dict[str, SeriesVM] = {}
    order = {p.name.casefold(): i for i, p in enumerate(stats.players)}
    colours: dict[str, str] = {}
    for number, game in enumerate(stats.games[vm.first - 1 :], start=vm.first):
        for seat in game.seats:
            key = " ".join(seat.name.split()).casefold()
            index = order.get(key, len(order))
            series_t.setdefault(key, SeriesVM(seat.name, [], index)).points.append((number, seat.tunnel))
            series_b.setdefault(key, SeriesVM(seat.name, [], index)).points.append((number, seat.beatings_taken))
            if seat.colour in COLORS:
                colours[key] = seat.colour
            vm.max_tunnel = max(vm.max_tunnel, seat.tunnel)
            vm.max_beatings = max(vm.max_beatings, seat.beatings_taken)
    vm.tunnel = sorted(series_t.values(), key=lambda s: s.order)
    vm.beatings = sorted(series_b.values(), key=lambda s: s.order)
    _colour(vm.tunnel, colours)
    _colour(vm.beatings, colours)
    _stack(vm.tunnel)
    _stack(vm.beatings)
    return vm


def _stack(series: list[SeriesVM]) -> None:
    """Where lines meet at a point (two players level in a game), the line drawn first gets the
    widest dot and each later one a smaller dot on top of it: rings, one per player."""
    later: dict[tuple[int, int], int] = {}
    for s in reversed(series):
        s.under = [later.get(point, 0) for point in s.points]
        for point in s.points:
            later[point] = later.get(point, 0) + 1


def _colour(series: list[SeriesVM], colours: dict[str, str]) -> None:
    """Each line in its player's colour; a player whose colour another line already has (two
    players' favourite over the games) takes the first colour nobody has."""
    used: set[str] = set()
    for s in series:
        wanted = colours.get(" ".join(s.name.split()).casefold())
        s.color = wanted if wanted and wanted not in used else next((c for c in COLORS if c not in used), COLORS[0])
        used.add(s.color)


def games_view(infos: Sequence[Any], tr: Tr) -> list[GameRowVM]:
    """The stored games as rows, the most recently played first."""
    rows = []
    for g in infos:
        players = tr.join(g.players)
        when = tr.digits(_when(getattr(g, "finished", None) or getattr(g, "updated", None) or g.created))
        winner = winner_text(tr, g.winner)
        detail = (
            tr("ui.game_detail_finished", winner=winner) if winner else tr("ui.game_detail_active", count=g.version)
        )
        rows.append(GameRowVM(g.id, players, when, g.status, winner, detail))
    return sorted(rows, key=lambda row: row.when, reverse=True)
