"""The fast legal-action list equals a plain reference enumeration after every action.

``legal_actions`` (unit and city lists, bit-mask pre-filters, framed road searches, the
move cache across actions) is checked against ``legal_actions_reference`` — every
candidate id of every block tested with the rule predicates alone, moves from a
whole-board search — and against the list computed without the move cache, at every
decision of random games: 2 to 16 players, fog and full observability, every shipped
level, and a water map with boats. ``Game.checked_playout`` does the comparison natively
and raises on the first difference (this is the engine's check mode).
"""

from pathlib import Path

import pytest

import polyenv
from polyenv import GameEnv
from polyenv._core import _testing

TRIBES = (polyenv.Bardur, polyenv.Imperius, polyenv.Oumaji, polyenv.Kickoo, polyenv.XinXi, polyenv.Hoodrick,
          polyenv.Luxidoor, polyenv.Vengir, polyenv.Zebasi, polyenv.AiMo, polyenv.Quetzali, polyenv.Yadakk)
LEVELS = sorted((Path(polyenv.__path__[0]) / "levels").glob("*.csv"))


def tribes(n: int) -> tuple:
    return tuple(TRIBES[i % len(TRIBES)] for i in range(n))


def check_games(env: GameEnv, games: int, max_actions: int) -> int:
    checked = 0
    for g in range(games):
        env.reset(seed=g)
        checked += _testing.checked_playout(env._game, max_actions, 100 + g)
    return checked


@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize("players,map_size,games,max_actions", [
    (2, 11, 30, -1), (3, 14, 10, -1), (4, 16, 8, -1), (8, 24, 3, 4000), (16, 32, 2, 4000)])
def test_generated_games(players, map_size, games, max_actions, full):
    env = GameEnv(seed=players, map_size=map_size, players=tribes(players), full_observability=full)
    assert check_games(env, games, max_actions) > 300


@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize("level", LEVELS, ids=[p.stem for p in LEVELS])
def test_shipped_levels(level, full):
    env = GameEnv(seed=3, level=str(level), players=None, full_observability=full)
    assert check_games(env, 8, 4000) >= 8  # minimal.csv: a one-tribe board, over in two decisions


def test_water_map_with_boats_and_roads():
    env = GameEnv(seed=4, level=str(Path(polyenv.__path__[0]) / "levels" / "archipelago_14.csv"), players=None)
    for player in range(env.num_players):
        for tech in ("sailing", "navigation", "roads", "climbing"):
            env.grant_tech(player, tech)
    assert _testing.checked_playout(env._game, 4000, 7) > 300


def test_reference_agrees_on_a_fresh_game():
    env = GameEnv(seed=1)
    assert list(_testing.legal_actions_reference(env._game)) == list(env.legal_actions())


MOVEMENT_ONE_MIX = ("warrior", "mind_bender", "defender", "rider")


def random_road_board(rng, full: bool, units=MOVEMENT_ONE_MIX) -> GameEnv:
    """A small blank board dense with the cases of movement-1 reach: roads on plains and forests
    (half-step road steps, forest roads that end the move), mountains, ports on shallow water,
    cities of both tribes (Mind Benders never enter the other's), the other tribe's units (zone
    of control, blocking) and, under fog, partly explored tiles."""
    n = 9
    env = GameEnv.blank(n, (polyenv.Bardur, polyenv.Imperius), seed=int(rng.integers(1 << 30)),
                        revealed=full, full_observability=full)
    for tech in ("roads", "sailing", "climbing"):
        if rng.random() < 0.7:
            env.grant_tech(0, tech)
    free = list(range(n * n))
    rng.shuffle(free)
    for player in range(2):  # one city each, far enough apart not to touch
        env.place_city(player, (2 + 4 * player) * n + 2 + 4 * player)
        free.remove((2 + 4 * player) * n + 2 + 4 * player)
    mountains = set()
    for t in free[:]:
        r = rng.random()
        if r < 0.15:
            env.set_terrain(t, "forest")
        elif r < 0.22:
            env.set_terrain(t, "mountain")
            mountains.add(t)
        elif r < 0.30:
            env.set_terrain(t, "shallow_water")
            if rng.random() < 0.7:
                try:
                    env.set_building(t, "port")
                except ValueError:  # outside every city's territory
                    pass
            free.remove(t)
    for t in free:
        if t not in mountains and rng.random() < 0.45:
            env.set_road(t)
    rng.shuffle(free)
    for i, t in enumerate(free[:int(rng.integers(4, 14))]):
        unit = units[int(rng.integers(len(units)))]
        env.place_unit(0 if i % 3 else 1, unit, t)
    if not full:
        env.reveal(0, [t for t in range(n * n) if rng.random() < 0.8])
    return env


