"""The candidate shapes a listing judges, each with its group and aim.

`options.legal_actions` judges these one by one; when `check` refuses a shape for the moment
alone (`options.MOMENT_KEYS`), every other shape of its group would be refused the same way,
so it skips them unjudged. Nothing here decides legality; it only leaves out shapes no `check`
could accept.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Iterator
from itertools import combinations
from typing import Any, TypedDict

from . import actions as A
from .catalog import Catalog
from .core import FLOORS, PRICES
from .engine import admission_of
from .handlers.backgrounds import spent_backgrounds
from .handlers.dig_in import BET_AMOUNTS, BET_NUMBERS, IMPROVE
from .handlers.gangs import accessories_required
from .handlers.places import buy_price, buys_anywhere
from .inputs import WEAPON_SEARCH_CARD, weapon_types
from .state import GameState, Player

Group = tuple[object, ...]
# A candidate with numbers standing for what a listing looks up for every shape: its group
# (`group_of`) and its group aimed at one seat or Place (`aim_of`), what a refusal rules out,
# and its `engine.admission_of`. Numbers, as they are hashed far more often than built.
Listed = tuple[A.Action, int, int, int]

# A full menu (`every_type`) shows the base game's Place actions and those of this game's Places
# wherever the player is.
ALWAYS_SHOWN = frozenset({"dig", "steal_spoon", "sell", "heal", "bribe"})
SIMPLE_PLACE_ACTIONS = {
    "study": A.Study,
    "develop_skills": A.DevelopSkills,
    "plan": A.Plan,
    "workout": A.Workout,
    "steal_bandage": A.StealBandage,
    "rehabilitate": A.Rehabilitate,
}


def group_of(a: A.Action) -> Group:
    """The fields a moment refusal may depend on besides the moment itself (and the target)."""
    return (a.TYPE, a.player, getattr(a, "planning", False), getattr(a, "bandage", None), getattr(a, "trauma", False))


def aim_of(group: Group, a: A.Action) -> Group:
    return (group, getattr(a, "target", None), getattr(a, "to", None))  # `to`: an Exchange's teammate too


_MEMO: dict[tuple[object, ...], Any] = {}
_MAX_MEMO = 50_000  # a bound no game reaches: the keys are catalog values, seats and Places


def _memo(key: tuple[object, ...], build: Callable[..., Any], *args: Any) -> Any:
    """`build(*args)`, built once per key (the arguments, not a closure: this runs per shape)."""
    found = _MEMO.get(key)
    if found is None:
        if len(_MEMO) >= _MAX_MEMO:
            _MEMO.clear()
        found = _MEMO[key] = build(*args)
    return found


_NUMBERS: dict[Hashable, int] = {}  # never cleared, so a number stands for one key: they are few


def _number(key: Hashable) -> int:
    found = _NUMBERS.get(key)
    if found is None:
        found = _NUMBERS[key] = len(_NUMBERS)
    return found


def _listed(a: A.Action) -> Listed:
    group = group_of(a)
    return (a, _number(group), _number(aim_of(group, a)), _number(admission_of(a)))


def _one(make: type[A.Action], fields: dict[str, Any]) -> Listed:
    return _listed(make(**fields))


def _run(build: Callable[..., Iterable[A.Action]], args: tuple[Hashable, ...]) -> tuple[Listed, ...]:
    return tuple(_listed(a) for a in build(*args))


class Shapes:
    """Builds candidates.

    Actions are frozen values, and listings build the same few hundred shapes on every step
    (building one costs microseconds): each shape, with its group and aim, and each run of
    shapes (a `family`), is built once per process, keyed by everything it is built from, so
    a listing builds them all before judging any. With a `budget` (the actions left to the
    turn), the types whose price (or floor) exceeds it are not built; `paying` says whether
    any type with a price is left. One `Shapes` serves every listing with its budget (`for_budget`).
    """

    __slots__ = ("too_dear", "paying")

    def __init__(self, budget: int | None = None) -> None:
        priced = PRICES | FLOORS
        self.too_dear = frozenset() if budget is None else frozenset(k for k, n in priced.items() if n > budget)
        self.paying = not self.too_dear >= priced.keys()

    @staticmethod
    def for_budget(budget: int | None) -> Shapes:
        found: Shapes | None = _BY_BUDGET.get(budget)
        if found is None:
            found = _BY_BUDGET[budget] = Shapes(budget)
        return found

    def __call__(self, make: type[A.Action], **fields: Any) -> tuple[Listed, ...]:
        """One shape (an empty tuple when the turn cannot pay for it)."""
        if make.TYPE in self.too_dear:
            return ()
        # 1 and True are one key: no field takes both (and the actions would compare equal anyway).
        return (_memo((make, *fields.items()), _one, make, fields),)

    def family(self, build: Callable[..., Iterable[A.Action]], *args: Hashable) -> tuple[Listed, ...]:
        """The run of shapes `build(*args)` makes, in order (none when the turn cannot pay for them).

        `build` must make its shapes from its arguments alone: they are its memo's key.
        """
        members: tuple[Listed, ...] = _memo((build, *args), _run, build, args)
        if not members or members[0][0].TYPE in self.too_dear:
            return ()
        return members


_BY_BUDGET: dict[int | None, Shapes] = {}


def deciding_seat(s: GameState) -> int | None:
    if s.winner is not None:
        return None
    return s.pending.player if s.pending is not None else s.active


def _hand_types(p: Player) -> list[str]:
    return sorted(p.hand.known) + (["unknown"] if p.hand.unknown else [])


def _pick_weapons(s: GameState, p: Player, n: int) -> tuple[str, ...]:
    pool: list[str] = []
    for card in sorted(p.hand.known):
        if card in s.catalog.weapons:
            pool += [card] * p.hand.known[card]
    pool += [WEAPON_SEARCH_CARD] * p.hand.unknown
    return tuple(pool[:n]) if len(pool) >= n else tuple(pool + ["knife"] * (n - len(pool)))


def _gang_entries(
    cat: Catalog, seat: int, style: bool, entered: tuple[str, ...], unknown: int, every_type: bool
) -> Iterator[A.Action]:
    """Joining each Gang (and changing style to it where the Place offers that) with the
    Accessories entered in hand first, then cards nobody entered standing for the missing ones;
    only where the hand can hold the Accessories it takes, unless `every_type`."""
    for gid, gang in cat.gangs.items():
        order = sorted(gang.accessories)
        for kind in (A.JoinGang, A.ChangeStyle) if style else (A.JoinGang,):
            count = accessories_required(cat, kind.TYPE, gid)
            known = tuple(c for c in order if c in entered)[:count]
            stand_ins = tuple(c for c in order if c not in known)[: max(0, min(unknown, count - len(known)))]
            cards = known + stand_ins
            if every_type or len(cards) == count:
                yield kind(player=seat, gang=gid, cards=cards)


def answers(s: GameState, seat: int, make: Shapes | None = None) -> list[Listed]:
    """The shapes that answer the pending decision."""
    out: list[Listed] = []
    pending = s.pending
    assert pending is not None
    make = make or Shapes()
    kind = pending.kind
    p = s.players[seat]
    if kind in ("destination", "give_weapon", "kings_choice", "michel_tool", "neutral_destination"):
        for o in pending.options:
            out += make(A.Choose, player=seat, option=o)
    elif kind in ("extortion_answer", "michel_answer"):
        out += make(A.Fight, player=seat)
        if kind == "michel_answer":
            for t in pending.tools or ():
                out += make(A.Cooperate, player=seat, tool=t)
        else:
            out += make(A.Cooperate, player=seat)
    elif kind == "combat":
        cards = weapon_types(s, p)
        if p.ability == "improvisation":
            cards = sorted(set(cards) | set(_hand_types(p)))
        for c in cards:
            out += make(A.Weapon, player=seat, card=c)
        out += make(A.GiveUp, player=seat)
        out += make(A.Bodybuilding, player=seat)
    elif kind == "neutral_move":
        for n in s.neutral_names:
            out += make(A.MoveNeutral, player=seat, neutral=n)
        out += make(A.SkipNeutral, player=seat)
    elif kind == "hand_limit":
        out += make(A.EndTurn, player=seat, discard=tuple(p.hand.entries()[: (pending.discard or 0)]))
    elif kind == "brawl_response":
        for c in weapon_types(s, p):
            out += make(A.BrawlResponse, player=seat, discard=c)
        out += make(A.BrawlResponse, player=seat, discard=None)
    elif kind == "punishment_choice":
        for choice in A.CHOICES:
            out += make(A.PunishmentChoice, player=seat, choice=choice)
    return out


def _every_place_action(s: GameState) -> set[str]:
    """The Place actions a full menu shows: those of this game's Places, and the base game's always."""
    return {kind for info in s.board.places.values() for kind in info.actions} | ALWAYS_SHOWN


def _may_hold(s: GameState, p: Player, card: str, every_type: bool = False) -> bool:
    """Whether the hand can provide the card at all: entered, or a Search card among the unknown ones."""
    return every_type or bool(p.hand.known.get(card)) or (p.hand.unknown > 0 and s.catalog.is_search_card(card))


def turn_candidates(s: GameState, seat: int, every_type: bool = False, make: Shapes | None = None) -> list[Listed]:
    """The active player's possible turn actions: every shape `check` could accept, each built once.

    A Place action (Dig, Sell, Bet, a Heal without a bandage...) is listed only where the Place
    offers it: its check always asks the Place (`place_action`), so elsewhere no shape of it can
    pass; Buy also where I Know a Guy lets it happen away from its Place. Cards the hand cannot
    hold are left out too, and so are Extortions and Steals of players out of reach, Extortions
    without a Weapon in hand, Buys and Bets above the cigarettes and Backgrounds already spent;
    `check` still judges every shape listed. With `every_type` every such shape is kept, so a
    menu can say why it is not possible here. A turn that cannot pay for any priced type
    (`Shapes.paying`) builds only the free ones: Spy, Background reveals, End turn.
    """
    out: list[Listed] = []
    make = make or Shapes()
    p = s.players[seat]
    others = [q for q in s.players if q.seat != seat]
    here = _every_place_action(s) if every_type else s.board.places[p.place].actions
    if make.paying:
        out += _moves_and_cards(s, p, here, every_type, make)
    intimidation: dict[int, tuple[str, ...]] = {}
    armed = make.paying and (every_type or p.hand.unknown > 0 or any(c in s.catalog.weapons for c in p.hand.known))
    for q in others:
        if armed and (every_type or _within_reach(p, q)):
            n = 2 if q.ability == "sturdiness" else 1
            if n not in intimidation:
                intimidation[n] = _pick_weapons(s, p, n)
            out += make.family(_extorts, s.catalog, seat, q.seat, intimidation[n])
        if p.tokens.get("spy"):
            out += make(A.Spy, player=seat, target=q.seat)
    if make.paying:
        out += _place_candidates(s, p, here, every_type, make)
    else:
        out += _background_candidates(s, p, every_type, make)
    over = p.hand.size() - s.hand_limit(p)
    out += make(A.EndTurn, player=seat, discard=tuple(p.hand.entries()[:over]) if over > 0 else None)
    return out


def _moves_and_cards(s: GameState, p: Player, here: Collection[str], every_type: bool, make: Shapes) -> list[Listed]:
    """The turn's shapes before the Extortions: Search, moves, Crafts, Gangs, Action cards."""
    out: list[Listed] = []
    seat = p.seat
    cat = s.catalog
    out += make(A.Search, player=seat)
    out += make(A.Move, player=seat)
    out += make.family(_cautious_moves, seat, p.place, bool(p.tokens.get("planning")), tuple(s.board.places))
    out += make.family(_crafts, cat, seat, bool(p.tokens.get("bandage")))
    entered = tuple(sorted(c for c, n in p.hand.known.items() if n > 0))
    style = "change_style" in here
    out += make.family(_gang_entries, cat, seat, style, entered, p.hand.unknown, every_type)
    nearby = tuple(q.seat for q in s.players if q.seat != seat and q.place == p.place)
    out += make.family(_plays, cat, seat, entered, p.hand.unknown > 0, len(s.players), nearby, every_type)
    return out


