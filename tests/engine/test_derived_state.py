"""Derived engine state travels with the value: a copied or restored game continues exactly as the original.

The engine keeps a few derived facts between actions (the candidates for new observed unit ids, the
cached territory and road candidates of the legal list), outside equality and serialization. A clone
carries them; a state restored from bytes starts without them (everything is checked once). Either
way, the same actions must give the same states and the same legal lists as the original game.
"""

import numpy as np
import pytest

import polyenv
from polyenv import GameEnv

PLAYERS = {2: (polyenv.Bardur, polyenv.Imperius), 4: (polyenv.XinXi, polyenv.Imperius, polyenv.Bardur, polyenv.Oumaji)}


@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize("players,map_size", [(2, 11), (4, 16)])
def test_clone_and_restored_state_continue_like_the_original(players, map_size, full):
    rng = np.random.default_rng(players * 10 + full)
    for game in range(3):
        env = GameEnv(seed=game, map_size=map_size, players=PLAYERS[players], full_observability=full)
        for _ in range(int(rng.integers(20, 200))):  # a position somewhere in the game
            if env.game_over:
                break
            legal = env.legal_actions()
            env.step(int(legal[rng.integers(len(legal))]))
        copies = [env.clone(), GameEnv.from_bytes(env.to_bytes())]
        steps = 0
        while not env.game_over and steps < 400:
            legal = env.legal_actions()
            for other in copies:
                assert np.array_equal(other.legal_actions(), legal)
            action = int(legal[rng.integers(len(legal))])
            for g in (env, *copies):
                g.step(action)
            for other in copies:
                assert other == env
            steps += 1
        env.check_invariants()
