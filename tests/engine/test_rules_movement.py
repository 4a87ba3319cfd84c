"""Movement rules: RULES.md §6 (step costs, zone of control, roads, blocking)
and the §13 move counts. Board: ``duel(11)`` (capitals in the corners, no units),
the moving unit at the centre (5,5)."""
import pytest

from conftest import area, at, duel, ensure_tech, move, move_targets


def centre_board(terrain="plain"):
    env = duel(11, terrain=terrain)
    if terrain != "plain":
        env.set_terrain(at(env, 5, 5), "plain")
    return env, at(env, 5, 5)


def test_warrior_moves_8_on_open_plain():
    # RULES §13: moves on open plain (2*MOV+1)^2 - 1 = 8 for MOV 1
    env, c = centre_board()
    env.place_unit(0, "warrior", c)
    assert move_targets(env, c) == area(env, c, 1) - {c}


def test_rider_reaches_24_on_open_plain():
    # RULES §6: "a Rider on open plain reaches 24 tiles (forest included)"
    env, c = centre_board()
    env.place_unit(0, "rider", c)
    assert move_targets(env, c) == area(env, c, 2) - {c}
    assert len(move_targets(env, c)) == 24


def test_rider_reaches_24_with_forest_next_to_it():
    # RULES §6: "reaches 24 tiles (forest included)": a forest tile is a destination; the tiles behind
    # it are reached around it
    env, c = centre_board()
    env.set_terrain(at(env, 5, 6), "forest")
    env.place_unit(0, "rider", c)
    assert len(move_targets(env, c)) == 24


def test_knight_reaches_48_on_open_plain():
    # RULES §13: 48 for MOV 3
    env, c = centre_board()
    env.place_unit(0, "knight", c)
    assert len(move_targets(env, c)) == 48


def test_rider_zone_of_control_19():
    # RULES §6: "with an enemy 2 tiles away it reaches 19". Assumption: the enemy is 2 tiles away in a
    # straight line, (5,7) for a Rider on (5,5) (a diagonal enemy at (7,7) would give 23). The enemy's
    # tile is not a destination, and the 5 tiles of ring 2 next to it are reachable only through tiles
    # next to the enemy, where movement ends.
    env, c = centre_board()
    env.place_unit(0, "rider", c)
    env.place_unit(1, "warrior", at(env, 5, 7))
    targets = move_targets(env, c)
    assert len(targets) == 19
    cut_off = {at(env, x, 7) for x in range(3, 8)}
    assert targets == (area(env, c, 2) - {c}) - cut_off


def test_forest_ends_movement():
    # RULES §6: "forest, mountain: all remaining movement, so the move ends there"
    env, c = centre_board("forest")
    env.place_unit(0, "rider", c)
    assert move_targets(env, c) == area(env, c, 1) - {c}


def test_mountain_ends_movement_with_climbing():
    # RULES §6: mountain costs all remaining movement (needs Climbing)
    env, c = centre_board("mountain")
    ensure_tech(env, 0, "climbing")
    env.place_unit(0, "rider", c)
    assert move_targets(env, c) == area(env, c, 1) - {c}


def test_mountains_need_climbing():
    # RULES §6: "Always blocked: mountains without Climbing"; §4 Climbing: move onto mountains
    env, c = centre_board()
    m = at(env, 5, 6)
    env.set_terrain(m, "mountain")
    env.place_unit(0, "warrior", c)
    assert "climbing" not in env.player(0)["techs"]
    assert m not in move_targets(env, c)
    assert len(move_targets(env, c)) == 7
    env.grant_tech(0, "climbing")
    assert m in move_targets(env, c)


def test_warrior_on_3_tile_road_reaches_11():
    # RULES §6: road steps cost 0.5; "A step is allowed if floor(c + step) <= MOV ... checked: a Warrior
    # on a 3-tile road reaches 11 tiles." Configuration (assumption, the one that gives 11): a straight
    # road (5,5)-(5,6)-(5,7) on neutral open plain with the Warrior on its end (5,5).
    # (5,6) costs 0.5, (5,7) 1.0, and from (5,6) a plain step costs 1.5 (floor 1): (4,7), (6,7).
    # 8 neighbours + (5,7) + (4,7) + (6,7) = 11. (Warrior in the middle of the road would give 14.)
    env, c = centre_board()
    for y in (5, 6, 7):
        env.set_road(at(env, 5, y))
    env.place_unit(0, "warrior", c)
    targets = move_targets(env, c)
    assert targets == (area(env, c, 1) - {c}) | {at(env, 5, 7), at(env, 4, 7), at(env, 6, 7)}
    assert len(targets) == 11


def test_road_move_lands_on_road_end():
    # RULES §6: the Warrior can reach the far end of the 3-tile road in one move
    env, c = centre_board()
    for y in (5, 6, 7):
        env.set_road(at(env, 5, y))
    env.place_unit(0, "warrior", c)
    move(env, c, at(env, 5, 7))
    assert env.unit_at(at(env, 5, 7))["type"] == "warrior"
    assert env.unit_at(c) is None


def test_road_search_stops_when_movement_is_spent():
    """Rule (Tribes' StepMove.getNeighbours, not spelled out in RULES.md §6): "once the movement spent
    equals MOV exactly, the search stops there; a road step cannot continue from that tile".
    A Warrior on its own capital (5,5) with roads on (5,6), (5,7), (5,8): (5,6) costs 0.5, (5,7) 1.0 =
    MOV, so (5,8) is out of reach although floor(1.5) <= 1."""
    env = duel(11, p0_city=(5, 5))
    c = at(env, 5, 5)
    for y in (6, 7, 8):
        env.set_road(at(env, 5, y))
    env.place_unit(0, "warrior", c)
    targets = move_targets(env, c)
    assert at(env, 5, 7) in targets
    assert at(env, 5, 8) not in targets
    assert targets == (area(env, c, 1) - {c}) | {at(env, 5, 7), at(env, 4, 7), at(env, 6, 7)}


