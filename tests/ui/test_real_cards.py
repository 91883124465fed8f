"""The real random card: a table that draws the cards the rules take at random from its real
hands says which card it drew, one at a time as the engine asks, and the app records it; with
the app's randomness, a player who shows their hand on a shared screen reads which card moved."""

from __future__ import annotations

from companion.app.vm.dice import TableChance, card_ask
from companion.app.vm.pending import pending_view
from companion.app.vm.seat import SPECTATOR, event_lines
from companion.app.vm.table import names_of
from companion.rules import UNKNOWN, Event

from .test_interaction import TR, FakeScreen, control

COMBAT = {
    "players": [
        {"name": "Carmen", "place": "cafeteria", "hand": ["knife"]},
        {"name": "Nicholas", "place": "cafeteria", "hand": ["boots", "ring", "unknown"]},
    ],
    "seed": 1,
}
EXTORT = {"type": "extort", "player": 0, "target": 1, "tool": "shovel", "weapons": ["knife"]}


def lost_combat(store, unknown: bool = True) -> str:
    """Carmen extorts Nicholas for a Shovel he lacks, with a Knife: he can only give up."""
    config = COMBAT
    if not unknown:  # every card of his hand entered: the app's pick names a card
        config = {**COMBAT, "players": [COMBAT["players"][0], {**COMBAT["players"][1], "hand": ["boots", "ring"]}]}
    game_id = store.create_game(config)
    assert store.submit(game_id, EXTORT, base_version=0).answer.accepted
    return game_id


def give_up(ctl) -> None:
    ctl.choose_answer(next(a for a in pending_view(ctl.state, TR).answers if a.action["type"] == "give_up"))


def test_the_table_says_which_card_the_winner_drew_from_the_real_hand(store) -> None:
    game_id = lost_combat(store)
    ctl, screen = control(store, game_id, physical=TableChance(cards=True))
    give_up(ctl)
    assert store.load(game_id).version == 1 and ctl.card_for is not None  # nothing recorded yet
    assert ctl.drawing  # the table screen offers only this question (and Cancel) meanwhile
    ask = card_ask(ctl.state, ctl.card_asked, [], TR)
    assert ask.title == "Carmen draws a card at random from Nicholas's hand: which card?"
    named = dict(ask.cards)
    assert named["ring"] == "Ring" and named["boots"] == "Boots" and named[UNKNOWN] == "Not entered"
    ctl.pick_card("ring")
    entry = store.entry(game_id, 2)
    assert entry.action["picks"] == ["ring"] and ctl.card_for is None
    carmen, nicholas = store.load(game_id).game.state.players
    assert carmen.hand.known.get("ring") == 1 and "ring" not in nicholas.hand.known


def test_a_card_never_entered_moves_as_one(store) -> None:
    game_id = lost_combat(store)
    ctl, _ = control(store, game_id, physical=TableChance(cards=True))
    give_up(ctl)
    ctl.pick_card(UNKNOWN)
    carmen, nicholas = store.load(game_id).game.state.players
    assert carmen.hand.unknown == 1 and nicholas.hand.unknown == 0
    assert nicholas.hand.known == {"boots": 1, "ring": 1}


def test_the_app_picks_when_the_table_does_not_draw(store) -> None:
    game_id = lost_combat(store)
    ctl, _ = control(store, game_id)
    give_up(ctl)
    assert ctl.card_for is None and store.load(game_id).version == 2
    assert "picks" not in store.entry(game_id, 2).action


def test_a_shared_screen_tells_the_card_to_the_player_who_shows_their_hand(store) -> None:
    """The public words hide which card moved; Nicholas's own words, while his hand is shown, say it."""
    game_id = lost_combat(store, unknown=False)

    class SharedScreen(FakeScreen):
        def lines_for(self, events: list[Event]) -> list[str]:
            seat = ctl.revealed_seat()
            names = names_of(self.session.state)
            return event_lines(events, names, TR, SPECTATOR if seat is None else seat)

    ctl, _ = control(store, game_id)
    ctl.port = screen = SharedScreen(ctl.session)
    give_up(ctl)
    carmen = store.load(game_id).game.state.players[0]
    moved = next(card for card in ("boots", "ring") if carmen.hand.known.get(card))
    name = TR.name("card", moved)
    assert ctl.result and not any(name in line for line in ctl.result)
    ctl.reveal(1)
    assert any(name in line for line in ctl.result), ctl.result
    ctl.hide()
    assert not any(name in line for line in ctl.result) and screen is ctl.port
