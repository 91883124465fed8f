"""Random self-play through the public engine API, checking invariants after every action.

The simulated table plays like hurried players: it prefers actions that move the game toward
a Tunnel (Dig, Tools, Heal) but tries anything, legal or not. Every attempt goes through
`apply`, so the engine judges it (`check` first, as for any action) and applies it only when
legal; accepted actions are then checked against the invariants.
A broken invariant stops the run with the seed and the action that broke it.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import chain, islice
from time import perf_counter
from typing import Any, TextIO

from companion.rules import IllegalAction, apply, invariant_problems, new_game, step
from companion.rules import actions as A
from companion.rules.listing import answers
from companion.rules.state import GameState, Player

MAX_ACTIONS_PER_GAME = 20_000
ATTEMPTS_PER_DECISION = 60


class BrokenInvariant(AssertionError):
    pass


@dataclass
class Totals:
    games: int = 0
    actions: int = 0
    rejected: int = 0
    seconds: float = 0.0  # the whole run: random players, engine and invariant checks
    engine_seconds: float = 0.0  # inside the engine's `apply` (validation and application)

    def report(self) -> str:
        rate = self.actions / self.seconds if self.seconds else 0.0
        games = self.games / self.seconds if self.seconds else 0.0
        engine = self.actions / self.engine_seconds if self.engine_seconds else 0.0
        return (
            f"{self.games} games, {self.actions} accepted actions ({self.rejected} refused attempts) "
            f"in {self.seconds:.2f} s: {games:.1f} games/s, {rate:,.0f} actions/s "
            f"(invariants checked after every action); engine alone: {engine:,.0f} validated-and-applied "
            f"actions/s"
        )


MODULE_CHOICES = ("base", "full", "any")
DIG_IN_PLACES = ("gambling_cells", "workshop", "gymnasium", "laundry", "library", "psychiatric_ward")


def random_config(rng: random.Random, players: int | None, seed: int, modules: str = "base") -> dict[str, Any]:
    """A configuration for a simulated game.

    base: the base game with Michel and Michelle; full: the Warden, all six Dig In Places and both
    neutrals; any: a random legal combination (Places, Warden, Team mode, 0-2 neutrals, and a random
    player count when `players` is None).
    """
    players = players or rng.randint(2, 6)
    config: dict[str, Any] = {
        "players": [{"name": f"Player {i + 1}"} for i in range(players)],
        "seed": seed,
        "first_player": rng.randrange(players),
    }
    if modules == "base":
        config["modules"] = {"neutrals": 2}
        return config
    if modules == "full":
        config["modules"] = {"neutrals": 2, "warden": True, "places": list(DIG_IN_PLACES)}
        return config
    team = players in (4, 6) and rng.random() < 0.3
    places = [p for p in DIG_IN_PLACES if rng.random() < 0.5 and not (team and p == "gambling_cells")]
    config["modules"] = {
        "neutrals": rng.choice((0, 1, 2)),
        "team": team,
        "warden": rng.random() < 0.6,
        "places": places,
    }
    return config


# How much the simulated players like each answer to a pending decision.
ANSWER_WEIGHTS = {"weapon": 4, "give_up": 1, "cooperate": 2, "fight": 1, "skip_neutral": 2, "move_neutral": 1}


# Candidate actions with their weights; each is built only when drawn.
Weighted = list[tuple[float, Callable[[], A.Action]]]


def _built(action: A.Action) -> A.Action:
    """An answer listed already, as the builder a weighted pick calls."""
    return action


class RandomTable:
    """Chooses plausible actions for whoever must act; the engine decides what is legal."""

    def __init__(self, rng: random.Random, state: GameState) -> None:
        self.rng = rng
        places = state.board.places
        self.places = list(places)
        self.homes = {
            team: [pid for pid, i in places.items() if "dig" in i.actions and i.team in (None, team)]
            for team in (None, "a", "b")
        }
        self.healers = [pid for pid, i in places.items() if "heal" in i.actions]
        self.spoons = [pid for pid, i in places.items() if "steal_spoon" in i.actions]

    def weighted(self, s: GameState, p: Player) -> Weighted:
        """What a hurried player might try here; mostly sensible, sometimes not (the engine judges).

        The draw reads the list in order, so the parts always come in this order: ending the turn
        and a Background, then (with actions left) the way to a Tunnel, the cards, the others."""
        out = self._anytime(s, p)
        if s.actions_left == 0:
            return out
        self._toward_tunnel(s, p, out)
        self._with_cards(s, p, out)
        self._with_others(s, p, out)
        return out

    def _anytime(self, s: GameState, p: Player) -> Weighted:
        """Ending the turn (likely once no action is left) and, rarely, a random Background."""
        seat, rng, cat = p.seat, self.rng, s.catalog
        size = p.hand.size()
        return [
            (
                8 if s.actions_left == 0 else 0.3,
                lambda: A.EndTurn(
                    player=seat, discard=tuple(p.hand.entries()[: max(0, size - s.hand_limit(p))]) or None
                ),
            ),
            (
                0.2,
                lambda: A.RevealBackground(
                    player=seat,
                    card=rng.choice(list(cat.backgrounds)),
                    target=rng.randrange(len(s.players)),
                    to=rng.choice(self.places),
                    targets=tuple(rng.randrange(len(s.players)) for _ in range(2)),
                ),
            ),
        ]

    def _toward_tunnel(self, s: GameState, p: Player, out: Weighted) -> None:
        """What gets a Tunnel dug: digging at home, going there, healing, a spoon, searching."""
        seat, rng = p.seat, self.rng
        here_actions = s.board.places[p.place].actions
        left = s.actions_left
        tools = [t for t in ("shovel", "pickaxe", "spoon") if t in p.hand.known]
        home = self.homes[p.team]
        if tools and p.place in home:
            out.append((60, lambda: A.Dig(player=seat, tool=tools[0])))
        if tools and p.place not in home:
            out.append((8, lambda: A.Move(player=seat, to=rng.choice(home))))
            if left >= 2:
                out.append((8, lambda: A.CautiousMove(player=seat, to=rng.choice(home))))
        if p.beatings:
            if "heal" in here_actions or p.tokens.get("bandage"):
                out.append((40, lambda: A.Heal(player=seat, bandage="heal" not in here_actions)))
            elif left >= 2:
                out.append((15 * p.beatings, lambda: A.CautiousMove(player=seat, to=self.healers[0])))
        if not tools:
            if "steal_spoon" in here_actions:
                out.append((20, lambda: A.StealSpoon(player=seat)))
            elif self.spoons:
                out.append((5, lambda: A.Move(player=seat, to=self.spoons[0])))
        if not s.flags.searched and s.board.search[p.place]:
            out.append((4, lambda: A.Search(player=seat)))
        out.append((3, lambda: A.Move(player=seat)))

    def _with_cards(self, s: GameState, p: Player, out: Weighted) -> None:
        """Trading and using cards: buy, sell, craft, a Gang to join, an Action card, a Gang card."""
        seat, rng, cat = p.seat, self.rng, s.catalog
        here_actions = s.board.places[p.place].actions
        size = p.hand.size()
        if "buy" in here_actions and p.cigarettes >= 2:
            out.append((10, lambda: A.Buy(player=seat, item=rng.choice(list(s.ruleset.buy)))))
        if "sell" in here_actions and size:
            out.append(
                (
                    4,
                    lambda: A.Sell(
                        player=seat,
                        cards=tuple(rng.sample(p.hand.entries(), min(size, rng.randint(1, 2)))),
                        cigarettes=rng.randint(1, 4) if s.ruleset.sell is None else None,
                    ),
                )
            )
        if not p.beatings and size >= 2:
            out.append((3, lambda: A.Craft(player=seat, recipe=rng.choice(list(cat.recipes)))))
        if s.actions_left >= 2:
            out.append(
                (
                    1,
                    lambda: A.CautiousMove(
                        player=seat, to=rng.choice(self.places), planning=bool(p.tokens.get("planning"))
                    ),
                )
            )
        if size >= 2:
            out.append(
                (
                    1,
                    lambda: A.JoinGang(
                        player=seat,
                        gang=(g := rng.choice(list(cat.gangs))),
                        cards=tuple(rng.sample(sorted(cat.gangs[g].accessories), cat.gangs[g].required)),
                    ),
                )
            )
        if size:
            out.append(
                (
                    0.5,
                    lambda: A.PlayAction(
                        player=seat, card=rng.choice(list(cat.action_cards)), target=rng.randrange(len(s.players))
                    ),
                )
            )
        ability = p.ability
        if ability is not None and ability in cat.abilities_as_action:
            out.append(
                (
                    1,
                    lambda: A.GangAbility(
                        player=seat,
                        ability=ability,
                        to=rng.choice(self.places),
                        cards=tuple(p.hand.entries()[:1]),
                        cigarettes=2 if s.ruleset.sell is None else None,
                    ),
                )
            )

    def _with_others(self, s: GameState, p: Player, out: Weighted) -> None:
        """Players here and the Warden, the Dig In Places' actions, a Spy token."""
        seat, rng, cat = p.seat, self.rng, s.catalog
        here_actions = s.board.places[p.place].actions
        here = [q.seat for q in s.players if q.place == p.place and q.seat != seat]
        if here and not s.flags.extorted:
            out.append(
                (
                    2,
                    lambda: A.Extort(
                        player=seat,
                        target=rng.choice(here),
                        tool=rng.choice(list(cat.tools)),
                        weapons=("knife",) if p.hand.count("knife") else ("blade",),
                    ),
                )
            )
        if s.warden is not None:
            out.append((0.5, lambda: A.AttractWarden(player=seat)))
            if "bribe" in here_actions:
                out.append((3, lambda: A.Bribe(player=seat)))
        if s.team_mode and here:
            out.append(
                (
                    1,
                    lambda: A.Exchange(
                        player=seat,
                        to=rng.choice(here),
                        cigarettes=min(1, p.cigarettes),
                        cards=tuple(p.hand.entries()[:1]) or None,
                    ),
                )
            )
        for kind in (
            "study",
            "develop_skills",
            "plan",
            "workout",
            "steal_bandage",
            "rehabilitate",
            "improve_tool",
            "bet",
            "brawl",
        ):
            if kind in here_actions:
                out.append((3, partial(self.dig_in_action, s, p, kind)))
        if p.tokens.get("spy"):
            out.append((0.5, lambda: A.Spy(player=seat, target=rng.randrange(len(s.players)))))

    def dig_in_action(self, s: GameState, p: Player, kind: str) -> A.Action:
        rng = self.rng
        if kind == "improve_tool":
            return A.ImproveTool(player=p.seat, tool=rng.choice(("pickaxe", "shovel")))
        if kind == "bet":
            return A.Bet(player=p.seat, amount=rng.randint(1, 3), number=rng.randint(2, 6))
        if kind == "brawl":
            return A.Brawl(player=p.seat, weapon=rng.choice(("knife", "blade")))
        return A.ACTION_TYPES[kind](player=p.seat)

    def reaction(self, s: GameState) -> A.Action | None:
        """Other players sometimes report the Warden or play Corruption."""
        if not s.warden_module:
            return None
        rng = self.rng
        if s.offence is not None and s.pending is None and rng.random() < 0.5:
            others = [q.seat for q in s.players if q.seat != s.offence.offender]
            return A.Report(player=rng.choice(others))
        holders = [q.seat for q in s.players if q.tokens.get("corruption")]
        if holders and s.occasion is not None and rng.random() < 0.2:
            return A.Corruption(
                player=rng.choice(holders),
                effect=rng.choice(("freepass", "punishment", "move")),
                to=rng.choice(self.places),
            )
        return None

    def choices(self, s: GameState) -> Iterator[A.Action]:
        """Candidate actions for the deciding player, most wanted first (randomised by weight)."""
        weighted: Weighted
        if s.pending is not None:
            weighted = [(ANSWER_WEIGHTS.get(a.TYPE, 1), partial(_built, a)) for a, *_ in answers(s, s.pending.player)]
        else:
            weighted = self.weighted(s, s.players[s.active])
        return self.draw_without_replacement(weighted)

    def draw_without_replacement(self, weighted: Weighted) -> Iterator[A.Action]:
        """Weighted picks, one at a time: usually the first one is accepted and the rest never built."""
        random_ = self.rng.random
        while weighted:
            total = sum(w for w, _ in weighted)
            mark = random_() * total
            index = 0
            while index < len(weighted) - 1:
                mark -= weighted[index][0]
                if mark < 0:
                    break
                index += 1
            yield weighted.pop(index)[1]()


