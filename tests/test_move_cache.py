"""The move cache (MoveCache, keyed by the state's move epoch) is exact: the legal list
GameEnv serves (cached reach) equals a list computed from scratch, at every step of
random games on generated and water-heavy maps, with and without fog."""

import numpy as np
import pytest

import polyenv
from polyenv import GameEnv

TRIBES = (polyenv.Bardur, polyenv.Imperius, polyenv.Oumaji, polyenv.Kickoo)


def assert_cache_exact(game: GameEnv, rng: np.random.Generator, steps: int) -> int:
    checked = 0
    for _ in range(steps):
        if game.game_over:
            break
        cached = game.legal_actions()
        fresh = game._game.legal_actions_uncached()
        assert np.array_equal(cached, fresh), f"cache differs after {game.actions_applied} actions"
        game.step(int(cached[rng.integers(len(cached))]))
        checked += 1
    return checked


@pytest.mark.parametrize("seed,map_size,players,full", [(1, 11, 2, False), (2, 11, 2, True), (3, 14, 4, False)])
def test_cached_legal_list_equals_fresh_list(seed, map_size, players, full):
    game = GameEnv(seed=seed, map_size=map_size, players=TRIBES[:players], full_observability=full)
    assert assert_cache_exact(game, np.random.default_rng(seed), 1500) > 100


def test_cache_exact_on_a_water_map_with_boats():
    level = polyenv.__path__[0] + "/levels/archipelago_14.csv"
    game = GameEnv(seed=4, level=level, players=None)
    for tribe_player in range(game.num_players):
        for tech in ("sailing", "navigation", "roads"):
            game.grant_tech(tribe_player, tech)
    assert assert_cache_exact(game, np.random.default_rng(4), 1500) > 100
