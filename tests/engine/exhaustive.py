"""The exhaustive candidate listing `options` used before it generated only possible actions.

Kept as a test oracle: every shape it tries is judged by `check`, so the legal actions it finds
are the truth the faster generator in `companion.rules.options` must reproduce.
"""

from __future__ import annotations

from itertools import combinations

from companion.rules import actions as A
from companion.rules.core import judging
from companion.rules.engine import check
from companion.rules.state import GameState, Player

WEAPON_SEARCH_CARD = "blade"


def deciding_seat(s: GameState) -> int | None:
    if s.winner is not None:
        return None
    return s.pending.player if s.pending is not None else s.active


def _hand_types(p: Player) -> list[str]:
    return sorted(p.hand.known) + (["unknown"] if p.hand.unknown else [])


def _weapons(s: GameState, p: Player) -> list[str]:
    known = [c for c in sorted(p.hand.known) if c in s.catalog.weapons]
    if p.hand.unknown and WEAPON_SEARCH_CARD not in known:
        known.append(WEAPON_SEARCH_CARD)
    return known


def _pick_weapons(s: GameState, p: Player, n: int) -> tuple[str, ...]:
    pool: list[str] = []
    for card in sorted(p.hand.known):
        if card in s.catalog.weapons:
            pool += [card] * p.hand.known[card]
    pool += [WEAPON_SEARCH_CARD] * p.hand.unknown
    return tuple(pool[:n]) if len(pool) >= n else tuple(pool + ["knife"] * (n - len(pool)))


def _accessories_for(s: GameState, p: Player, allowed, count: int) -> tuple[str, ...]:
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
        cards = _weapons(s, p)
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
        return [A.BrawlResponse(player=seat, discard=c) for c in _weapons(s, p)] + [
            A.BrawlResponse(player=seat, discard=None)
        ]
    if kind == "punishment_choice":
        return [A.PunishmentChoice(player=seat, choice=c) for c in A.CHOICES]
    return []


def _turn_candidates(s: GameState, seat: int) -> list[A.Action]:
    p = s.players[seat]
    cat = s.catalog
    others = [q for q in s.players if q.seat != seat]
    out: list[A.Action] = [A.Search(player=seat), A.Move(player=seat)]
    for place in s.board.places:
        if place != p.place:
            out.append(A.CautiousMove(player=seat, to=place))
            if p.tokens.get("planning"):
                out.append(A.CautiousMove(player=seat, to=place, planning=True))
    for recipe in cat.recipes:
        out.append(A.Craft(player=seat, recipe=recipe))
        if p.tokens.get("bandage"):
            out.append(A.Craft(player=seat, recipe=recipe, bandage=1))
    style = any("change_style" in info.actions for info in s.board.places.values())
    for gid, gang in cat.gangs.items():
        out.append(A.JoinGang(player=seat, gang=gid, cards=_accessories_for(s, p, gang.accessories, gang.required)))
        if style:
            out.append(
                A.ChangeStyle(
                    player=seat, gang=gid, cards=_accessories_for(s, p, gang.accessories, max(1, gang.required - 1))
                )
            )
    for card, info in cat.action_cards.items():
        if not (p.hand.count(card) or p.hand.unknown):
            continue
        if info.get("target"):
            out += [A.PlayAction(player=seat, card=card, target=q.seat) for q in s.players]
        else:
            out.append(A.PlayAction(player=seat, card=card))
    for q in others:
        weapons = _pick_weapons(s, p, 2 if q.ability == "sturdiness" else 1)
        out += [A.Extort(player=seat, target=q.seat, tool=t, weapons=weapons) for t in cat.tools]
        if p.tokens.get("spy"):
            out.append(A.Spy(player=seat, target=q.seat))
    out += [A.Dig(player=seat, tool=t) for t in cat.tools]
    out.append(A.StealSpoon(player=seat))
    printed = None if s.ruleset.sell is not None else 1
    out += [A.Sell(player=seat, cards=(c,), cigarettes=printed) for c in _hand_types(p)]
    out += [A.Buy(player=seat, item=item) for item in s.ruleset.buy]
    out.append(A.Heal(player=seat))
    if p.tokens.get("bandage"):
        out.append(A.Heal(player=seat, bandage=True))
    if p.trauma is not None:
        out.append(A.Heal(player=seat, trauma=True))
    out += _background_candidates(s, p)
    out += _ability_candidates(s, p)
    if s.warden_module:
        out += [A.AttractWarden(player=seat), A.Bribe(player=seat)]
    offered = {a for info in s.board.places.values() for a in info.actions}  # Place actions of this game
    simple = {
        "study": A.Study,
        "develop_skills": A.DevelopSkills,
        "plan": A.Plan,
        "workout": A.Workout,
        "steal_bandage": A.StealBandage,
        "rehabilitate": A.Rehabilitate,
    }
    out += [make(player=seat) for kind, make in simple.items() if kind in offered]
    if "improve_tool" in offered:
        out += [A.ImproveTool(player=seat, tool=t) for t in ("pickaxe", "shovel")]
    if "bet" in offered:
        out += [A.Bet(player=seat, amount=n, number=k) for n in (1, 2, 3) for k in range(2, 7)]
    if "brawl" in offered:
        out += [A.Brawl(player=seat, weapon=w) for w in _weapons(s, p)]
    for q in others:
        if q.team == p.team and p.team is not None:
            out += [A.Exchange(player=seat, to=q.seat, cards=(c,)) for c in _hand_types(p)]
            if p.cigarettes:
                out.append(A.Exchange(player=seat, to=q.seat, cigarettes=1))
    over = p.hand.size() - s.hand_limit(p)
    out.append(A.EndTurn(player=seat, discard=tuple(p.hand.entries()[:over]) if over > 0 else None))
    return out


def _background_candidates(s: GameState, p: Player) -> list[A.Action]:
    if not p.has_background:
        return []
    cards = [p.background] if p.background is not None else list(s.catalog.backgrounds)
    others = [q.seat for q in s.players if q.seat != p.seat]
    here = p.place
    elsewhere = next((pid for pid in s.board.places if pid != here and not s.board.places[pid].solitary), here)
    out: list[A.Action] = []
    for card in cards:
        base = dict(player=p.seat, card=card)
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
    return [
        A.GangAbility(player=p.seat, ability=ability, cards=tuple(c))
        for n in (1, 2)
        for c in sorted(set(combinations(entries, n)))
    ][:8]


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


def candidates(s: GameState, seat: int | None = None) -> list[A.Action]:
    decider = deciding_seat(s)
    if decider is None:
        return []
    seat = decider if seat is None else seat
    out: list[A.Action] = []
    if seat == decider:
        out += _answers(s, seat) if s.pending is not None else _turn_candidates(s, seat)
    out += _reactions(s, seat)
    return out


def exhaustive_legal_actions(s: GameState, seat: int | None = None) -> list[A.Action]:
    """Every candidate the old generator tried that `check` accepts, in its order."""
    with judging(s):
        return [a for a in candidates(s, seat) if not check(s, a)]


def exhaustive_legal_reactions(s: GameState, seat: int) -> list[A.Action]:
    """The out-of-turn candidates alone that `check` accepts, in order."""
    if deciding_seat(s) is None:
        return []
    with judging(s):
        return [a for a in _reactions(s, seat) if not check(s, a)]
