"""Background cards (BG): revealed once per game, free, at the moment their text allows.

The app may not know a player's hidden Background: revealing names it, and the engine checks
that nobody else already showed (or holds) that card. The Gang bonus applies when the player
belongs to the card's Gang at the moment of the reveal.
"""

from __future__ import annotations

from collections.abc import Callable
from math import ceil
from typing import Any

from .. import events as ev
from ..actions import Choose, RevealBackground
from ..core import Ctx, applier, checker, choice, hand_card_problems, hard, violation
from ..errors import Violation
from ..hand import UNKNOWN
from ..ops import (
    add_beatings,
    discard_cards,
    discard_trauma,
    draw_search,
    gain_cigarettes,
    move_card,
    neutrals_end_move,
    place_standee,
    remove_beatings,
    steal_random,
    take_from_deck,
    take_from_discard,
    take_from_pile,
    to_supply,
)
from ..state import GameState, Pending, Player
from .basic import check_entered_cards
from .combat import as_played, ask_weapon, combat_fresh, defeat_of, end_combat, is_weapon
from .common import checked, valid_seat
from .movement import check_destination, place_not_in_game

LOSE = "lose"
# What a revealed Background does: (state, ctx, its player, the action, bonus?, the card's amount).
Effect = Callable[[GameState, Ctx, Player, RevealBackground, bool, int], None]
# What a Background's reveal is checked against: (state, its player, the action, bonus?, the card's
# amount, the violations found).
Check = Callable[[GameState, Player, RevealBackground, bool, int, list[Violation]], None]


def spent(s: GameState, card: str) -> bool:
    return card in spent_backgrounds(s)


def spent_backgrounds(s: GameState) -> set[str]:
    """The Background cards gone for good: revealed by anybody, or discarded."""
    return {card for p in s.players for card in p.revealed}.union(s.background_discard)


def has_bonus(s: GameState, p: Player, card: str) -> bool:
    gang: str | None = s.catalog.backgrounds[card]["gang"]
    return p.gang == gang


def amount(s: GameState, p: Player, card: str) -> int:
    info = s.catalog.backgrounds[card]
    n: int = info["bonus"] if has_bonus(s, p, card) and "bonus" in info else info.get("amount", 0)
    return n


def _timing(s: GameState, p: Player, card: str, out: list[Violation]) -> None:
    timing = s.catalog.backgrounds[card]["timing"]
    c = s.combat
    if timing == "own_turn":
        if p.seat != s.active:
            out.append(hard("TURN-2", "v.free_action_own_turn", player=s.players[s.active].name))
        elif s.pending is not None:
            out.append(
                hard("TURN-5", "v.decision_pending", player=s.players[s.pending.player].name, decision=s.pending.kind)
            )
        return
    if timing == "combat_lost" and defeat_of(s, p.seat) is not None:
        return
    in_combat = c is not None and c.started and s.pending is not None and s.pending.kind == "combat"
    if c is not None and in_combat and p.seat in (c.attacker, c.defender):  # a fighter
        if timing == "combat_start" and combat_fresh(c):
            return
        if timing == "combat_start_defender" and p.seat == c.defender and combat_fresh(c):
            if c.attacker is not None:
                return
            # Michel and Michelle hold no hand (MICH-1): no attacker to hand over a Weapon.
            out.append(hard("BG", "v.bg_no_attacker_hand", background=card, neutral=c.neutral))
            return
    out.append(hard("BG", f"v.bg_timing_{timing}", background=card))  # its effect needs that moment


@checker("reveal_background")
def check_reveal(s: GameState, a: RevealBackground, out: list[Violation]) -> None:
    """Whether the card may be revealed now, then what its own text asks of the action (CHECKS)."""
    p = s.players[a.player]
    card = a.card
    if not _revealable(s, p, card, out):
        return
    _timing(s, p, card, out)
    bonus = has_bonus(s, p, card)
    n = amount(s, p, card)
    check = CHECKS.get(card)
    if check is not None:
        check(s, p, a, bonus, n, out)


def _revealable(s: GameState, p: Player, card: str, out: list[Violation]) -> bool:
    """The player still has a Background to show, and it may be this card: not gone, not another
    one already named for them, not one somebody else holds."""
    if not p.has_background:
        out.append(hard("SUP-4", "v.bg_used"))
        return False
    if spent(s, card):
        out.append(hard("BG", "v.bg_gone", background=card))
        return False
    if p.background is not None and p.background != card:
        out.append(hard("BG", "v.bg_is_other", background=p.background))
        return False
    holder = next((q for q in s.players if q.background == card and q.seat != p.seat), None)
    if holder is not None:
        out.append(hard("BG", "v.bg_held", background=card, player=holder.name))
        return False
    return True


