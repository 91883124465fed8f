"""State changes shared by many rules: moving cards, tokens, Beatings and standees.

Every function keeps the conservation invariants (a card leaves one place only to enter
another) and reports what happened as events.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import events as ev
from .core import Ctx
from .hand import UNKNOWN
from .picks import pick_card
from .state import GameState


def to_supply(s: GameState, card: str, n: int = 1) -> None:
    """A discarded card goes back where it belongs: its board pile, or the Search discard."""
    if card in s.piles:
        s.piles[card] += n
    else:
        s.discard.extend([card] * n)


def discard_cards(s: GameState, ctx: Ctx, seat: int, cards: Iterable[str], why: str) -> list[str]:
    hand = s.players[seat].hand
    out: list[str] = []
    for card in cards:
        hand.remove(card)
        to_supply(s, card)
        out.append(card)
    if out:
        ctx.emit(ev.Discard(player=seat, cards=tuple(out), why=why))
    return out


def take_from_pile(s: GameState, ctx: Ctx, seat: int, card: str, n: int, why: str) -> int:
    got = min(n, s.piles[card])
    if got:
        s.piles[card] -= got
        s.players[seat].hand.add(card, got)
        ctx.emit(ev.Take(player=seat, card=card, count=got, why=why))
    return got


def _refill_deck(s: GameState, ctx: Ctx) -> None:
    """SUP-1: an empty deck is replaced by the shuffled discard pile."""
    if s.deck == 0 and s.discard:
        s.deck = len(s.discard)
        s.discard = []
        ctx.emit(ev.Reshuffle(cards=s.deck))


def draw_search(
    s: GameState, ctx: Ctx, seat: int, n: int, entered: Iterable[str] = (), from_discard: int = 0, why: str = "search"
) -> list[str]:
    """Draw up to `n` Search cards: `from_discard` from the discard pile's top, the rest from the deck.

    Cards the table entered are known; the others join the hand as unknown cards.
    """
    hand = s.players[seat].hand
    drawn: list[str] = []
    for _ in range(min(from_discard, n, len(s.discard))):
        card = s.discard.pop()
        hand.add(card)
        drawn.append(card)
    entered = list(entered)
    for _ in range(n - len(drawn)):
        _refill_deck(s, ctx)
        if s.deck == 0:
            break
        s.deck -= 1
        card = entered.pop(0) if entered else UNKNOWN
        hand.add(card)
        drawn.append(card)
    ctx.emit(ev.Draw(player=seat, cards=tuple(drawn), why=why))
    return drawn


def take_from_discard(s: GameState, ctx: Ctx, seat: int, card: str, why: str) -> None:
    """Take a named card out of the Search discard pile: its copy nearest the top."""
    at = len(s.discard) - 1 - s.discard[::-1].index(card)
    del s.discard[at]
    s.players[seat].hand.add(card)
    ctx.emit(ev.Take(player=seat, card=card, count=1, why=why))


def take_from_deck(s: GameState, ctx: Ctx, seat: int, card: str, why: str) -> bool:
    """Take a named card out of the Search deck, or else out of the discard pile."""
    from .core import unaccounted

    hand = s.players[seat].hand
    if s.deck > 0 and unaccounted(s, card) > 0:
        s.deck -= 1
    elif card in s.discard:
        take_from_discard(s, ctx, seat, card, why)
        return True
    else:
        return False
    hand.add(card)
    ctx.emit(ev.Take(player=seat, card=card, count=1, why=why))
    return True


def move_card(s: GameState, ctx: Ctx, giver: int, receiver: int, card: str, why: str) -> None:
    s.players[giver].hand.remove(card)
    s.players[receiver].hand.add(card)
    ctx.emit(ev.Give(player=giver, to=receiver, card=card, why=why))


def steal_random(s: GameState, ctx: Ctx, victim: int, thief: int, why: str) -> str | None:
    """A card drawn at random from the victim's hand goes to the thief (the table's pick first)."""
    card = pick_card(s, ctx, victim, thief, why)
    if card is not None:
        move_card(s, ctx, victim, thief, card, why)
    return card


def discard_random(s: GameState, ctx: Ctx, seat: int, n: int, why: str) -> list[str]:
    """Up to `n` cards drawn at random from the hand, one by one, are discarded (table's picks first)."""
    out: list[str] = []
    for _ in range(n):
        card = pick_card(s, ctx, seat, None, why)
        if card is None:
            break
        out += discard_cards(s, ctx, seat, [card], why)
    return out


def add_beatings(s: GameState, ctx: Ctx, seat: int, n: int, why: str) -> int:
    """BEAT-1: a Beating beyond the maximum is not taken. Returns how many were taken."""
    p = s.players[seat]
    taken = max(0, min(n, s.ruleset.max_beatings - p.beatings))
    p.beatings += taken
    ctx.emit(ev.Beating(player=seat, count=taken, total=p.beatings, why=why))
    return taken


def remove_beatings(s: GameState, ctx: Ctx, seat: int, n: int, why: str) -> None:
    p = s.players[seat]
    gone = min(n, p.beatings)
    p.beatings -= gone
    ctx.emit(ev.Heal(player=seat, count=gone, total=p.beatings, why=why))


def gain_cigarettes(s: GameState, ctx: Ctx, seat: int, n: int, why: str) -> None:
    p = s.players[seat]
    p.cigarettes += n
    ctx.emit(ev.Cigarettes(player=seat, change=n, total=p.cigarettes, why=why))


def take_token(s: GameState, ctx: Ctx, seat: int, token: str, why: str) -> bool:
    if s.supplies.get(token, 0) <= 0:
        return False
    s.supplies[token] -= 1
    p = s.players[seat]
    p.tokens[token] = p.tokens.get(token, 0) + 1
    ctx.emit(ev.Token(player=seat, token=token, change=1, why=why))
    return True


def return_token(s: GameState, ctx: Ctx, seat: int, token: str, why: str) -> None:
    p = s.players[seat]
    p.tokens[token] -= 1
    if not p.tokens[token]:
        del p.tokens[token]
    s.supplies[token] = s.supplies.get(token, 0) + 1
    ctx.emit(ev.Token(player=seat, token=token, change=-1, why=why))


def discard_trauma(s: GameState, ctx: Ctx, seat: int, why: str) -> None:
    """PSY-2: a discarded Trauma goes back under its stack."""
    p = s.players[seat]
    if p.trauma is None:
        return
    s.trauma_stack.append(p.trauma)
    s.supplies["trauma"] = len(s.trauma_stack)
    ctx.emit(ev.Trauma(player=seat, trauma=p.trauma, change=-1, why=why))
    p.trauma = None


def leave_gang(s: GameState, ctx: Ctx, seat: int, why: str) -> None:
    """GANG-2: a Gang card leaves its holder for the bottom of its pile."""
    p = s.players[seat]
    if p.gang is None:
        return
    if p.ability is not None:
        s.gang_piles[p.gang].append(p.ability)
    ctx.emit(ev.LeaveGang(player=seat, gang=p.gang, ability=p.ability, why=why))
    p.gang = None
    p.ability = None


def place_standee(s: GameState, ctx: Ctx, seat: int, place: str, why: str) -> None:
    """A player's standee arrives somewhere: Trauma on the Ward (PSY-2), neutrals extort (MICH-3)."""
    p = s.players[seat]
    origin = p.place
    p.place = place
    ctx.emit(ev.Move(player=seat, to=place, why=why, from_=origin))
    if place == "psychiatric_ward" and s.trauma_stack:
        if p.trauma is not None:
            discard_trauma(s, ctx, seat, "new_trauma")
        p.trauma = ctx.take("trauma", s.trauma_stack)
        s.supplies["trauma"] = len(s.trauma_stack)
        ctx.emit(ev.Trauma(player=seat, trauma=p.trauma, change=1, why="psychiatric_ward"))
        if p.trauma == "no_join_gang":
            leave_gang(s, ctx, seat, "trauma")
    for neutral, at in s.neutrals.items():
        if at == place:
            ctx.arrivals.append((neutral, seat))


def neutrals_end_move(s: GameState, ctx: Ctx, neutrals: Iterable[str], place: str) -> None:
    """MICH-3 for neutrals a card moved (rules version 3): a neutral's standee that ends a move,
    whatever moved it, extorts every player in its new Place, not only those who came with it.
    Call it once the card's moves are done; a player is still extorted once by each neutral."""
    for neutral in neutrals:
        for p in s.players:
            if p.place == place and (neutral, p.seat) not in ctx.arrivals:
                ctx.arrivals.append((neutral, p.seat))


def check_win(s: GameState, ctx: Ctx) -> None:
    """WIN-1: the game ends at once when a player (Team mode: a team) reaches the target."""
    if s.winner is not None:
        return
    target = s.target()
    if s.team_mode:
        for team in ("a", "b"):
            if s.team_tunnel(team) >= target:
                s.winner = team
                break
    else:
        for p in s.players:
            if p.tunnel >= target:
                s.winner = p.seat
                break
    if s.winner is not None:
        if s.combat is not None and s.rules_version >= 2:  # a correction won during a combat
            discard_laid(s, ctx)
        s.pending = None
        s.combat = None
        s.agenda = []
        ctx.emit(ev.Win(winner=s.winner, target=target))


def discard_laid(s: GameState, ctx: Ctx) -> None:
    """CMB-3: every Weapon played, the intimidation included, is discarded."""
    c = s.combat
    assert c is not None
    for _, card in c.laid:
        to_supply(s, card)
    if c.laid:
        ctx.emit(ev.Discard(player=None, cards=tuple(card for _, card in c.laid), why="combat"))
    c.laid = []
