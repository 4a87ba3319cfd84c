"""The Gymnasium env against the Python loop it replaced: opponents' turns played one
``bots.play_turn`` at a time and the score-margin reward computed in float32 in
Python. Same seeds -> same observations, rewards and bot moves."""
import numpy as np
import pytest

from polyenv import GameEnv, bots
from polyenv.envs.gym_env import DEFAULT_TRIBES, SCORE_SCALE, TribesEnv


def _reference_opponents(game: GameEnv, seat: int, bot: str) -> int:
    applied = 0
    while not game.game_over and game.current_player != seat:
        applied += bots.play_turn(game, bot)
    return applied


def _reference_reward(game: GameEnv, actor: int, before: int, score_delta: bool) -> float:
    reward = np.float32(((game.score_margin(actor) if score_delta else 0) - before) / SCORE_SCALE)
    if game.game_over:
        reward += np.float32(1.0 if game.winner == actor else -1.0)
    return float(reward)


@pytest.mark.parametrize("bot,seat,players,reward", [("random", 0, 2, "score_delta"), ("greedy", 1, 2, "score_delta"),
                                                     ("random", 2, 3, "terminal"), ("greedy", 0, 3, "score_delta")])
def test_gym_env_matches_the_python_loop_it_replaced(bot, seat, players, reward):
    tribes = list(DEFAULT_TRIBES[:players])
    env = TribesEnv(map_size=8, players=tribes, opponent=bot, learner_seat=seat, reward=reward, max_turns=8,
                    info_mode="debug")
    ref = GameEnv(seed=7, map_size=8, players=tribes, max_turns=8)
    score_delta = reward == "score_delta"
    rng = np.random.default_rng(3)
    obs, info = env.reset(seed=7)
    assert info["opponent_actions"] == _reference_opponents(ref, seat, bot)
    terminated = False
    while not terminated:
        assert env.game.to_bytes() == ref.to_bytes()
        assert env.game.native.journal_bytes() == ref.native.journal_bytes()
        expected = ref.observe(seat, max_actions=env.max_actions)
        np.testing.assert_array_equal(obs["map_tokens"], expected["map_tokens"])
        np.testing.assert_array_equal(obs["state"], expected["state"])
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        before = ref.score_margin(seat) if score_delta else 0
        ref.step(action)
        applied = _reference_opponents(ref, seat, bot)
        obs, r, terminated, _, info = env.step(action)
        assert info["opponent_actions"] == applied
        assert r == _reference_reward(ref, seat, before, score_delta)
    assert env.game.to_bytes() == ref.to_bytes()