def _check_get_out(s: GameState, p: Player, a: RevealBackground, bonus: bool, n: int, out: list[Violation]) -> None:
    if a.to is None:
        out.append(hard("BG", "v.destination_needed"))
    for to in (a.to, a.own_to):
        if to is not None and to in s.board.places and s.board.places[to].solitary:
            out.append(violation("BG", "v.bg_not_solitary", background=a.card))
        elif to is not None and to not in s.board.places:
            out.append(place_not_in_game(s, to))
    if a.own_to is not None and not bonus:
        out.append(violation("BG", "v.bg_needs_bonus", background=a.card))
    if a.own_to is not None:
        check_destination(s, p.seat, a.own_to, out, "BG")


def _check_other_target(
    s: GameState, p: Player, a: RevealBackground, bonus: bool, n: int, out: list[Violation]
) -> None:
    if valid_seat(s, a.target, out, "BG") and a.target == p.seat:
        out.append(violation("BG", "v.target_self"))


def _check_strong_bones(
    s: GameState, p: Player, a: RevealBackground, bonus: bool, n: int, out: list[Violation]
) -> None:
    if a.trauma and p.trauma is None:
        out.append(hard("PSY-2", "v.no_trauma"))
    elif not a.trauma and p.beatings == 0:
        out.append(violation("BG", "v.nothing_to_heal"))


def _check_cheating(s: GameState, p: Player, a: RevealBackground, bonus: bool, n: int, out: list[Violation]) -> None:
    if len(a.die) > n:
        out.append(violation("BG", "v.too_many_dice", count=len(a.die)))


def _check_take_it_all(s: GameState, p: Player, a: RevealBackground, bonus: bool, n: int, out: list[Violation]) -> None:
    if a.cards is not None:
        if len(a.cards) > max(0, n - p.hand.size()):
            out.append(hard("BG", "v.too_many_drawn", count=max(0, n - p.hand.size()), place=p.place))
        check_entered_cards(s, a.cards, out, "BG")
    if a.discard:
        if not bonus:
            out.append(violation("BG", "v.bg_needs_bonus", background=a.card))
        after_draw = p.hand.copy()  # the cards to discard are judged against the hand after the draw
        entered = list(a.cards or ())
        for drawn in entered:
            after_draw.add(drawn)
        after_draw.unknown += max(0, min(n - p.hand.size(), s.deck + len(s.discard)) - len(entered))
        missing = after_draw.shortfall(a.discard, s.catalog.is_search_card)
        if missing:
            out.append(hard("HAND-1", "v.hand_missing", card=missing[0], player=p.name))


def _check_every_cent(s: GameState, p: Player, a: RevealBackground, bonus: bool, n: int, out: list[Violation]) -> None:
    wanted = list(a.cards or ())
    if not 1 <= len(wanted) <= n:
        out.append(violation("BG", "v.bg_card_count", count=n, background=a.card))
    pool = list(s.discard)
    for c in wanted:
        if c not in pool:
            out.append(hard("BG", "v.not_in_discard", card=c))
            break
        pool.remove(c)


def _check_look_away(s: GameState, p: Player, a: RevealBackground, bonus: bool, n: int, out: list[Violation]) -> None:
    targets = list(a.targets or ())
    if len(targets) != n:
        out.append(violation("BG", "v.bg_target_count", count=n, background=a.card))
    for t in targets:
        if not valid_seat(s, t, out, "BG"):
            break
        if t == p.seat:
            out.append(violation("BG", "v.target_self"))
            break


def _check_fix_that(s: GameState, p: Player, a: RevealBackground, bonus: bool, n: int, out: list[Violation]) -> None:
    out += hand_card_problems(s, p, ["spoon"])
    product = "shovel" if bonus else "pickaxe"
    if s.piles[product] < 1:
        out.append(hard("SUP-2", "v.pile_short", card=product, count=1, left=0))


# What a Background's own text asks of its reveal, for the cards that ask anything.
CHECKS: dict[str, Check] = {
    "get_out_of_here": _check_get_out,
    "nobody_walks_away_from_me": _check_other_target,
    "protection_doesnt_come_cheap": _check_other_target,
    "i_got_strong_bones_they_say": _check_strong_bones,
    "me_cheating_never": _check_cheating,
    "i_will_take_it_all_for_free": _check_take_it_all,
    "every_cent_is_good_to_take": _check_every_cent,
    "you_shouldnt_look_away": _check_look_away,
    "i_can_fix_that": _check_fix_that,
}


