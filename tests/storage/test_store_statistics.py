"""History and statistics: winners, Tunnel points, Beatings taken and given, extortions won and lost."""

from storage_helpers import short_finished_game

from companion.rules import Game
from storage.statistics import tally


def _answer(*events):
    return {"events": [dict(e) for e in events]}


def test_a_player_extortion_the_target_cooperates_with():
    counts = tally(
        [
            _answer({"type": "extort", "player": 0, "target": 1, "tool": "spoon", "weapons": ["knife"]}),
            _answer({"type": "cooperate", "player": 1, "to": 0, "tool": "spoon"}),
        ],
        3,
    )
    assert counts[0]["extortions_won"] == 1 and counts[1]["extortions_lost"] == 1
    assert sum(c["beatings_taken"] + c["beatings_given"] for c in counts) == 0


def test_a_combat_the_extorted_player_wins_over_several_actions():
    counts = tally(
        [
            _answer({"type": "extort", "player": 0, "target": 2}, {"type": "combat", "attacker": 0, "defender": 2}),
            _answer({"type": "weapon", "player": 2, "card": "knife"}),
            _answer(
                {"type": "give_up", "player": 0},
                {"type": "combat_end", "winner": 2, "loser": 0},
                {"type": "beating", "player": 0, "count": 2, "total": 2, "why": "combat"},
                {"type": "beating", "player": 1, "count": 1, "total": 1, "why": "combat_helper"},
            ),
        ],
        3,
    )
    assert (counts[2]["extortions_won"], counts[0]["extortions_lost"]) == (1, 1)
    assert counts[0]["beatings_taken"] == 2 and counts[1]["beatings_taken"] == 1
    assert counts[2]["beatings_given"] == 3 and counts[0]["beatings_given"] == 0


def test_michel_extortions_count_for_the_player_and_his_beatings_for_nobody():
    counts = tally(
        [
            _answer(
                {"type": "michel_card", "neutral": "michel", "player": 1, "card": "knife_spoon"},
                {"type": "combat", "attacker": None, "defender": 1, "neutral": "michel"},
            ),
            _answer(
                {"type": "give_up", "player": 1},
                {"type": "combat_end", "winner": None, "loser": 1, "neutral": "michel"},
                {"type": "beating", "player": 1, "count": 1, "total": 1, "why": "michel"},
            ),
            _answer({"type": "cooperate", "player": 0, "neutral": "michelle", "tool": "spoon"}),
            _answer({"type": "combat_end", "winner": 0, "loser": None, "neutral": "michelle"}),
        ],
        2,
    )
    assert counts[1] == {"beatings_taken": 1, "beatings_given": 0, "extortions_won": 0, "extortions_lost": 1}
    assert counts[0] == {"beatings_taken": 0, "beatings_given": 0, "extortions_won": 1, "extortions_lost": 1}


def test_beatings_from_brawls_backgrounds_and_punishments_have_a_giver():
    counts = tally(
        [
            _answer({"type": "brawl", "player": 0, "place": "gymnasium", "players": [1, 2]}),
            _answer({"type": "beating", "player": 1, "count": 1, "total": 1, "why": "brawl"}),
            _answer({"type": "beating", "player": 2, "count": 0, "total": 3, "why": "brawl"}),  # already at most
            _answer(
                {"type": "background", "player": 2, "background": "nobody_walks_away_from_me", "bonus": False},
                {"type": "beating", "player": 0, "count": 1, "total": 1, "why": "nobody_walks_away_from_me"},
            ),
            _answer({"type": "corruption", "player": 1, "effect": "punishment"}),
            _answer(
                {"type": "punishment", "player": 0, "choice": "beating"},
                {"type": "beating", "player": 0, "count": 1, "total": 2, "why": "punishment"},
            ),
            _answer({"type": "extort", "player": 0, "target": 1}, {"type": "must_cooperate", "player": 1}),
        ],
        3,
    )
    assert [c["beatings_given"] for c in counts] == [1, 1, 1]
    assert [c["beatings_taken"] for c in counts] == [2, 1, 0]
    assert counts[0]["extortions_won"] == 1 and counts[1]["extortions_lost"] == 1


def _play_through(store, cfg, actions):
    game_id = store.create_game(cfg)
    for version, action in enumerate(actions):
        store.submit(game_id, action, base_version=version)
    return game_id


def test_statistics_of_finished_games_per_player_and_per_game(store):
    played = []
    for seed in (1, 2, 3):
        cfg, actions = short_finished_game(seed)
        if seed == 2:  # the same people, spelled differently
            cfg["players"][0]["name"] = "carmen "
        played.append((_play_through(store, cfg, actions), cfg, actions))
    unfinished_cfg, unfinished = short_finished_game(4)
    _play_through(store, unfinished_cfg, unfinished[:-1])

    stats = store.statistics()
    assert [g.game_id for g in stats.games] == [game_id for game_id, _, _ in played]
    assert sum(p.wins for p in stats.players) == 3 and all(p.games == 3 for p in stats.players)
    assert {p.name for p in stats.players} == {"Carmen", "Nicholas", "Yellow"}
    carmen = stats.player("CARMEN")
    winners = {g.id: g.winner for g in store.list_games("finished")}
    for (game_id, cfg, actions), game in zip(played, stats.games, strict=True):
        final = Game.replay(cfg, actions).state
        log = store.events(game_id)
        assert game.winner == winners[game_id] == final.players[final.winner].name
        for seat in game.seats:
            events = [e for entry in log for e in entry.answer["events"]]
            taken = sum(e["count"] for e in events if e["type"] == "beating" and e["player"] == seat.seat)
            assert seat.tunnel == final.players[seat.seat].tunnel
            assert seat.beatings_taken == taken >= final.players[seat.seat].beatings
            assert seat.won == (final.winner == seat.seat)
            assert seat.colour == cfg["players"][seat.seat]["color"]

    def total(name: str, field: str) -> int:
        return sum(getattr(s, field) for g in stats.games for s in g.seats if s.name.strip().casefold() == name)

    assert carmen.tunnel == total("carmen", "tunnel")
    assert carmen.beatings_taken == total("carmen", "beatings_taken")
    assert carmen.extortions_won == total("carmen", "extortions_won")
    everyone = [s for g in stats.games for s in g.seats]
    assert sum(s.beatings_given for s in everyone) <= sum(s.beatings_taken for s in everyone)
    assert sum(s.extortions_won + s.extortions_lost for s in everyone) > 0, "these games had extortions"


def test_team_games_credit_the_whole_team(store):
    cfg, actions = short_finished_game(2, 4, modules={"team": True, "neutrals": 0})
    game_id = _play_through(store, cfg, actions)
    (info,) = store.list_games("finished")
    team = Game.replay(cfg, actions).state.winner
    assert info.id == game_id and info.winner == team
    members = tuple(cfg["players"][seat]["name"] for seat in cfg.get("teams", {"a": [0, 2], "b": [1, 3]})[team])
    assert info.winners == members
    stats = store.statistics()
    assert {p.name for p in stats.players if p.wins} == set(members)
