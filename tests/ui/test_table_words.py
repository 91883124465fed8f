"""What the table reads, checked on real engine states without a browser: rounds rather than player
turns, and the small slips a table met (issue 37's list), each fixed where its words are made."""

from __future__ import annotations

from companion.app.vm.events import Names, describe_event
from companion.app.vm.table import build_table
from companion.app.vm.text import Tr
from companion.rules import Game, events

EN = Tr("en")


def three_players(**extra) -> Game:
    return Game({"players": [{"name": "Anna"}, {"name": "Bea"}, {"name": "Carla"}], "seed": 5, **extra})


def end_turns(game: Game, count: int) -> None:
    for _ in range(count):
        assert game.submit({"type": "end_turn", "player": game.state.active}).accepted


class TestRounds:
    def test_the_banner_counts_rounds_and_the_log_keeps_both(self) -> None:
        game = three_players()
        end_turns(game, 4)  # Bea's turn of the second round: the game's fifth turn
        table = build_table(game.state, EN)
        assert (table.turn, table.round, table.active_name) == (5, 2, "Bea")
        assert EN("ui.round_number", round=table.round) == "Round 2"
        turn = events.Turn(player=1, turn=5, actions=2)
        line = describe_event(turn, Names(["Anna", "Bea", "Carla"], EN), EN)
        assert line == "Round 2, turn 5: Bea plays (2 actions)."