@applier("reveal_background")
def apply_reveal(s: GameState, a: RevealBackground, ctx: Ctx) -> None:
    p = s.players[a.player]
    card = a.card
    bonus = has_bonus(s, p, card)
    n = amount(s, p, card)
    p.has_background = False
    p.background = card
    p.revealed.append(card)
    ctx.emit(ev.Background(player=a.player, background=card, bonus=bonus))
    EFFECTS[card](s, ctx, p, a, bonus, n)


def _too_fast(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    s.actions_left += n


def _get_out(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    """Every other standee, the neutrals' and the Warden's too, goes to one Place. From rules
    version 3 a neutral it moved ends a move there (MICH-3): it extorts every player there, those
    already in that Place and the revealer included, not only the players the card brought."""
    to = a.to
    assert to is not None  # check_reveal refuses this card without a destination
    moved = [neutral for neutral, at in s.neutrals.items() if at != to]
    for neutral in s.neutrals:
        s.neutrals[neutral] = to
        ctx.emit(ev.NeutralMove(neutral=neutral, to=to, why="get_out_of_here"))
    if s.warden is not None:
        s.warden = to
        ctx.emit(ev.WardenMove(to=to, why="get_out_of_here"))
    for q in s.players:
        if q.seat != p.seat and q.place != to:
            place_standee(s, ctx, q.seat, to, "get_out_of_here")
    if a.own_to is not None:
        place_standee(s, ctx, p.seat, a.own_to, "get_out_of_here")
    if s.rules_version >= 3:
        neutrals_end_move(s, ctx, moved, to)


def _turf(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    home = f"cell_block_{p.team}" if s.team_mode else s.board.first("cell_block")
    assert home is not None  # every board has a Cell Block (BASE_ROLES)
    if p.place != home:
        place_standee(s, ctx, p.seat, home, "this_is_my_turf")
    if bonus:
        for q in s.players:
            if q.seat != p.seat and q.place == home:
                place_standee(s, ctx, q.seat, s.board.solitary, "this_is_my_turf")
        if s.rules_version >= 3:
            _turf_other_standees(s, ctx, home)


def _turf_other_standees(s: GameState, ctx: Ctx, home: str) -> None:
    """The bonus sends "all other standees" in the Cell Block to Solitary: from rules version 3
    the neutrals' and the Warden's too, as "Get Out of Here!" moves every standee; a neutral
    sent there ends a move in Solitary (MICH-3), unless the Warden came along (MICH-8)."""
    solitary = s.board.solitary
    moved = [neutral for neutral, at in s.neutrals.items() if at == home]
    for neutral in moved:
        s.neutrals[neutral] = solitary
        ctx.emit(ev.NeutralMove(neutral=neutral, to=solitary, why="this_is_my_turf"))
    if s.warden == home:
        s.warden = solitary
        ctx.emit(ev.WardenMove(to=solitary, why="this_is_my_turf"))
    neutrals_end_move(s, ctx, moved, solitary)


def _everything(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    """After a lost combat: the Beatings it gave are taken back; with the bonus, the card it cost too."""
    d = defeat_of(s, p.seat)
    assert d is not None  # check_reveal: this card's timing is a lost combat
    s.defeats.remove(d)
    if d["beatings"]:
        remove_beatings(s, ctx, p.seat, d["beatings"], "is_that_everything_youve_got")
    if bonus:
        _card_back(s, ctx, d)


def _card_back(s: GameState, ctx: Ctx, d: dict[str, Any]) -> None:
    """The winner takes no card: a choice still open is dropped, a card already taken comes back."""
    seat, card, why = d["loser"], d["card"], "is_that_everything_youve_got"
    pend = s.pending
    if pend is not None and (
        pend.kind == "kings_choice" and pend.from_seat == seat or pend.kind == "michel_tool" and pend.player == seat
    ):
        s.pending = None
    elif card is None:
        return
    elif d["winner"] is not None:
        holder = s.players[d["winner"]].hand
        if holder.count(card) or card == UNKNOWN and holder.unknown:
            move_card(s, ctx, d["winner"], seat, card, why)
    elif card in s.piles:
        take_from_pile(s, ctx, seat, card, 1, why)
    elif card in s.discard:
        take_from_discard(s, ctx, seat, card, why)


def _cut_you(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    c = s.combat
    assert c is not None and c.attacker is not None  # check_reveal: the defender, as a player's combat starts
    if bonus:
        c.knife_bonus.append(p.seat)
    attacker = s.players[c.attacker]
    # A card nobody entered may be a Blade, unless every Blade is already seen (SUP-1).
    may_be_blade = attacker.hand.unknown > 0 and not hand_card_problems(s, attacker, ["blade"])
    weapons = sorted(
        {card for card in attacker.hand.known if is_weapon(s, card)} | ({"blade"} if may_be_blade else set())
    )
    if not weapons:
        s.pending = None
        end_combat(s, ctx, loser=c.attacker)
        return
    s.pending = Pending("give_weapon", c.attacker, weapons + [LOSE], to=p.seat)


@choice("give_weapon")
def choose_given_weapon(s: GameState, a: Choose, ctx: Ctx) -> None:
    c = s.combat
    assert c is not None and c.attacker is not None  # asked by _cut_you, in that combat
    s.pending = None
    if a.option == LOSE:
        end_combat(s, ctx, loser=c.attacker)
        return
    move_card(s, ctx, c.attacker, c.defender, as_played(a.option), "i_will_cut_you_with_your_own_blade")
    ask_weapon(s)


def _strong_bones(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    if a.trauma:
        discard_trauma(s, ctx, p.seat, "i_got_strong_bones_they_say")
    else:
        remove_beatings(s, ctx, p.seat, n, "i_got_strong_bones_they_say")


def _believe(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    take_from_pile(s, ctx, p.seat, "knife", n, "you_really_believe_it_will_do")


def _no_to_me(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    s.flags.must_cooperate = ("pickaxe", "shovel") if bonus else ("pickaxe",)


def _nobody_walks(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    target = checked(a.target)
    add_beatings(s, ctx, target, 1, "nobody_walks_away_from_me")
    if bonus:
        steal_random(s, ctx, target, p.seat, "nobody_walks_away_from_me")


def _know_a_guy(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    s.flags.buy_anywhere = True
    if bonus:
        s.flags.buy_discount = n


def _protection(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    target = checked(a.target)
    victim = s.players[target]
    taken = victim.cigarettes if bonus else ceil(victim.cigarettes / 2)
    gain_cigarettes(s, ctx, target, -taken, "protection_doesnt_come_cheap")
    gain_cigarettes(s, ctx, p.seat, taken, "protection_doesnt_come_cheap")


def _cheating(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    total = sum(ctx.roll(p.seat, "me_cheating_never") for _ in range(n))
    gain_cigarettes(s, ctx, p.seat, total, "me_cheating_never")


def _take_it_all(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    draw_search(s, ctx, p.seat, max(0, n - p.hand.size()), a.cards or (), why="i_will_take_it_all_for_free")
    if bonus and a.discard:
        discard_cards(s, ctx, p.seat, a.discard, "i_will_take_it_all_for_free")
        draw_search(s, ctx, p.seat, len(a.discard), why="i_will_take_it_all_for_free")


def _every_cent(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    for card in a.cards or ():
        take_from_discard(s, ctx, p.seat, card, "every_cent_is_good_to_take")


def _look_away(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    for target in a.targets or ():
        steal_random(s, ctx, target, p.seat, "you_shouldnt_look_away")


def _fix_that(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    p.hand.remove("spoon")
    to_supply(s, "spoon")
    ctx.emit(ev.Discard(player=p.seat, cards=("spoon",), why="i_can_fix_that"))
    take_from_pile(s, ctx, p.seat, "shovel" if bonus else "pickaxe", 1, "i_can_fix_that")


def _never_liked_rules(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    s.flags.cell_block_crafts = ("pickaxe", "shovel") if bonus else ("pickaxe",)


def _friends(s: GameState, ctx: Ctx, p: Player, a: RevealBackground, bonus: bool, n: int) -> None:
    wanted = ["links", "pike"] + (["links", "container"] if bonus else [])
    for card in wanted:
        take_from_deck(s, ctx, p.seat, card, "i_have_friends_in_the_workshop")


EFFECTS: dict[str, Effect] = {
    "too_fast_for_you": _too_fast,
    "get_out_of_here": _get_out,
    "this_is_my_turf": _turf,
    "is_that_everything_youve_got": _everything,
    "i_will_cut_you_with_your_own_blade": _cut_you,
    "i_got_strong_bones_they_say": _strong_bones,
    "you_really_believe_it_will_do": _believe,
    "dont_think_about_saying_no_to_me": _no_to_me,
    "nobody_walks_away_from_me": _nobody_walks,
    "i_know_a_guy": _know_a_guy,
    "protection_doesnt_come_cheap": _protection,
    "me_cheating_never": _cheating,
    "i_will_take_it_all_for_free": _take_it_all,
    "every_cent_is_good_to_take": _every_cent,
    "you_shouldnt_look_away": _look_away,
    "i_can_fix_that": _fix_that,
    "i_never_liked_rules": _never_liked_rules,
    "i_have_friends_in_the_workshop": _friends,
}
