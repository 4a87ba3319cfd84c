"""The move cache (MoveCache, keyed by the state's move epoch) is exact: the legal list
GameEnv serves (cached reach) equals a list computed from scratch, at every step of
random games on generated and water-heavy maps, with and without fog."""

import numpy as np
import pytest

import polyenv
from polyenv import GameEnv
from polyenv._core import _testing

TRIBES = (polyenv.Bardur, polyenv.Imperius, polyenv.Oumaji, polyenv.Kickoo)


def assert_cache_exact(game: GameEnv, rng: np.random.Generator, steps: int) -> int:
    checked = 0
    for _ in range(steps):
        if game.game_over:
            break
        cached = game.legal_actions()
        fresh = _testing.legal_actions_uncached(game._game)
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


def test_cache_follows_scenario_edits_of_the_territory():
    """The build and tile-action blocks are kept between lists (TileScan, keyed by the territory
    and tile epochs and what the tribe may afford): every edit of a territory tile's terrain,
    resource or building, of the tribe's stars or techs, between two cached lists, shows in the
    next list exactly as in a list computed from scratch."""
    game = GameEnv(seed=5, map_size=11, players=TRIBES[:2], full_observability=True)
    rng = np.random.default_rng(5)
    player = game.current_player
    for tech in polyenv.TECHS:
        game.grant_tech(player, tech)
    game.set_stars(player, 40)
    n = game.map_size
    territory = [t for t in range(n * n) if game.tile(t)["owner"] == player and game.tile(t)["terrain"] != "city"]
    assert territory, "the current tribe owns territory"
    edits = [
        lambda t: game.set_terrain(t, "forest"),
        lambda t: game.set_terrain(t, "plain"),
        lambda t: game.set_terrain(t, "mountain"),
        lambda t: game.set_resource(t, "crops"),
        lambda t: game.set_resource(t, "ore"),
        lambda t: game.set_resource(t, None),
        lambda t: game.set_building(t, "farm"),
        lambda t: game.set_building(t, "temple"),
        lambda t: game.set_stars(player, int(rng.integers(0, 30))),
    ]
    changed = 0
    for _ in range(200):
        before = game.legal_actions()
        tile = int(rng.choice(territory))
        try:
            edits[int(rng.integers(len(edits)))](tile)
        except ValueError:
            continue  # an edit the tile does not allow (a unit on it, a building already there)
        cached = game.legal_actions()
        assert np.array_equal(cached, _testing.legal_actions_uncached(game._game))
        changed += not np.array_equal(before, cached)
    assert changed > 50


def test_movement_follows_scenario_edits_of_tiles_and_units():
    """The movement search reads the board as bitsets kept in the state (terrain, ports, roads,
    road links, territory, each tribe's units) and the acting tribe's classes kept per move epoch
    (MoveBoards). After every scenario edit of any of them near the acting tribe's units — terrain,
    ports, roads, cities, units placed and removed, techs, the tribe to act — the bitsets must
    match the tiles (check_invariants) and the cached list must equal the plain reference
    (tile-by-tile classification and search) and a list computed without a cache."""
    game = GameEnv(seed=9, map_size=11, players=TRIBES[:2], full_observability=False)
    rng = np.random.default_rng(9)
    n = game.map_size
    for player in range(2):
        game.reveal(player)
        for tech in ("riding", "roads", "sailing", "navigation", "climbing", "chivalry", "philosophy"):
            game.grant_tech(player, tech)
    terrains = ["plain", "forest", "mountain", "shallow_water", "deep_water"]
    units = ["warrior", "rider", "knight", "mind_bender", "boat", "ship"]

    def near_units() -> list[int]:
        tiles = [t for t in range(n * n) if game._game.unit_at(t) is not None]
        around = {x * n + y for t in tiles for x in range(max(t // n - 3, 0), min(t // n + 4, n))
                  for y in range(max(t % n - 3, 0), min(t % n + 4, n))}
        return sorted(around)

    edits = [
        lambda t: game.set_terrain(t, terrains[int(rng.integers(len(terrains)))]),
        lambda t: game.set_road(t),
        lambda t: game.set_building(t, "port"),
        lambda t: game.place_city(int(rng.integers(2)), t),
        lambda t: game.place_unit(int(rng.integers(2)), units[int(rng.integers(len(units)))], t),
        lambda t: game.remove_unit(t),
        lambda t: game.set_current_player(int(rng.integers(2))),
    ]
    applied = 0
    for _ in range(400):
        tile = int(rng.choice(near_units()))
        try:
            edits[int(rng.integers(len(edits)))](tile)
        except ValueError:
            continue  # an edit the tile does not allow
        applied += 1
        game.check_invariants()
        cached = game.legal_actions()
        assert np.array_equal(cached, _testing.legal_actions_reference(game._game)), f"after {applied} edits"
        assert np.array_equal(cached, _testing.legal_actions_uncached(game._game))
        if rng.random() < 0.3 and not game.game_over:  # and some play in between
            game.step(int(cached[rng.integers(len(cached))]))
    assert applied > 150
