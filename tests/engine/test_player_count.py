"""One player-count rule, 2..16, enforced once in the engine (check_player_count) for
every entry point. The single exception is a level with exactly one capital played
with its own tribe (players=None): Tribes' MinimalLevel, the reference position of
RULES.md §1.3 / §13 used by tests/engine/test_rules_game.py."""
from pathlib import Path

import pytest

import polyenv
from polyenv import GameEnv, VectorGameEnv, _core

LEVELS = Path(polyenv.__file__).parent / "levels"
TWO_CAPITALS = "\n".join([".:,.:,.:,.:,.:", ".:,c:3,.:,.:,.:", ".:,.:,.:,.:,.:", ".:,.:,.:,c:1,.:", ".:,.:,.:,.:,.:"]) + "\n"


@pytest.mark.parametrize("players", [(), (2,)], ids=["0", "1"])
def test_every_entry_point_rejects_fewer_than_two(players):
    with pytest.raises(ValueError, match="2 to 16 players"):
        GameEnv.blank(8, players)
    with pytest.raises(ValueError, match="2 to 16 players"):
        GameEnv(map_size=8, players=players)
    with pytest.raises(ValueError, match="2 to 16 players"):
        VectorGameEnv(1, map_size=8, players=players)


def test_the_native_layer_checks_too():
    """No Python pre-check to forget: the native constructors reject one player themselves."""
    with pytest.raises(ValueError, match="2 to 16 players"):
        _core.Game.blank(8, [2], 0, -1, False, 0, 0, True)
    with pytest.raises(ValueError, match="2 to 16 players"):
        _core.Game.generated(8, [2], 0, -1, False, True, 0)
    with pytest.raises(ValueError, match="2 to 16 players"):
        _core.VectorEnv(1, 0, 8, [2], 0, -1, False, 1, 16, True, 0, False, False, -1, [])


def test_seventeen_players_rejected_everywhere():
    seventeen = [i % 12 for i in range(17)]
    with pytest.raises(ValueError, match="2 to 16 players"):
        GameEnv.blank(30, seventeen)
    with pytest.raises(ValueError, match="2 to 16 players"):
        VectorGameEnv(1, map_size=30, players=seventeen)


def test_an_empty_player_list_is_not_the_level_default():
    with pytest.raises(ValueError, match="2 to 16 players, got 0"):
        GameEnv(level=TWO_CAPITALS, players=())


def test_a_level_played_by_one_given_tribe_is_rejected():
    with pytest.raises(ValueError, match="2 to 16 players, got 1"):
        GameEnv(level=LEVELS / "minimal.csv", players=(2,))
    with pytest.raises(ValueError, match="2 to 16 players, got 1"):
        GameEnv(level=TWO_CAPITALS, players=(2,))


def test_the_single_exception_is_a_one_capital_level_with_its_own_tribe():
    env = GameEnv(level=LEVELS / "minimal.csv")
    assert env.num_players == 1


def test_a_level_defaults_to_its_own_tribes():
    """GameEnv(level=...) with no players plays the level's tribes (a 4-player level was
    refused with "4 capitals but 2 players were given")."""
    env = GameEnv(level=LEVELS / "four_16.csv")
    assert env.num_players == 4
    text = (LEVELS / "four_16.csv").read_text()
    explicit = GameEnv(level=text, players=None)
    assert [env.player(p)["tribe_key"] for p in range(4)] == [explicit.player(p)["tribe_key"] for p in range(4)]
    env = GameEnv(level=TWO_CAPITALS)
    assert [env.player(p)["tribe_key"] for p in range(2)] == [3, 1]
    assert GameEnv(level=TWO_CAPITALS, players=("Bardur", "Zebasi")).player(1)["tribe_key"] == polyenv.Zebasi


def test_flat_encoder_uses_the_same_rule():
    """encode_flat refuses 0 and 17 players as the engine does, and takes the 1-player
    observation of the single-tribe level (its one exception)."""
    from polyenv.envs.flat import FlatEncoder
    env = GameEnv(seed=0, level=LEVELS / "minimal.csv", players=None)
    o = env.observe(0, max_actions=8)
    args = (o["map_tokens"], o["state"], 0, o["action_features"], int(o["legal_action_count"]))
    assert FlatEncoder(env.map_size, 1, 50, 8).encode(*args).shape == (FlatEncoder(env.map_size, 1, 50, 8).size,)
    for players in (0, 17):
        with pytest.raises(ValueError, match="2 to 16 players"):
            FlatEncoder(env.map_size, players, 50, 8).encode(*args)
