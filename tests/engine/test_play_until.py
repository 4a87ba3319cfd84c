"""The engine's one bot turn loop (``_core.bot_play_until``): the same games as
turn-by-turn play with position-derived bot streams, journal included; bad
seat sets are refused without a change."""
import pytest

from polyenv import GameEnv, _core


def _native(env: GameEnv):
    return env._game  # the binding under test takes the native game


@pytest.mark.parametrize("bot", [0, 1])
def test_play_until_matches_turn_by_turn_play(bot):
    a, b = GameEnv(seed=11, players=["bardur", "imperius", "oumaji"]), GameEnv(seed=11, players=["bardur", "imperius", "oumaji"])
    for _ in range(6):
        if a.game_over:
            break
        a.step(0)  # seat 0 (the "learner") ends its turn at once
        b.step(0)
        applied = _core.bot_play_until(_native(a), bot, 0b001)
        expected = 0
        while not b.game_over and b.current_player != 0:
            expected += _core.bot_play_turn(_native(b), bot)
        assert applied == expected
        assert a.to_bytes() == b.to_bytes()
        assert _native(a).journal_bytes() == _native(b).journal_bytes()


def test_play_until_rejects_bad_seats_without_change():
    env = GameEnv(seed=5)
    env.step(0)
    before, state_id = env.to_bytes(), env.state_id
    for seats in (-1, 1 << 2, 1 << 40):
        with pytest.raises(ValueError):
            _core.bot_play_until(_native(env), 1, seats)
    with pytest.raises(ValueError):
        _core.bot_play_until(_native(env), 99, 1)
    assert env.to_bytes() == before and env.state_id == state_id