def _cautious_moves(seat: int, here: str, planning: bool, places: tuple[str, ...]) -> Iterator[A.Action]:
    for place in places:
        if place != here:
            yield A.CautiousMove(player=seat, to=place)
            if planning:
                yield A.CautiousMove(player=seat, to=place, planning=True)


def _crafts(cat: Catalog, seat: int, bandage: bool) -> Iterator[A.Action]:
    for recipe in cat.recipes:
        yield A.Craft(player=seat, recipe=recipe)
        if bandage:
            yield A.Craft(player=seat, recipe=recipe, bandage=1)


def _plays(
    cat: Catalog,
    seat: int,
    entered: tuple[str, ...],
    unknown: bool,
    seats: int,
    nearby: tuple[int, ...],
    every_type: bool,
) -> Iterator[A.Action]:
    """Each Action card the hand may hold, at every seat if it takes a target; a Steal only at
    the others in the same Place (`nearby`), as its check refuses the rest, unless `every_type`."""
    for card, info in cat.action_cards.items():
        if not (card in entered or unknown):
            continue
        if not info.get("target"):
            yield A.PlayAction(player=seat, card=card)
            continue
        targets = nearby if info["effect"] == "steal_random" and not every_type else range(seats)
        for target in targets:
            yield A.PlayAction(player=seat, card=card, target=target)


