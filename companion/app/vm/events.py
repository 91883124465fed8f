"""Plain-language lines for the engine's events and for recorded actions.

The engine's events carry seats and ids; a line names players and renders ids through the
catalog (event.<type> keys, with a variant suffix where one event type reads differently,
e.g. a neutral's combat). `why` values name the rule, action, ability or card that caused a
change and are rendered the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.rules import Event, event_from_json, round_of
from companion.rules import events as ev

from .text import Tr

# Which event types are worth a headline (the "what just happened" strip), by importance.
HEADLINE = {
    "roll",
    "move",
    "neutral_move",
    "michel_card",
    "combat_end",
    "beating",
    "give",
    "take",
    "dig",
    "offence",
    "report",
    "win",
    "turn",
    "cooperate",
    "extort",
    "weapon",
    "give_up",
    "craft",
    "cigarettes",
    "draw",
    "discard",
    "heal",
    "join_gang",
    "background",
    "warden_move",
    "punishment",
    "corruption",
    "turn_ended",
    "token",
    "trauma",
    "skip_neutral",
    "neutral_calm",
    "camouflaged",
    "action_card",
    "skill",
    "spy",
    "brawl",
    "exempt",
    "must_cooperate",
    "forced",
    "adjust",
    "adjusted",
    "ability",
    "rehabilitate",
    "leave_gang",
    "reroll",
}
QUIET = {"unused_dice", "unused_outcomes", "reshuffle", "michel_reshuffle", "end_turn", "combat"}
# The log and the replay tell a combat's start too: there no decision panel shows it, and a Fight
# answer that starts one would read as an entry where nothing happened.
LOG_QUIET = QUIET - {"combat"}


class Names:
    """Seat -> player name (and team ids -> team names) for one game."""

    def __init__(self, names: Sequence[str], tr: Tr) -> None:
        self.names = list(names)
        self.tr = tr

    def __call__(self, seat: Any) -> str:
        if isinstance(seat, bool) or seat is None:
            return self.tr("ui.nobody")
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        if seat in ("a", "b"):
            return self.tr(f"ui.team_{seat}")
        return str(seat)

    def many(self, seats: Sequence[Any]) -> str:
        return self.tr.join(self(s) for s in seats)


def why_text(tr: Tr, why: object) -> str:
    """The cause of a change, in words: a special reason, else an action, ability or card name."""
    if not why:
        return ""
    why = str(why)
    for key in (
        f"why.{why}",
        f"action.{why}",
        f"ability.{why}",
        f"background.{why}",
        f"card.{why}",
        f"token.{why}",
        f"effect.{why}",
    ):
        if tr.has(key):
            return tr.raw(key)
    return why.replace("_", " ")


def _who(who: Any, names: Names, tr: Tr) -> str:
    """A seat's name, or a neutral's (a neutral rolls for its own move)."""
    if isinstance(who, str) and who in tr_neutrals(tr):
        return tr.name("neutral", who)
    return names(who)


def tr_neutrals(tr: Tr) -> tuple[str, ...]:
    return ("michel", "michelle")


def _cards(tr: Tr, cards: Sequence[str]) -> str:
    counts: dict[str, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    parts = []
    for card, n in counts.items():
        label = tr.name("card", card)
        parts.append(label if n == 1 else tr("ui.times", count=n, what=label))
    return tr.join(parts)


def describe_event(event: Event | Mapping[str, Any], names: Names, tr: Tr) -> str:
    """One event (typed, or its stored JSON) as a sentence; an unexpected type still reads."""
    kind = event.TYPE if isinstance(event, Event) else str(event.get("type", ""))
    fn = _DESCRIBERS.get(kind)
    if fn is None:
        return tr.params("event.unknown", {"type": kind.replace("_", " ")})
    key, params = fn(event_from_json(event), names, tr)
    return tr.params(key, params)


Params = dict[str, Any]
Describer = Callable[[Any, Names, Tr], tuple[str, Params]]  # takes the event of its type


def _p(event: Any, names: Names, tr: Tr, **extra: Any) -> Params:
    """The player and the cause, which most lines name."""
    out = {
        "player": _who(getattr(event, "player", None), names, tr),
        "why": why_suffix(tr, getattr(event, "why", None)),
    }
    out.update(extra)
    return out


def why_suffix(tr: Tr, why: Any) -> str:
    """The cause as a suffix the templates place where their language wants it ('' when none)."""
    said = why_text(tr, why)
    return tr("ui.why_suffix", why=said) if said else ""


def _ev_roll(e: ev.Roll, names: Names, tr: Tr) -> tuple[str, Params]:
    key = "event.roll.table" if e.source == "table" else "event.roll"
    return key, {"player": _who(e.player, names, tr), "die": e.die, "why": why_suffix(tr, e.why)}


def _ev_move(e: ev.Move, names: Names, tr: Tr) -> tuple[str, Params]:
    key = "event.move" if e.from_ else "event.move.to"
    params = _p(e, names, tr, **{"from": e.from_, "to": e.to})
    if e.why == "move":  # a Simple move needs no cause
        params["why"] = ""
    return key, params


def _ev_neutral_move(e: ev.NeutralMove, names: Names, tr: Tr) -> tuple[str, Params]:
    key = "event.neutral_move" if e.from_ else "event.neutral_move.to"
    return key, {"neutral": e.neutral, "from": e.from_, "to": e.to, "why": why_suffix(tr, e.why)}


def _ev_cigarettes(e: ev.Cigarettes, names: Names, tr: Tr) -> tuple[str, Params]:
    change = e.change or 0
    key = "event.cigarettes.gain" if change > 0 else "event.cigarettes.pay" if change < 0 else "event.cigarettes.none"
    return key, _p(e, names, tr, amount=abs(change), total=e.total)


def _ev_beating(e: ev.Beating, names: Names, tr: Tr) -> tuple[str, Params]:
    key = "event.beating" if e.count else "event.beating.none"
    return key, _p(e, names, tr, count=e.count, total=e.total)


def _ev_heal(e: ev.Heal, names: Names, tr: Tr) -> tuple[str, Params]:
    return "event.heal", _p(e, names, tr, count=e.count, total=e.total)


def _ev_discard(e: ev.Discard, names: Names, tr: Tr) -> tuple[str, Params]:
    cards = _cards(tr, e.cards)
    if e.player is None:
        return "event.discard.combat", {"cards_text": cards}
    return "event.discard", _p(e, names, tr, cards_text=cards)


def _ev_draw(e: ev.Draw, names: Names, tr: Tr) -> tuple[str, Params]:
    if not e.cards:
        return "event.draw.none", _p(e, names, tr)
    if any(c != "unknown" for c in e.cards):
        return "event.draw.known", _p(e, names, tr, count=len(e.cards), cards_text=_cards(tr, e.cards))
    return "event.draw", _p(e, names, tr, count=len(e.cards))


def _ev_take(e: ev.Take, names: Names, tr: Tr) -> tuple[str, Params]:
    return "event.take", _p(e, names, tr, count=e.count, card=e.card)


def _ev_give(e: ev.Give, names: Names, tr: Tr) -> tuple[str, Params]:
    return "event.give", _p(e, names, tr, receiver=names(e.to), card=e.card)


def _ev_token(e: ev.Token, names: Names, tr: Tr) -> tuple[str, Params]:
    key = "event.token.take" if (e.change or 0) > 0 else "event.token.return"
    return key, _p(e, names, tr, token=e.token)


def _ev_trauma(e: ev.Trauma, names: Names, tr: Tr) -> tuple[str, Params]:
    key = "event.trauma.draw" if (e.change or 0) > 0 else "event.trauma.discard"
    return key, _p(e, names, tr, trauma=e.trauma)


def _ev_combat(e: ev.Combat, names: Names, tr: Tr) -> tuple[str, Params]:
    if e.neutral:
        return "event.combat.neutral", {"player": names(e.defender), "neutral": e.neutral}
    return "event.combat", {"attacker": names(e.attacker), "defender": names(e.defender)}


def _ev_combat_end(e: ev.CombatEnd, names: Names, tr: Tr) -> tuple[str, Params]:
    if e.neutral:
        if e.winner is not None:
            return "event.combat_end.player_wins", {"player": names(e.winner), "neutral": e.neutral}
        return "event.combat_end.neutral_wins", {"player": names(e.loser), "neutral": e.neutral}
    return "event.combat_end", {"winner_name": names(e.winner), "loser": names(e.loser)}


def _ev_cooperate(e: ev.Cooperate, names: Names, tr: Tr) -> tuple[str, Params]:
    if e.neutral:
        return "event.cooperate.neutral", _p(e, names, tr, neutral=e.neutral, tool=e.tool)
    return "event.cooperate", _p(e, names, tr, receiver=names(e.to), tool=e.tool)


def _ev_extort(e: ev.Extort, names: Names, tr: Tr) -> tuple[str, Params]:
    return "event.extort", _p(e, names, tr, target=names(e.target), tool=e.tool, cards_text=_cards(tr, e.weapons))


def _ev_michel_card(e: ev.MichelCard, names: Names, tr: Tr) -> tuple[str, Params]:
    key = "event.michel_card.table" if e.source == "table" else "event.michel_card"
    return key, {"neutral": e.neutral, "player": names(e.player), "michel_card": e.card}


def _ev_warden_move(e: ev.WardenMove, names: Names, tr: Tr) -> tuple[str, Params]:
    key = "event.warden_move.by" if e.player is not None else "event.warden_move"
    return key, {"to": e.to, "why": why_suffix(tr, e.why), "player": names(e.player)}


def _ev_win(e: ev.Win, names: Names, tr: Tr) -> tuple[str, Params]:
    key = "event.win.team" if isinstance(e.winner, str) else "event.win"
    return key, {"winner_name": names(e.winner), "target": e.target}


def _ev_action_card(e: ev.ActionCard, names: Names, tr: Tr) -> tuple[str, Params]:
    if e.target is not None:
        return "event.action_card.target", _p(e, names, tr, card=e.card, target=names(e.target))
    return "event.action_card", _p(e, names, tr, card=e.card)


def _ev_background(e: ev.Background, names: Names, tr: Tr) -> tuple[str, Params]:
    key = "event.background.bonus" if e.bonus else "event.background"
    return key, _p(e, names, tr, background=e.background)


def _ev_adjust(e: ev.Adjust, names: Names, tr: Tr) -> tuple[str, Params]:
    if isinstance(e.value, tuple):
        shown = tr.join(tr.name("card", str(v)) for v in e.value)
    else:
        shown = value_text(e.value, tr)
    return f"event.adjust.{e.op}", {"path": path_text(e.path, names, tr), "value": shown}


def path_text(path: str, names: Names, tr: Tr) -> str:
    """A state path of a correction in words: "Ana · Cigarettes", "Knife pile", "Michel"."""
    parts = path.split(".")
    head = parts[0]
    if head == "players" and len(parts) >= 3 and parts[1].isdigit():
        field = parts[2]
        if field == "tokens" and len(parts) == 4:
            what = tr.name("token", parts[3])
        else:
            what = tr(f"correct.field.{field}") if tr.has(f"correct.field.{field}") else field
        return tr("correct.whose", who=names(int(parts[1])), what=what)
    if head == "piles" and len(parts) == 2:
        return tr("correct.pile", card=tr.name("card", parts[1]))
    if head == "supplies" and len(parts) == 2:
        return tr("correct.supply", token=tr.name("token", parts[1]))
    if head == "neutrals" and len(parts) == 2:
        return tr.name("neutral", parts[1])
    return tr(f"correct.field.{path}") if tr.has(f"correct.field.{path}") else path


def value_text(value: Any, tr: Tr) -> str:
    """A corrected value in words: a Place's name, a number in the language's digits."""
    if isinstance(value, str) and tr.has(f"place.{value}"):
        return tr.name("place", value)
    if isinstance(value, int) and not isinstance(value, bool):
        return tr.num(value)
    return "—" if value is None else str(value)


def _ev_adjusted(e: ev.Adjusted, names: Names, tr: Tr) -> tuple[str, Params]:
    key = "event.adjusted.reason" if e.reason else "event.adjusted"
    return key, _p(e, names, tr, reason=e.reason or "")


def _ev_turn(e: ev.Turn, names: Names, tr: Tr) -> tuple[str, Params]:
    """A turn begins: its round (the engine's count, from the turn and the players) and its number."""
    return "event.turn", _p(e, names, tr, round=round_of(e.turn, len(names.names)), turn=e.turn, actions=e.actions)


def _ev_turn_ended(e: ev.TurnEnded, names: Names, tr: Tr) -> tuple[str, Params]:
    return "event.turn_ended", _p(e, names, tr)


def _simple(key: str, **fields: str) -> Describer:
    """An event whose line needs the player plus fields copied as they are (ids render by name)."""

    def describe(e: Any, names: Names, tr: Tr) -> tuple[str, Params]:
        params = _p(e, names, tr)
        for param, source in fields.items():
            value = getattr(e, source)
            params[param] = names(value) if param in ("target", "offender", "receiver") else value
        return key, params

    return describe


def _ev_brawl(e: ev.Brawl, names: Names, tr: Tr) -> tuple[str, Params]:
    return ("event.brawl" if e.players else "event.brawl.alone"), {
        "player": names(e.player),
        "place": e.place,
        "others": names.many(e.players),
        "count": len(e.players),  # one player must discard; several must each
    }


_DESCRIBERS: dict[str, Describer] = {
    "roll": _ev_roll,
    "move": _ev_move,
    "neutral_move": _ev_neutral_move,
    "cigarettes": _ev_cigarettes,
    "beating": _ev_beating,
    "heal": _ev_heal,
    "discard": _ev_discard,
    "draw": _ev_draw,
    "take": _ev_take,
    "give": _ev_give,
    "token": _ev_token,
    "trauma": _ev_trauma,
    "combat": _ev_combat,
    "combat_end": _ev_combat_end,
    "cooperate": _ev_cooperate,
    "extort": _ev_extort,
    "michel_card": _ev_michel_card,
    "warden_move": _ev_warden_move,
    "win": _ev_win,
    "action_card": _ev_action_card,
    "background": _ev_background,
    "adjust": _ev_adjust,
    "adjusted": _ev_adjusted,
    "turn_ended": _ev_turn_ended,
    "ability": _simple("event.ability", ability="ability"),
    "brawl": _ev_brawl,
    "camouflaged": lambda e, names, tr: ("event.camouflaged", {"neutral": e.neutral, "player": names(e.player)}),
    "corruption": _simple("event.corruption", effect="effect"),
    "craft": _simple("event.craft", recipe="recipe"),
    "dig": _simple("event.dig", tool="tool", points="points", tunnel="tunnel"),
    "end_turn": _simple("event.end_turn"),
    "exempt": _simple("event.exempt"),
    "forced": lambda e, names, tr: (
        ("event.forced_ruling", {"player": names(e.player), "rules": tr.join(e.rules), "ruling": e.ruling})
        if e.ruling
        else ("event.forced", {"player": names(e.player), "rules": tr.join(e.rules)})
    ),
    "give_up": _simple("event.give_up"),
    "join_gang": _simple("event.join_gang", gang="gang", ability="ability"),
    "leave_gang": _simple("event.leave_gang", gang="gang", ability="ability"),
    "michel_reshuffle": lambda e, names, tr: ("event.michel_reshuffle", {"count": e.cards}),
    "must_cooperate": _simple("event.must_cooperate", tool="tool"),
    "neutral_calm": lambda e, names, tr: (
        "event.neutral_calm",
        {"neutral": e.neutral, "player": names(e.player), "place": e.place},
    ),
    "offence": _simple("event.offence", action="action", place="place"),
    "punishment": _simple("event.punishment", choice="choice"),
    "rehabilitate": _simple("event.rehabilitate"),
    "report": _simple("event.report", offender="offender", action="action"),
    "reroll": _simple("event.reroll", ability="ability"),
    "reshuffle": lambda e, names, tr: ("event.reshuffle", {"count": e.cards}),
    "skill": _simple("event.skill", tunnel="tunnel"),
    "skip_neutral": _simple("event.skip_neutral"),
    "spy": _simple("event.spy", target="target"),
    "turn": _ev_turn,
    "unused_dice": lambda e, names, tr: ("event.unused_dice", {"dice": tr.join(str(d) for d in e.die)}),
    "unused_outcomes": lambda e, names, tr: ("event.unused_outcomes", {"count": len(e.outcomes)}),
    "weapon": _simple("event.weapon", card="card"),
}

EVENT_TYPES = frozenset(_DESCRIBERS)


def describe_action(action: Mapping[str, Any], names: Names, tr: Tr) -> str:
    """A recorded action as a short line: who did what (its details are in the events)."""
    kind = str(action.get("type", ""))
    player = names(action.get("player"))
    label = tr.name("action", kind)
    if kind == "adjust":  # a correction is the referee's, whichever seat it was filed under
        return tr("ui.log_adjust", action_label=label)
    detail = action_detail(action, names, tr)
    if detail:
        return tr("ui.log_action_detail", player=player, action_label=label, detail=detail)
    return tr("ui.log_action", player=player, action_label=label)


def action_detail(action: Mapping[str, Any], names: Names, tr: Tr) -> str:
    """The fields that make this action what it is (destination, recipe, target...)."""
    parts: list[str] = []
    kind = action.get("type")
    if kind == "choose":
        option = action.get("option")
        parts.append(option_label(option, tr))
    for field, space in (
        ("to", "place"),
        ("recipe", "recipe"),
        ("gang", "gang"),
        ("card", "card"),
        ("tool", "card"),
        ("item", "item"),
        ("effect", "effect"),
        ("choice", "choice"),
        ("neutral", "neutral"),
        ("ability", "ability"),
    ):
        value = action.get(field)
        if value is None or (kind == "exchange" and field == "to"):
            continue
        if kind == "reveal_background" and field == "card":
            space = "background"
        if kind == "play_action" and field == "card":
            space = "card"
        parts.append(tr.name(space, str(value)))
    for field in ("target",):
        if action.get(field) is not None:
            parts.append(tr("ui.detail_target", target=names(action[field])))
    if kind == "exchange" and action.get("to") is not None:
        parts.append(tr("ui.detail_target", target=names(action["to"])))
    if action.get("cards"):
        parts.append(_cards(tr, action["cards"]))
    if action.get("weapons"):
        parts.append(_cards(tr, action["weapons"]))
    if action.get("discard"):
        parts.append(tr("ui.detail_discard", cards_text=_cards(tr, action["discard"])))
    if action.get("cigarettes"):
        parts.append(tr("ui.detail_cigarettes", count=action["cigarettes"]))
    if action.get("die"):
        parts.append(tr("ui.detail_die", dice=tr.join(str(d) for d in action["die"])))
    if action.get("force"):
        ruling = action.get("ruling")
        parts.append(tr("ui.detail_forced_ruling", ruling=ruling) if ruling else tr("ui.detail_forced"))
    return tr.join(p for p in parts if p)


def option_label(option: object, tr: Tr) -> str:
    """A pending decision's option id, in words (a Place, a card, a Weapon, 'reroll', 'lose'...)."""
    if isinstance(option, (list, tuple)):
        return tr.join(option_label(o, tr) for o in option)
    option = str(option)
    for space in ("place", "card", "neutral", "tool"):
        key = f"{space}.{option}"
        if tr.has(key):
            return tr.raw(key)
    if tr.has(f"option.{option}"):
        return tr.raw(f"option.{option}")
    return option.replace("_", " ")