def random_actions(config: dict[str, Any], seed: int, most: int) -> tuple[list[dict[str, Any]], bool]:
    """Up to `most` accepted actions of a random game (as JSON), and whether it was won: the
    test and benchmark games, without the simulator's bookkeeping."""
    state = new_game(config)
    table = RandomTable(random.Random(seed), state)
    actions: list[dict[str, Any]] = []
    while state.winner is None and len(actions) < most:
        for action in table.choices(state):
            if step(state, action).accepted:
                actions.append(action.to_json())
                break
    return actions, state.winner is not None


def play_game(config: dict[str, Any], rng: random.Random, totals: Totals, check_invariants: bool = True) -> GameState:
    state = new_game(config)
    table = RandomTable(rng, state)
    for _ in range(MAX_ACTIONS_PER_GAME):
        if state.winner is not None:
            break
        reaction = table.reaction(state)
        tried = chain([reaction] if reaction is not None else [], table.choices(state))
        for attempt in islice(tried, ATTEMPTS_PER_DECISION):
            started = perf_counter()
            try:
                apply(state, attempt)
            except IllegalAction:
                totals.engine_seconds += perf_counter() - started
                totals.rejected += 1
                continue
            totals.engine_seconds += perf_counter() - started
            totals.actions += 1
            if check_invariants:
                problems = invariant_problems(state)
                if problems:
                    raise BrokenInvariant(
                        f"seed {config['seed']}: after {json.dumps(attempt.to_json())} "
                        f"(step {state.step}): {'; '.join(problems)}"
                    )
            break
        else:
            raise BrokenInvariant(
                f"seed {config['seed']}: nobody could act at step {state.step} "
                f"(pending {state.pending}): the table is stuck"
            )
    else:
        raise BrokenInvariant(f"seed {config['seed']}: no winner after {MAX_ACTIONS_PER_GAME} actions")
    winner = state.winner
    score = state.team_tunnel(winner) if isinstance(winner, str) else state.players[winner].tunnel
    if score < state.target():
        raise BrokenInvariant(f"seed {config['seed']}: winner {winner} has {score} < target {state.target()}")
    totals.games += 1
    return state


def simulate(games: int, players: int | None, seed: int, modules: str = "base", out: TextIO = sys.stdout) -> Totals:
    totals = Totals()
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(games):
        game_seed = rng.randrange(2**62)
        config = random_config(random.Random(game_seed), players, game_seed, modules)
        play_game(config, random.Random(game_seed), totals)
    totals.seconds = time.perf_counter() - start
    print(totals.report(), file=out)
    return totals