def _within_reach(p: Player, q: Player) -> bool:
    """Whether an Extortion of `q` escapes EXT-1's refusals of a target elsewhere or camouflaged."""
    return not q.camouflaged and (q.place == p.place or p.ability == "knife_throwing")


def _extorts(cat: Catalog, seat: int, target: int, weapons: tuple[str, ...]) -> Iterator[A.Action]:
    return (A.Extort(player=seat, target=target, tool=t, weapons=weapons) for t in cat.tools)


def _buys(seat: int, items: tuple[str, ...]) -> Iterator[A.Action]:
    return (A.Buy(player=seat, item=item) for item in items)


def _bets(seat: int, amounts: tuple[int, ...]) -> Iterator[A.Action]:
    return (A.Bet(player=seat, amount=n, number=k) for n in amounts for k in BET_NUMBERS)


def _place_candidates(s: GameState, p: Player, here: Collection[str], every_type: bool, make: Shapes) -> list[Listed]:
    """The turn's shapes after the Extortions: Place actions, Buy, Heal, Background and Gang cards."""
    seat = p.seat
    out = _base_place_candidates(s, p, here, every_type, make)
    out += _background_candidates(s, p, every_type, make)
    out += _ability_candidates(s, p, make)
    if s.warden_module:
        out += make(A.AttractWarden, player=seat)
        if "bribe" in here:
            out += make(A.Bribe, player=seat)
    out += _dig_in_candidates(s, p, here, every_type, make)
    out += _exchange_candidates(s, p, make)
    return out


