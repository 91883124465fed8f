"""History and statistics: what finished games say about each player.

Per seat, a finished game yields its Tunnel points (from the final state), the Beatings the
player took and gave, and the extortions they won and lost (from the engine's recorded
events). These are computed once, when a game finishes, and kept on the seat rows: the
statistics screen then reads a few rows per game instead of replaying whole logs.

Who gave a Beating is read from the events around it: the winner of the combat it ends
(`combat`, `combat_helper`), the player who started the Brawl (`brawl`), the player who
revealed the Background it names (the catalog's Backgrounds), the player who played
Corruption for the Punishment.
Beatings from Michel and Michelle count as taken, given by nobody.

An extortion counts for both sides: the extorter wins it when the target cooperates or loses
the combat, and loses it when the target wins the combat. Michel's and Michelle's extortions
count for the player they extort (cooperating with a neutral is losing).

Players are the same person across games when their names match ignoring case and spaces.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion.rules import GameState, load_catalog

COUNTERS = ("beatings_taken", "beatings_given", "extortions_won", "extortions_lost")


@dataclass(frozen=True)
class SeatStats:
    seat: int
    name: str
    colour: str | None
    team: str | None
    won: bool
    tunnel: int
    beatings_taken: int
    beatings_given: int
    extortions_won: int
    extortions_lost: int


@dataclass(frozen=True)
class GameStats:
    """One finished game, for the history list and the per-game charts."""

    game_id: str
    finished: datetime
    ruleset: str
    winner: str | None  # a player's name, or a team id ("a" / "b") in Team mode
    seats: tuple[SeatStats, ...]


@dataclass(frozen=True)
class PlayerStats:
    name: str
    games: int
    wins: int
    tunnel: int  # Tunnel points dug, summed over the games
    beatings_taken: int
    beatings_given: int
    extortions_won: int
    extortions_lost: int


@dataclass(frozen=True)
class Statistics:
    players: tuple[PlayerStats, ...]  # most wins first, then most games, then by name
    games: tuple[GameStats, ...]  # finished games, oldest first

    def player(self, name: str) -> PlayerStats | None:
        key = same_person(name)
        return next((p for p in self.players if same_person(p.name) == key), None)


def same_person(name: str) -> str:
    return " ".join(name.split()).casefold()


def tally(answers: Iterable[dict[str, Any]], seats: int) -> list[dict[str, int]]:
    """The event counters per seat, from the answers of the actions in effect, in order."""
    counts = [dict.fromkeys(COUNTERS, 0) for _ in range(seats)]

    def bump(seat: object, counter: str, n: int = 1) -> None:
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats:
            counts[seat][counter] += n

    extortion: tuple[int, int] | None = None  # (extorter, target) of the player extortion under way
    combat_winner: int | None = None  # who beats the loser of the last combat between players
    brawler = revealer = punisher = None
    backgrounds = load_catalog().backgrounds
    for answer in answers:
        for event in answer.get("events", ()):
            kind = event.get("type")
            if kind == "extort":
                extortion = (event.get("player"), event.get("target"))
            elif kind == "must_cooperate" and extortion is not None:
                bump(extortion[0], "extortions_won")
                bump(extortion[1], "extortions_lost")
                extortion = None
            elif kind == "cooperate":
                if event.get("neutral") is not None:
                    bump(event.get("player"), "extortions_lost")
                else:
                    bump(event.get("to"), "extortions_won")
                    bump(event.get("player"), "extortions_lost")
                    extortion = None
            elif kind == "combat_end":
                winner, loser = event.get("winner"), event.get("loser")
                if event.get("neutral") is not None:
                    bump(winner, "extortions_won")
                    bump(loser, "extortions_lost")
                    combat_winner = None
                else:
                    bump(winner, "extortions_won")
                    bump(loser, "extortions_lost")
                    combat_winner = winner
                    extortion = None
            elif kind == "brawl":
                brawler = event.get("player")
            elif kind == "background":
                revealer = event.get("player")
            elif kind == "corruption" and event.get("effect") == "punishment":
                punisher = event.get("player")
            elif kind == "beating":
                taken = event.get("count", 0)
                victim = event.get("player")
                bump(victim, "beatings_taken", taken)
                why = event.get("why")
                giver = (
                    revealer
                    if why in backgrounds
                    else {
                        "combat": combat_winner,
                        "combat_helper": combat_winner,
                        "brawl": brawler,
                        "punishment": punisher,
                    }.get(why)
                )
                if giver != victim:
                    bump(giver, "beatings_given", taken)
    return counts


def seat_statistics(state: GameState, answers: Iterable[dict[str, Any]]) -> list[SeatStats]:
    """The per-seat figures of a finished game: `state` is its final engine state."""
    counts = tally(answers, len(state.players))
    winner = state.winner
    return [
        SeatStats(
            seat=p.seat,
            name=p.name,
            colour=p.color,
            team=p.team,
            won=winner == p.seat if isinstance(winner, int) else winner is not None and winner == p.team,
            tunnel=p.tunnel,
            **counts[p.seat],
        )
        for p in state.players
    ]


def winner_label(state: GameState) -> str | None:
    """What the games list shows as the winner: a player's name, or the team id in Team mode."""
    winner = state.winner
    if winner is None:
        return None
    return winner if isinstance(winner, str) else state.players[winner].name


def summarise(games: Sequence[GameStats]) -> Statistics:
    """Add up the finished games per player (names matched ignoring case and spacing)."""
    totals: dict[str, list[Any]] = {}  # person -> [latest spelling, games, wins, tunnel, *COUNTERS]
    for game in games:
        for s in game.seats:
            person = same_person(s.name)
            row = totals.get(person)
            if row is None:
                row = totals[person] = [s.name, 0, 0, 0, 0, 0, 0, 0]
            row[0] = s.name
            row[1] += 1
            row[2] += s.won
            row[3] += s.tunnel
            row[4] += s.beatings_taken
            row[5] += s.beatings_given
            row[6] += s.extortions_won
            row[7] += s.extortions_lost
    players = sorted(
        (PlayerStats(*row) for row in totals.values()), key=lambda p: (-p.wins, -p.games, same_person(p.name))
    )
    return Statistics(players=tuple(players), games=tuple(games))
