"""What can be done now: concrete candidate actions, judged by `check` itself.

`legal_actions` keeps the candidates `check` accepts; `action_options` groups them by action
type and, for a type with no legal candidate, keeps the violations of a representative one, so
a UI can show every action with its reason. One code path judges both: nothing here decides
legality on its own.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, TypedDict

from companion.i18n import DEFAULT_LANGUAGE, catalog, placeholders

from . import actions as A
from .core import judging
from .engine import check, step
from .errors import Violation
from .events import MichelCard, Roll
from .handlers.dig_in import BET_AMOUNTS, BET_NUMBERS, IMPROVE
from .handlers.gangs import accessories_required
from .inputs import WEAPON_SEARCH_CARD, action_cost, die_destinations, weapon_types
from .state import GameState, Player

__all__ = [
    "WEAPON_SEARCH_CARD",
    "ActionOption",
    "Preview",
    "action_options",
    "candidates",
    "legal_actions",
    "preview",
    "weapon_types",
]


@dataclass
class ActionOption:
    type: str
    legal: list[A.Action] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)  # why a representative one is refused
    cost: int = 0  # actions of the turn it takes (the dearest legal shape; 0: free)
    faces: dict[int, tuple[str, ...]] = field(default_factory=dict)  # a Simple move: die face -> Places

    @property
    def available(self) -> bool:
        return bool(self.legal)


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


def _accessories_for(s: GameState, p: Player, allowed: Collection[str], count: int) -> tuple[str, ...]:
    known = [c for c in sorted(allowed) if p.hand.count(c)]
    rest = [c for c in sorted(allowed) if c not in known]
    return tuple((known + rest[: max(0, min(p.hand.unknown, count - len(known)))])[:count])


def _answers(s: GameState, seat: int) -> list[A.Action]:
    pending = s.pending
    assert pending is not None
    kind = pending.kind
    p = s.players[seat]
    if kind in ("destination", "give_weapon", "kings_choice", "michel_tool", "neutral_destination"):
        return [A.Choose(player=seat, option=o) for o in pending.options]
    if kind in ("extortion_answer", "michel_answer"):
        out: list[A.Action] = [A.Fight(player=seat)]
        if kind == "michel_answer":
            out += [A.Cooperate(player=seat, tool=t) for t in (pending.tools or ())]
        else:
            out.append(A.Cooperate(player=seat))
        return out
    if kind == "combat":
        cards = weapon_types(s, p)
        if p.ability == "improvisation":
            cards = sorted(set(cards) | set(_hand_types(p)))
        out = [A.Weapon(player=seat, card=c) for c in cards]
        out += [A.GiveUp(player=seat), A.Bodybuilding(player=seat)]
        return out
    if kind == "neutral_move":
        return [A.MoveNeutral(player=seat, neutral=n) for n in s.neutral_names] + [A.SkipNeutral(player=seat)]
    if kind == "hand_limit":
        return [A.EndTurn(player=seat, discard=tuple(p.hand.entries()[: (pending.discard or 0)]))]
    if kind == "brawl_response":
        out = [A.BrawlResponse(player=seat, discard=c) for c in weapon_types(s, p)]
        return out + [A.BrawlResponse(player=seat, discard=None)]
    if kind == "punishment_choice":
        return [A.PunishmentChoice(player=seat, choice=c) for c in A.CHOICES]
    return []


# A Place action (Dig, Sell, Bet, a plain Heal...) is generated only where the Place offers it:
# its check always asks the Place (`place_action`), so elsewhere no shape of it can pass. Buy is
# generated everywhere: a flag lets it happen away from its Place. A full menu (`every_type`)
# shows the base game's Place actions and those of this game's Places wherever the player is.
ALWAYS_SHOWN = frozenset({"dig", "steal_spoon", "sell", "heal", "bribe"})
SIMPLE_PLACE_ACTIONS = {
    "study": A.Study,
    "develop_skills": A.DevelopSkills,
    "plan": A.Plan,
    "workout": A.Workout,
    "steal_bandage": A.StealBandage,
    "rehabilitate": A.Rehabilitate,
}


def _every_place_action(s: GameState) -> set[str]:
    """The Place actions a full menu shows: those of this game's Places, and the base game's always."""
    return {kind for info in s.board.places.values() for kind in info.actions} | ALWAYS_SHOWN


def _may_hold(s: GameState, p: Player, card: str, every_type: bool = False) -> bool:
    """Whether the hand can provide the card at all: entered, or a Search card among the unknown ones."""
    return every_type or bool(p.hand.known.get(card)) or (p.hand.unknown > 0 and s.catalog.is_search_card(card))


def _turn_candidates(s: GameState, seat: int, every_type: bool = False) -> list[A.Action]:
    """The active player's possible turn actions: every shape `check` could accept, each built once.

    Only shapes that cannot pass are left out (Place actions this Place does not offer, cards the
    hand cannot hold); `check` still judges every one that is listed. With `every_type` the Place
    actions of the whole game are kept too, so a menu can say why they are not possible here.
    """
    p = s.players[seat]
    cat = s.catalog
    here = _every_place_action(s) if every_type else s.board.places[p.place].actions
    others = [q for q in s.players if q.seat != seat]
    hand_types = _hand_types(p)
    weapons = weapon_types(s, p)
    planning = bool(p.tokens.get("planning"))
    bandage = bool(p.tokens.get("bandage"))
    out: list[A.Action] = [A.Search(player=seat), A.Move(player=seat)]
    for place in s.board.places:
        if place != p.place:
            out.append(A.CautiousMove(player=seat, to=place))
            if planning:
                out.append(A.CautiousMove(player=seat, to=place, planning=True))
    for recipe in cat.recipes:
        out.append(A.Craft(player=seat, recipe=recipe))
        if bandage:
            out.append(A.Craft(player=seat, recipe=recipe, bandage=1))
    style = "change_style" in here
    for gid, gang in cat.gangs.items():
        for make in (A.JoinGang, A.ChangeStyle):
            if make is A.ChangeStyle and not style:
                continue
            count = accessories_required(s, make.TYPE, gid)
            cards = _accessories_for(s, p, gang.accessories, count)
            if every_type or len(cards) == count:  # else the hand cannot hold the Accessories it takes
                out.append(make(player=seat, gang=gid, cards=cards))
    for card, info in cat.action_cards.items():
        if not (p.hand.count(card) or p.hand.unknown):
            continue
        if info.get("target"):
            out += [A.PlayAction(player=seat, card=card, target=q.seat) for q in s.players]
        else:
            out.append(A.PlayAction(player=seat, card=card))
    intimidation = {n: _pick_weapons(s, p, n) for n in (1, 2)}
    for q in others:
        chosen = intimidation[2 if q.ability == "sturdiness" else 1]
        out += [A.Extort(player=seat, target=q.seat, tool=t, weapons=chosen) for t in cat.tools]
        if p.tokens.get("spy"):
            out.append(A.Spy(player=seat, target=q.seat))
    if "dig" in here:
        out += [A.Dig(player=seat, tool=t) for t in cat.tools if _may_hold(s, p, t, every_type)]
    if "steal_spoon" in here:
        out.append(A.StealSpoon(player=seat))
    if "sell" in here:
        printed = None if s.ruleset.sell is not None else 1
        out += [A.Sell(player=seat, cards=(c,), cigarettes=printed) for c in hand_types]
    out += [A.Buy(player=seat, item=item) for item in s.ruleset.buy]
    if "heal" in here:
        out.append(A.Heal(player=seat))
    if bandage:
        out.append(A.Heal(player=seat, bandage=True))
    if p.trauma is not None:
        out.append(A.Heal(player=seat, trauma=True))
    out += _background_candidates(s, p)
    out += _ability_candidates(s, p)
    if s.warden_module:
        out.append(A.AttractWarden(player=seat))
        if "bribe" in here:
            out.append(A.Bribe(player=seat))
    out += [make(player=seat) for kind, make in SIMPLE_PLACE_ACTIONS.items() if kind in here]
    if "improve_tool" in here:
        out += [A.ImproveTool(player=seat, tool=t) for t in IMPROVE if _may_hold(s, p, t, every_type)]
    if "bet" in here:
        out += [A.Bet(player=seat, amount=n, number=k) for n in BET_AMOUNTS for k in BET_NUMBERS]
    if "brawl" in here:
        out += [A.Brawl(player=seat, weapon=w) for w in weapons]
    for q in others:
        if q.team == p.team and p.team is not None:
            out += [A.Exchange(player=seat, to=q.seat, cards=(c,)) for c in hand_types]
            if p.cigarettes:
                out.append(A.Exchange(player=seat, to=q.seat, cigarettes=1))
    over = p.hand.size() - s.hand_limit(p)
    out.append(A.EndTurn(player=seat, discard=tuple(p.hand.entries()[:over]) if over > 0 else None))
    return out


class _Reveal(TypedDict):
    player: int
    card: str


def _background_candidates(s: GameState, p: Player) -> list[A.Action]:
    if not p.has_background:
        return []
    cards = [p.background] if p.background is not None else list(s.catalog.backgrounds)
    others = [q.seat for q in s.players if q.seat != p.seat]
    here = p.place
    elsewhere = next((pid for pid in s.board.places if pid != here and not s.board.places[pid].solitary), here)
    out: list[A.Action] = []
    for card in cards:
        base: _Reveal = {"player": p.seat, "card": card}
        if card == "get_out_of_here":
            out.append(A.RevealBackground(**base, to=elsewhere))
        elif card in ("nobody_walks_away_from_me", "protection_doesnt_come_cheap"):
            out += [A.RevealBackground(**base, target=t) for t in others]
        elif card == "every_cent_is_good_to_take":
            if s.discard:
                out.append(A.RevealBackground(**base, cards=(s.discard[-1],)))
        elif card == "you_shouldnt_look_away":
            n = s.catalog.backgrounds[card]["bonus" if p.gang == "queers" else "amount"]
            out.append(A.RevealBackground(**base, targets=tuple((others * n)[:n])))
        else:
            out.append(A.RevealBackground(**base))
    return out


def _ability_candidates(s: GameState, p: Player) -> list[A.Action]:
    ability = p.ability
    if ability not in s.catalog.abilities_as_action:
        return []
    if ability in ("master_key", "not_so_free_pass"):
        return [A.GangAbility(player=p.seat, ability=ability, to=t) for t in s.board.places if t != p.place]
    if ability == "group_deal":
        printed = None if s.ruleset.sell is not None else 3
        return [A.GangAbility(player=p.seat, ability=ability, cigarettes=printed)]
    entries = p.hand.entries()
    shapes: list[A.Action] = [
        A.GangAbility(player=p.seat, ability=ability, cards=tuple(c))
        for n in (1, 2)
        for c in sorted(set(combinations(entries, n)))
    ]
    return shapes[:8]


def _reactions(s: GameState, seat: int) -> list[A.Action]:
    """Out-of-turn actions a seat may have now (Background reveals in or after a combat, Warden reactions)."""
    p = s.players[seat]
    out: list[A.Action] = []
    own_menu = seat == s.active and s.pending is None  # its turn candidates list every Background already
    after_loss = not own_menu and any(d["loser"] == seat for d in s.defeats)
    if p.has_background and (s.combat is not None or after_loss):
        cards = (
            [p.background]
            if p.background is not None
            else [c for c, info in s.catalog.backgrounds.items() if info["timing"] != "own_turn"]
        )
        out += [A.RevealBackground(player=seat, card=c) for c in cards]
    if s.offence is not None:
        out.append(A.Report(player=seat))
    if p.tokens.get("corruption"):
        out += [
            A.Corruption(player=seat, effect="freepass"),
            A.Corruption(player=seat, effect="punishment", target=s.active),
        ]
        out += [A.Corruption(player=seat, effect="move", to=t) for t in s.board.places]
    return out


def candidates(s: GameState, seat: int | None = None, every_type: bool = False) -> list[A.Action]:
    """The shapes worth judging for `seat` now (see `_turn_candidates` for `every_type`)."""
    decider = deciding_seat(s)
    if decider is None:
        return []
    seat = decider if seat is None else seat
    out: list[A.Action] = []
    if seat == decider:
        out += _answers(s, seat) if s.pending is not None else _turn_candidates(s, seat, every_type)
    out += _reactions(s, seat)
    return out


# Refusals that depend only on the moment (who acts, where, when, the actions left) and on the
# fields of `_group`: once one shape of a group gets one, every other shape of the group would.
MOMENT_KEYS = frozenset(
    {
        "v.no_actions_left",
        "v.wrong_place",
        "v.action_not_in_game",
        "v.extort_once",
        "v.no_search_here",
        "v.no_extort_here",
        "v.no_craft_here",
        "v.no_join_gang_here",
        "v.no_search_after_solitary",
        "v.no_extort_after_solitary",
        "v.no_craft_after_solitary",
        "v.no_join_gang_after_solitary",
        "v.trauma_no_extort",
        "v.trauma_no_join_gang",
        "v.trauma_no_action_cards",
        "v.trauma_no_buy",
        "v.beaten_no_craft",
    }
)
TARGET_KEYS = frozenset({"v.target_not_here"})  # the same, for every shape aimed at the same seat


def _group(a: A.Action) -> tuple[object, ...]:
    """The fields a moment refusal may depend on besides the moment itself (and the target)."""
    return (a.TYPE, a.player, getattr(a, "planning", False), getattr(a, "bandage", None), getattr(a, "trauma", False))


def legal_actions(s: GameState, seat: int | None = None) -> list[A.Action]:
    """Concrete actions `check` accepts now for `seat` (default: whoever must decide).

    Every listed action passed `check`; a shape is skipped unjudged only when another shape of
    its group was refused for the moment alone (`MOMENT_KEYS`, `TARGET_KEYS`), which it shares.
    """
    out: list[A.Action] = []
    refused: set[tuple[object, ...]] = set()
    with judging(s):
        for a in candidates(s, seat):
            group = _group(a)
            aimed = (group, getattr(a, "target", None), getattr(a, "to", None))  # `to`: an Exchange's teammate
            if group in refused or aimed in refused:
                continue
            found = check(s, a)
            if not found:
                out.append(a)
                continue
            keys = {v.key for v in found}
            if keys & MOMENT_KEYS:
                refused.add(group)
            elif keys & TARGET_KEYS:
                refused.add(aimed)
    return out


def _general(chosen: list[Violation], refused: list[list[Violation]]) -> list[Violation]:
    """The representative's reasons, said of every choice when every choice fails alike.

    A type is refused as a whole when each candidate (each Gang, each target...) is refused; a
    reason naming one of them ("Joining the Bikers takes...", "Nicholas is not here") is then
    said without it, with the catalog's general wording (`<key>.any`) and the parameters that
    every candidate shares.
    """
    if len(refused) < 2:
        return chosen
    out = []
    for v in chosen:
        alike = [next((w for w in found if (w.rule, w.key) == (v.rule, v.key)), None) for found in refused]
        general = f"{v.key}.any"
        if (
            any(w is None for w in alike)
            or general not in catalog(DEFAULT_LANGUAGE)
            or all(w.params == v.params for w in alike if w is not None)
        ):
            out.append(v)
            continue
        shared = {k: x for k, x in v.params.items() if all(w is not None and w.params.get(k) == x for w in alike)}
        if not placeholders(catalog(DEFAULT_LANGUAGE)[general]) <= set(shared):
            out.append(v)
            continue
        out.append(Violation(v.rule, general, shared, v.forceable))
    return out


def action_options(s: GameState, seat: int | None = None) -> list[ActionOption]:
    """Every action type worth showing now, legal or not, with the reason when it is not."""
    grouped: dict[str, ActionOption] = {}
    refused: dict[str, list[list[Violation]]] = {}
    shapes: dict[str, list[A.Action]] = {}
    with judging(s):
        for a in candidates(s, seat, every_type=True):
            option = grouped.setdefault(a.TYPE, ActionOption(a.TYPE))
            shapes.setdefault(a.TYPE, []).append(a)
            found = check(s, a)
            if not found:
                option.legal.append(a)
                continue
            refused.setdefault(a.TYPE, []).append(found)
            if not option.violations or len(found) < len(option.violations):
                option.violations = found  # the candidate closest to legal explains best
    for option in grouped.values():
        if option.legal:
            option.violations = []
        else:
            option.violations = _general(option.violations, refused.get(option.type, []))
        _add_inputs(s, option, shapes[option.type])
    return list(grouped.values())


def _add_inputs(s: GameState, option: ActionOption, shapes: list[A.Action]) -> None:
    """The option's price and, for a Simple move, the die table (see `inputs`)."""
    costs: dict[tuple[Any, ...], int] = {}
    for a in option.legal or shapes:
        group = _group(a)
        if group not in costs:
            costs[group] = action_cost(s, a)
    option.cost = max(costs.values(), default=0)
    if option.type == "move" and s.pending is None and shapes[0].player == s.active:
        option.faces = die_destinations(s, shapes[0].player)


@dataclass(frozen=True)
class Preview:
    """What recording an action would do, as the engine answers it on a copy of the game."""

    accepted: bool
    offence: str | None  # the rule of the Warden offence it would be (WARD-2), else None
    winner: int | str | None  # the seat (or team) it would make win, else None
    michel_draws: int = 0  # Michel cards it would draw from the deck (the table did not list them)
    rolls: int = 0  # dice it would roll (those a table with a real die enters with it)


def preview(s: GameState, a: A.Action) -> Preview:
    """A dry run of `a`: the same seeded chance, on a copy, so the game itself is untouched and
    the app can warn before an offence or a win without knowing the rules that cause them."""
    answer = step(s.copy(), a)
    if not answer.accepted:
        return Preview(False, None, None)
    drawn = sum(1 for e in answer.events if isinstance(e, MichelCard) and e.source != "table")
    rolls = sum(1 for e in answer.events if isinstance(e, Roll))
    return Preview(True, answer.offence.rule if answer.offence else None, answer.winner, drawn, rolls)