def _base_place_candidates(
    s: GameState, p: Player, here: Collection[str], every_type: bool, make: Shapes
) -> list[Listed]:
    """The base game's Place actions where the player stands (Dig, Steal a spoon, Sell), Buy, Heal."""
    out: list[Listed] = []
    seat = p.seat
    if "dig" in here:
        for t in s.catalog.tools:
            if _may_hold(s, p, t, every_type):
                out += make(A.Dig, player=seat, tool=t)
    if "steal_spoon" in here:
        out += make(A.StealSpoon, player=seat)
    if "sell" in here:
        printed = None if s.ruleset.sell is not None else 1
        for c in _hand_types(p):
            out += make(A.Sell, player=seat, cards=(c,), cigarettes=printed)
    if "buy" in here or buys_anywhere(s, p):
        items = tuple(item for item in s.ruleset.buy if every_type or buy_price(s, item) <= p.cigarettes)
        out += make.family(_buys, seat, items)
    if "heal" in here:
        out += make(A.Heal, player=seat)
    if p.tokens.get("bandage"):
        out += make(A.Heal, player=seat, bandage=True)
    if p.trauma is not None and "heal" in here:
        out += make(A.Heal, player=seat, trauma=True)
    return out


def _dig_in_candidates(s: GameState, p: Player, here: Collection[str], every_type: bool, make: Shapes) -> list[Listed]:
    """The Dig In Places' actions where the player stands."""
    out: list[Listed] = []
    seat = p.seat
    for kind, simple in SIMPLE_PLACE_ACTIONS.items():
        if kind in here:
            out += make(simple, player=seat)
    if "improve_tool" in here:
        for t in IMPROVE:
            if _may_hold(s, p, t, every_type):
                out += make(A.ImproveTool, player=seat, tool=t)
    if "bet" in here:
        affordable = tuple(n for n in BET_AMOUNTS if every_type or n <= p.cigarettes)
        out += make.family(_bets, seat, affordable)
    if "brawl" in here:
        for w in weapon_types(s, p):
            out += make(A.Brawl, player=seat, weapon=w)
    return out


def _exchange_candidates(s: GameState, p: Player, make: Shapes) -> list[Listed]:
    """Team mode: a card of each kind held, or a cigarette, to each teammate."""
    out: list[Listed] = []
    seat = p.seat
    for q in s.players:
        if q.seat != seat and q.team == p.team and p.team is not None:
            for c in _hand_types(p):
                out += make(A.Exchange, player=seat, to=q.seat, cards=(c,))
            if p.cigarettes:
                out += make(A.Exchange, player=seat, to=q.seat, cigarettes=1)
    return out