@pytest.mark.parametrize("full", [False, True])
def test_movement_one_reach_on_road_boards(full):
    """Movement-1 reach (computed in closed form, not searched) on road-dense scenario boards."""
    import numpy as np
    rng = np.random.default_rng(11 if full else 12)
    moves = 0
    for _ in range(150):
        env = random_road_board(rng, full)
        legal = list(env.legal_actions())
        assert list(_testing.legal_actions_reference(env._game)) == legal
        moves += len(legal)
    assert moves > 1000


@pytest.mark.parametrize("full", [False, True])
def test_movement_two_three_reach_on_road_boards(full):
    """Riders and knights (the road Dijkstra with its bucket queue, and the pre-test that sends
    units with no usable road step to the layered search) on the same road-dense boards."""
    import numpy as np
    rng = np.random.default_rng(21 if full else 22)
    moves = 0
    for _ in range(150):
        env = random_road_board(rng, full, units=("rider", "knight", "knight", "warrior", "mind_bender"))
        legal = list(env.legal_actions())
        assert list(_testing.legal_actions_reference(env._game)) == legal
        moves += len(legal)
    assert moves > 1000


def test_road_step_dearer_than_a_move_ending_step():
    """A road step costs at least half a step, so with less than half a step left a move-ending
    step onto a forest road costs less without the road discount than with it. A rider (MOV 2) on
    a corridor through mountains: start S and R1 plain roads, F a forest road (half of the 1.5 left:
    1.25 spent), A and B plain roads next to F (1.75: B lies in the other tribe's territory, so no
    road step starts there), X a forest road next to both, Y a plain road next to X only. From B, X
    costs the 0.25 left (2.0 = MOV, not expanded); from A the road step costs 0.5 (2.25, which
    would expand and reach Y). The cheaper label settles X, so Y is out of reach."""
    n = 9
    env = GameEnv.blank(n, (polyenv.Bardur, polyenv.Imperius), terrain="mountain")
    corridor = {(4, 0): "plain", (4, 1): "plain", (4, 2): "forest", (3, 3): "plain", (5, 3): "plain",
                (4, 4): "forest", (4, 5): "plain"}
    for (x, y), terrain in corridor.items():
        env.set_terrain(x * n + y, terrain)
        env.set_road(x * n + y)
    env.set_terrain(6 * n + 3, "plain")
    env.place_city(1, 6 * n + 3)  # its territory holds B
    env.place_unit(0, "rider", 4 * n + 0)
    assert env.tile(5 * n + 3)["owner"] == 1 and env.tile(3 * n + 3)["owner"] == -1
    legal = list(env.legal_actions())
    assert list(_testing.legal_actions_reference(env._game)) == legal
    described = [env._game.describe_action(int(i)) for i in legal]
    destinations = {d.split("-> ")[-1] for d in described if d.startswith("move")}
    assert {"(4,4)", "(3,3)", "(5,3)"} <= destinations and "(4,5)" not in destinations


def test_recorded_games_with_road_steps_near_the_end_of_the_movement():
    """Two generated games in which the searches once disagreed with the reference: a rider whose
    forest road tile was reached at exactly MOV without the discount (2 players, 11x11, fog), and a
    knight behind a tile first reached above MOV (4 players, 16x16, fog; the reference then let
    that label expand, where the Dijkstra of RULES §6 expands each tile once, at its least label)."""
    four = (polyenv.Bardur, polyenv.Imperius, polyenv.Oumaji, polyenv.XinXi)
    for players, size, game in ((2, 11, 22), (4, 16, 5)):
        env = GameEnv(seed=0, map_size=size, players=four[:players], full_observability=False)
        env.reset(seed=5000 + game)
        assert _testing.checked_playout(env._game, -1, 7000 + game) > 400