def test_move_ending_step_after_spending_more_than_mov_costs_mov():
    """RULES §6: forest "all remaining movement (MOV − c)"; roads "max(0.5, cost/2)"; "floor(c + step) ≤ MOV".
    Tribes' StepMove charges MOV (not MOV − c) when c already exceeds MOV, which the floor test allows.
    A Rider (MOV 2) on a road (5,0)-(5,5) with forests on (5,2) and (5,5): (5,1) 0.5, (5,2) 0.5 + 0.75,
    (5,3) 1.75, (5,4) 2.25; the forest (5,5) then costs max(0.5, 2/2) = 1 -> 3.25, out of reach."""
    env = duel(11, p0_city=(0, 10), p1_city=(10, 10))
    for y in range(6):
        env.set_road(at(env, 5, y))
    for y in (2, 5):
        env.set_terrain(at(env, 5, y), "forest")
    env.place_unit(0, "rider", at(env, 5, 0))
    targets = move_targets(env, at(env, 5, 0))
    assert at(env, 5, 4) in targets
    assert at(env, 5, 5) not in targets


def test_reach_follows_the_cheapest_cost_of_each_tile():
    """RULES §6: "Search: Dijkstra over 8-neighbours with budget MOV"; the search stops at a tile reached
    with exactly MOV spent (Tribes' StepMove). A Knight (MOV 3) on a road at (5,0) reaches (5,4) in four
    costly forest-road steps (1.5, 2.25, 2.75, then 3.25) or in six cheap road steps (3.0). Its cost is the
    cheaper 3.0, where the search stops, so (4,5), reachable only from (5,4), is out of reach — even though
    the costlier 3.25 would have allowed one more road step (floor(3.75) <= 3)."""
    env = duel(11, p0_city=(0, 10), p1_city=(10, 10))
    T = lambda x, y: at(env, x, y)  # noqa: E731
    k, p, target = T(5, 0), T(5, 4), T(4, 5)
    forest = [T(4, 1), T(3, 2), T(4, 3)]
    path = [k, *forest, T(6, 1), T(7, 2), T(8, 3), T(7, 4), T(6, 5), p, target]
    for t in range(env.num_tiles):  # everything else is a mountain, impassable without Climbing
        if t not in path and env.city_at(t) is None:
            env.set_terrain(t, "mountain")
    for t in path:
        env.set_road(t)
    for t in forest:
        env.set_terrain(t, "forest")
    env.place_unit(0, "knight", k)
    targets = move_targets(env, k)
    assert p in targets
    assert target not in targets


def test_zone_of_control_on_a_road_ends_the_move():
    """RULES §6: a step into zone of control "costs all remaining movement" — the road discount does not
    apply to it (Tribes sets the ZoC cost after halving). Road (5,5)-(5,6)-(5,7), Warrior on (5,5), enemy
    on (6,5): (5,6) is in its zone of control, so the Warrior stops there and (5,7) (reachable only
    through (4,6), (5,6) or (6,6), the last two in zone of control) is out of reach."""
    env, c = centre_board()
    for y in (5, 6, 7):
        env.set_road(at(env, 5, y))
    env.place_unit(0, "warrior", c)
    env.place_unit(1, "warrior", at(env, 6, 5))
    targets = move_targets(env, c)
    assert at(env, 5, 6) in targets
    assert at(env, 5, 7) not in targets


def test_units_cannot_stack():
    # RULES §6: "The destination must be empty (no unit of any tribe)"
    env, c = centre_board()
    env.place_unit(0, "warrior", c)
    env.place_unit(0, "warrior", at(env, 5, 6))
    env.place_unit(1, "warrior", at(env, 4, 4))
    targets = move_targets(env, c)
    assert at(env, 5, 6) not in targets and at(env, 4, 4) not in targets
    with pytest.raises(ValueError):
        env.place_unit(0, "warrior", at(env, 5, 6))


def corridor_board():
    """Mountains (no Climbing) everywhere except the row-5 corridor (5,2)..(5,8)."""
    env = duel(11, terrain="mountain")
    for y in range(2, 9):
        env.set_terrain(at(env, 5, y), "plain")
    return env


def test_friendly_units_do_not_block_paths():
    # RULES §6: "paths may cross friendly units"
    env = corridor_board()
    env.place_unit(0, "rider", at(env, 5, 3))
    env.place_unit(0, "warrior", at(env, 5, 4))
    assert move_targets(env, at(env, 5, 3)) == {at(env, 5, 2), at(env, 5, 5)}


def test_enemy_units_block_paths():
    # RULES §6: "paths may cross friendly units, never enemy ones"
    env = corridor_board()
    env.place_unit(0, "rider", at(env, 5, 3))
    env.place_unit(1, "warrior", at(env, 5, 4))
    assert move_targets(env, at(env, 5, 3)) == {at(env, 5, 2)}


def test_zone_of_control_ends_move_but_entry_allowed():
    # RULES §6: a tile next to a unit of another tribe costs all remaining movement; always allowed.
    # Rider at (5,3), enemy at (5,6): (5,4) is free of ZoC, (5,5) is next to the enemy and ends the move.
    env = corridor_board()
    env.place_unit(0, "rider", at(env, 5, 3))
    env.place_unit(1, "warrior", at(env, 5, 6))
    assert move_targets(env, at(env, 5, 3)) == {at(env, 5, 2), at(env, 5, 4), at(env, 5, 5)}