class _Reveal(TypedDict):
    player: int
    card: str


def _background_candidates(s: GameState, p: Player, every_type: bool, make: Shapes) -> list[Listed]:
    """Revealing the Background: the one entered, else each one nobody has spent yet (unless `every_type`)."""
    if not p.has_background:
        return []
    out: list[Listed] = []
    cards = [p.background] if p.background is not None else _unspent(s, s.catalog.backgrounds, every_type)
    others = [q.seat for q in s.players if q.seat != p.seat]
    for card in cards:
        base: _Reveal = {"player": p.seat, "card": card}
        if card == "get_out_of_here":
            here = p.place
            elsewhere = next((pid for pid in s.board.places if pid != here and not s.board.places[pid].solitary), here)
            out += make(A.RevealBackground, **base, to=elsewhere)
        elif card in ("nobody_walks_away_from_me", "protection_doesnt_come_cheap"):
            for t in others:
                out += make(A.RevealBackground, **base, target=t)
        elif card == "every_cent_is_good_to_take":
            if s.discard:
                out += make(A.RevealBackground, **base, cards=(s.discard[-1],))
        elif card == "you_shouldnt_look_away":
            n = s.catalog.backgrounds[card]["bonus" if p.gang == "queers" else "amount"]
            out += make(A.RevealBackground, **base, targets=tuple((others * n)[:n]))
        else:
            out += make(A.RevealBackground, **base)
    return out


def _unspent(s: GameState, cards: Iterable[str], every_type: bool) -> list[str]:
    if every_type:
        return list(cards)
    gone = spent_backgrounds(s)
    return [card for card in cards if card not in gone]


def _ability_candidates(s: GameState, p: Player, make: Shapes) -> list[Listed]:
    ability = p.ability
    if ability not in s.catalog.abilities_as_action:
        return []
    out: list[Listed] = []
    if ability in ("master_key", "not_so_free_pass"):
        for t in s.board.places:
            if t != p.place:
                out += make(A.GangAbility, player=p.seat, ability=ability, to=t)
    elif ability == "group_deal":
        printed = None if s.ruleset.sell is not None else 3
        out += make(A.GangAbility, player=p.seat, ability=ability, cigarettes=printed)
    else:
        entries = p.hand.entries()
        shapes = [c for n in (1, 2) for c in sorted(set(combinations(entries, n)))]
        for c in shapes[:8]:
            out += make(A.GangAbility, player=p.seat, ability=ability, cards=tuple(c))
    return out


def reactions(s: GameState, seat: int, every_type: bool = False, make: Shapes | None = None) -> list[Listed]:
    """Out-of-turn actions a seat may have now (Background reveals in or after a combat, Warden reactions)."""
    out: list[Listed] = []
    make = make or Shapes()
    p = s.players[seat]
    own_menu = seat == s.active and s.pending is None  # its turn candidates list every Background already
    after_loss = not own_menu and any(d["loser"] == seat for d in s.defeats)
    if p.has_background and (s.combat is not None or after_loss):
        cards = (
            [p.background]
            if p.background is not None
            else _unspent(
                s, [c for c, info in s.catalog.backgrounds.items() if info["timing"] != "own_turn"], every_type
            )
        )
        for c in cards:
            out += make(A.RevealBackground, player=seat, card=c)
    if s.offence is not None:
        out += make(A.Report, player=seat)
    if p.tokens.get("corruption"):
        out += make(A.Corruption, player=seat, effect="freepass")
        out += make(A.Corruption, player=seat, effect="punishment", target=s.active)
        for t in s.board.places:
            out += make(A.Corruption, player=seat, effect="move", to=t)
    return out


def listed_reactions(s: GameState, seat: int) -> list[Listed]:
    """The out-of-turn shapes worth judging for `seat` now: `reactions`, with no turn nor decision."""
    if deciding_seat(s) is None:
        return []
    return reactions(s, seat, make=Shapes.for_budget(s.actions_left))


def listed(s: GameState, seat: int | None = None, every_type: bool = False) -> list[Listed]:
    """The shapes worth judging for `seat` now, in a fixed order."""
    decider = deciding_seat(s)
    if decider is None:
        return []
    seat = decider if seat is None else seat
    make = Shapes.for_budget(None if every_type else s.actions_left)
    out: list[Listed] = []
    if seat == decider:
        out += answers(s, seat, make) if s.pending is not None else turn_candidates(s, seat, every_type, make)
    out += reactions(s, seat, every_type, make)
    return out
