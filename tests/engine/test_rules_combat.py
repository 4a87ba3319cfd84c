"""Combat rules: RULES.md §5 (turn patterns, veterans), §7 (formula, defence
multipliers, range, retaliation, kills) and the hand-computed §14 scenarios.

Board: ``duel(8)`` (capitals at (0,0) and (7,7)); fights happen on row 3,
away from both territories, with player 0 attacking player 1.
"""
import pytest

from polyenv import Bardur, GameEnv, Imperius

from conftest import act, at, attack, duel, end_turn, ensure_tech, hp, is_legal, move, move_targets


def board(map_size=8):
    env = duel(map_size)
    return env, (lambda x, y: at(env, x, y))


def score(env, p):
    return env.player(p)["score"]


# ---------------------------------------------------------------- §14 scenarios

def test_scenario_01_warrior_attacks_warrior():
    # RULES §14 #1: Warrior attacks Warrior: 2, 2, 4 -> 4.5->5, 4.5->5: defender 10->5, attacker 10->5
    env, T = board()
    env.place_unit(0, "warrior", T(3, 3))
    env.place_unit(1, "warrior", T(3, 4))
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == 5
    assert hp(env, T(3, 3)) == 5


def test_scenario_02_warrior_attacks_defender_on_forest_with_archery():
    # RULES §14 #2: Warrior attacks Defender on forest, defender's tribe has Archery:
    # 2, 4.5, 6.5 -> 2.769->3, 9.346->9: Defender 15->12, Warrior 10->1
    env, T = board()
    env.set_terrain(T(3, 4), "forest")
    ensure_tech(env, 1, "archery")
    env.place_unit(0, "warrior", T(3, 3))
    env.place_unit(1, "defender", T(3, 4))
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == 12
    assert hp(env, T(3, 3)) == 1


def test_scenario_02_without_archery_no_forest_bonus():
    # RULES §14 #2: without Archery: 3.6->4, 8.1->8 (15->11, 10->2).
    # §7 table: the bonus depends on the *defender's* tribe, so the attacker's Archery does not count.
    env, T = board()
    env.set_terrain(T(3, 4), "forest")
    ensure_tech(env, 0, "archery")
    env.place_unit(0, "warrior", T(3, 3))
    env.place_unit(1, "defender", T(3, 4))
    assert "archery" not in env.player(1)["techs"]
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == 11
    assert hp(env, T(3, 3)) == 2


def test_scenario_03_archer_at_distance_2_no_retaliation():
    # RULES §14 #3: Archer at distance 2 attacks Warrior: 4.5->5, no retaliation:
    # Warrior 10->5; Archer untouched (distance 2 > range 1)
    env, T = board()
    env.place_unit(0, "archer", T(3, 2))
    env.place_unit(1, "warrior", T(3, 4))
    attack(env, T(3, 2), T(3, 4))
    assert hp(env, T(3, 4)) == 5
    assert hp(env, T(3, 2)) == 10


def test_scenario_04_catapult_at_distance_3_kills_and_stays():
    # RULES §14 #4: Catapult at distance 3 attacks Warrior: 4, 2, 6 -> 12: Warrior dies; the Catapult stays put
    # §7 resolution 2: attacker and its tribe each gain a kill; the dead unit's points (Warrior 10) come off
    env, T = board()
    env.place_unit(0, "catapult", T(3, 1))
    env.place_unit(1, "warrior", T(3, 4))
    s1 = score(env, 1)
    attack(env, T(3, 1), T(3, 4))
    assert env.unit_at(T(3, 4)) is None
    cat = env.unit_at(T(3, 1))
    assert cat is not None and cat["type"] == "catapult" and cat["hp"] == 10
    assert cat["kills"] == 1
    assert env.player(0)["kills"] == 1
    assert score(env, 1) == s1 - 10


def test_scenario_05_knight_persist_kills_twice_and_moves_in():
    # RULES §14 #5: Knight attacks Warrior at 3/10: 4, 0.6, 4.6 -> 15.652->16: kill; the Knight moves in
    # with status ATTACKED, then kills a second full Warrior (4, 2, 6: 12 dealt) and moves in again.
    # §5 persist: each kill sets ATTACKED; it never moves after attacking.
    env, T = board()
    env.place_unit(0, "knight", T(3, 2))
    env.place_unit(1, "warrior", T(3, 3), hp=3)
    env.place_unit(1, "warrior", T(3, 4))
    attack(env, T(3, 2), T(3, 3))
    assert env.unit_at(T(3, 2)) is None
    knight = env.unit_at(T(3, 3))
    assert knight["type"] == "knight" and knight["owner"] == 0
    assert knight["status"] == "attacked"
    assert move_targets(env, T(3, 3)) == set()
    attack(env, T(3, 3), T(3, 4))
    knight = env.unit_at(T(3, 4))
    assert knight is not None and knight["type"] == "knight"
    assert knight["hp"] == 15  # no retaliation from a dead unit
    assert knight["kills"] == 2 and env.player(0)["kills"] == 2
    assert knight["status"] == "attacked"
    assert move_targets(env, T(3, 4)) == set()


def test_knight_attack_without_kill_finishes():
    # RULES §5 persist: "as dash, but each kill sets ATTACKED" -> an attack that does not kill finishes it
    env, T = board()
    env.place_unit(0, "knight", T(3, 3))
    env.place_unit(1, "defender", T(3, 4))
    attack(env, T(3, 3), T(3, 4))
    assert env.unit_at(T(3, 4)) is not None
    assert env.unit_at(T(3, 3))["status"] == "finished"


def test_scenario_06_swordsman_attacks_warrior_in_own_city():
    # RULES §14 #6: Swordsman attacks Warrior in the Warrior's own city, no walls (fortify x1.5):
    # 3, 3, 6 -> 6.75->7, 4.5->5: Warrior 10->3, Swordsman 15->10
    env, T = board()
    env.place_city(1, T(3, 4))
    env.place_unit(0, "swordsman", T(3, 3))
    env.place_unit(1, "warrior", T(3, 4))
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == 3
    assert hp(env, T(3, 3)) == 10


def test_scenario_07_weak_attacker_dies_defender_gets_kill():
    # RULES §14 #7: Warrior at 5/10 attacks Warrior: 1, 2, 3 -> 3, 6: defender 10->7; the attacker goes
    # 5->-1 and dies; the defender gets a kill.
    env, T = board()
    env.place_unit(0, "warrior", T(3, 3), hp=5)
    env.place_unit(1, "warrior", T(3, 4))
    s0 = score(env, 0)
    attack(env, T(3, 3), T(3, 4))
    assert env.unit_at(T(3, 3)) is None
    d = env.unit_at(T(3, 4))
    assert d["hp"] == 7
    assert d["kills"] == 1  # "the defender gets a kill" (the unit; RULES does not say its tribe does)
    assert env.player(0)["kills"] == 0
    assert score(env, 0) == s0 - 10  # §12.3: unit killed -> minus its points


def test_scenario_08_defender_attacks_archer_on_mountain_with_meditation():
    # RULES §14 #8: Defender attacks Archer on a mountain, Archer's tribe has Meditation:
    # 1, 1.5, 2.5 -> 1.8->2, 2.7->3: Archer 10->8; the Archer retaliates (distance 1 <= range 2): Defender 15->12
    env, T = board()
    env.set_terrain(T(3, 4), "mountain")
    ensure_tech(env, 1, "climbing", "meditation")
    env.place_unit(0, "defender", T(3, 3))
    env.place_unit(1, "archer", T(3, 4))
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == 8
    assert hp(env, T(3, 3)) == 12


def test_scenario_09_giant_attacks_defender_in_walled_city():
    # RULES §14 #9: Giant attacks Defender in a walled city (x4): 5, 12, 17 -> 6.618->7, 9.529->10:
    # Defender 15->8, Giant 40->30
    env, T = board()
    env.place_city(1, T(3, 4), walls=True)
    env.place_unit(0, "giant", T(3, 3))
    env.place_unit(1, "defender", T(3, 4))
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == 8
    assert hp(env, T(3, 3)) == 30


def test_scenario_10_warrior_dies_on_walled_city():
    # RULES §14 #10: Warrior attacks Defender in a walled city: 2, 12, 14 -> 1.286->1, 11.571->12:
    # Defender 15->14; the Warrior dies
    env, T = board()
    env.place_city(1, T(3, 4), walls=True)
    env.place_unit(0, "warrior", T(3, 3))
    env.place_unit(1, "defender", T(3, 4))
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == 14
    assert env.unit_at(T(3, 3)) is None
    assert env.unit_at(T(3, 4))["kills"] == 1


@pytest.mark.parametrize("in_own_city", [False, True])
def test_scenario_11_warrior_attacks_catapult(in_own_city):
    # RULES §14 #11: Warrior attacks Catapult (DEF 0) on plain, or in the Catapult's own city without
    # walls (it cannot fortify): 2, 0, 2 -> 9, 0: Catapult 10->1, Warrior untouched
    env, T = board()
    if in_own_city:
        env.place_city(1, T(3, 4))
    env.place_unit(0, "warrior", T(3, 3))
    env.place_unit(1, "catapult", T(3, 4))
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == 1
    assert hp(env, T(3, 3)) == 10


def _assert_naval(env, tile, expected_type):
    # place_unit must put a boat carrying a 10/10 Warrior (issue 3); a regression fails here.
    u = env.unit_at(tile)
    assert u is not None and u["type"] == expected_type and u["carried"] == "warrior" and u["max_hp"] == 10, u


def test_scenario_12_battleship_sinks_boat():
    # RULES §14 #12: Battleship (carrying a Warrior, 10/10) at distance 2 attacks Boat (10/10) on water,
    # Boat's tribe has Aquatism: 4, 1.5, 5.5 -> 13.09->13: Boat dies; the Battleship stays
    env, T = board()
    for y in range(1, 6):
        env.set_terrain(T(3, y), "shallow_water")
    ensure_tech(env, 0, "fishing", "sailing", "navigation")
    ensure_tech(env, 1, "fishing", "sailing", "whaling", "aquatism")
    env.place_unit(0, "battleship", T(3, 2))
    env.place_unit(1, "boat", T(3, 4))
    _assert_naval(env, T(3, 2), "battleship")
    _assert_naval(env, T(3, 4), "boat")
    s1 = env.player(1)["score"]
    attack(env, T(3, 2), T(3, 4))
    assert env.unit_at(T(3, 4)) is None
    assert env.unit_at(T(3, 2))["type"] == "battleship"
    assert env.unit_at(T(3, 2))["hp"] == 10
    assert env.player(1)["score"] == s1  # §5: a killed boat costs 0 score


def test_scenario_13_ship_attacks_defender_on_land():
    # RULES §14 #13: Ship (carrying a Warrior, 10/10) on water attacks an adjacent Defender on plain:
    # 2, 3, 5 -> 3.6->4, 8.1->8: Defender 15->11, Ship 10->2
    env, T = board()
    env.set_terrain(T(3, 3), "shallow_water")
    ensure_tech(env, 0, "fishing", "sailing")
    env.place_unit(0, "ship", T(3, 3))
    env.place_unit(1, "defender", T(3, 4))
    _assert_naval(env, T(3, 3), "ship")
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == 11
    assert hp(env, T(3, 3)) == 2


def test_scenario_14_warrior_attacks_damaged_defender():
    # RULES §14 #14: Warrior attacks Defender at 8/15: 2, 1.6, 3.6 -> 5.0->5, 6.0->6: Defender 8->3, Warrior 10->4
    env, T = board()
    env.place_unit(0, "warrior", T(3, 3))
    env.place_unit(1, "defender", T(3, 4), hp=8)
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == 3
    assert hp(env, T(3, 3)) == 4


# ---------------------------------------------------------------- §7 defence multipliers

def test_enemy_city_tile_gives_no_bonus_even_with_walls():
    # RULES §7 B table: "City tile not owned by the defender's tribe | 1.0 (no terrain bonus either)".
    # A p1 Warrior on p0's walled city fights like scenario #1: 10->5 both.
    env, T = board()
    env.place_city(0, T(3, 4), walls=True)
    env.place_unit(0, "warrior", T(3, 3))
    env.place_unit(1, "warrior", T(3, 4))
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == 5
    assert hp(env, T(3, 3)) == 5


def test_village_gives_no_bonus():
    # RULES §7 B table: "Anything else (plain, village, ...) | 1.0" -> same figures as §14 #1
    env, T = board()
    env.set_terrain(T(3, 4), "village")
    env.place_unit(0, "warrior", T(3, 3))
    env.place_unit(1, "warrior", T(3, 4))
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == 5
    assert hp(env, T(3, 3)) == 5


@pytest.mark.parametrize("walls, giant_hp", [(False, 37), (True, 39)])
def test_giant_in_own_city_bonus(walls, giant_hp):
    # RULES §7 B table: own city without walls: Giant (no fortify) 1.0; with walls 4.0 (any unit type).
    # Warrior attacks Giant: no walls aF=2, dF=4, T=6 -> dealt round(2/6*9)=3, retaliation
    # round(4/6*18)=12; walls dF=16, T=18 -> dealt round(2/18*9)=1, retaliation 16. The Warrior dies.
    env, T = board()
    env.place_city(1, T(3, 4), walls=walls)
    env.place_unit(0, "warrior", T(3, 3))
    env.place_unit(1, "giant", T(3, 4))
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == giant_hp
    assert env.unit_at(T(3, 3)) is None


def test_mountain_without_meditation_no_bonus():
    # RULES §7: mountain bonus needs Meditation (≠ game: Climbing). Scenario #8 without Meditation:
    # aF=1, dF=1, T=2 -> dealt round(0.5*1*4.5)=round(2.25)=2, retaliation round(0.5*1*4.5)=2:
    # Archer 10->8, Defender 15->13
    env, T = board()
    env.set_terrain(T(3, 4), "mountain")
    ensure_tech(env, 1, "climbing")
    env.place_unit(0, "defender", T(3, 3))
    env.place_unit(1, "archer", T(3, 4))
    assert "meditation" not in env.player(1)["techs"]
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == 8
    assert hp(env, T(3, 3)) == 13


# ---------------------------------------------------------------- §7 range and retaliation

def test_attack_range():
    # RULES §5/§7: targets within Chebyshev distance <= range: Warrior 1, Archer 2, Catapult 3
    env, T = board()
    env.place_unit(0, "warrior", T(2, 2))
    env.place_unit(0, "archer", T(3, 1))
    env.place_unit(0, "catapult", T(5, 1))
    env.place_unit(1, "warrior", T(2, 4))   # distance 2 from the Warrior, 3 from the Archer
    env.place_unit(1, "warrior", T(3, 4))   # distance 3 from the Archer and from the Catapult
    env.place_unit(1, "warrior", T(5, 4))   # distance 3 from the Catapult
    assert not is_legal(env, "attack", T(2, 2), T(2, 4))
    assert not is_legal(env, "attack", T(3, 1), T(3, 4))
    assert not is_legal(env, "attack", T(3, 1), T(2, 4))
    assert is_legal(env, "attack", T(5, 1), T(5, 4))
    assert is_legal(env, "attack", T(5, 1), T(3, 4))


def test_archer_range_2_attack_is_legal():
    # RULES §5: Archer range 2
    env, T = board()
    env.place_unit(0, "archer", T(3, 2))
    env.place_unit(1, "warrior", T(5, 4))  # diagonal distance 2
    assert is_legal(env, "attack", T(3, 2), T(5, 4))


def test_no_attack_on_own_units():
    # RULES §7 targets: "any unit ... may attack any visible unit of another tribe"
    env, T = board()
    env.place_unit(0, "warrior", T(3, 3))
    env.place_unit(0, "warrior", T(3, 2))
    env.place_unit(1, "warrior", T(3, 4))
    assert not is_legal(env, "attack", T(3, 3), T(3, 2))
    assert is_legal(env, "attack", T(3, 3), T(3, 4))


def test_mind_bender_converts_instead_of_attacking():
    # RULES §7: "any unit except a Mind Bender may attack"; a Mind Bender's action on an adjacent enemy is
    # Convert (the API shares the Attack/Convert id block): the target joins its tribe with its HP and
    # is FINISHED; no damage is dealt either way.
    env, T = board()
    env.place_unit(0, "mind_bender", T(4, 4))
    env.place_unit(1, "warrior", T(3, 4), hp=7)
    act(env, "convert", source=T(4, 4), target=T(3, 4))
    u = env.unit_at(T(3, 4))
    assert u["owner"] == 0 and u["type"] == "warrior" and u["hp"] == 7 and u["status"] == "finished"
    assert hp(env, T(4, 4)) == 10


def test_retaliation_when_target_range_covers_distance():
    # RULES §7 resolution 3: retaliates if the distance <= the *target's* range.
    # Archer attacks Archer at distance 2: aF=2, dF=1, T=3 -> dealt round(2/3*2*4.5)=6,
    # retaliation round(1/3*1*4.5)=round(1.5)=2: target 10->4, attacker 10->8
    env, T = board()
    env.place_unit(0, "archer", T(3, 2))
    env.place_unit(1, "archer", T(3, 4))
    attack(env, T(3, 2), T(3, 4))
    assert hp(env, T(3, 4)) == 4
    assert hp(env, T(3, 2)) == 8


# ---------------------------------------------------------------- kills, move-in, ranged stay

def test_melee_kill_moves_in():
    # RULES §5: melee units step into the tile of a unit they kill. Warrior vs Warrior at 3/10:
    # aF=2, dF=0.6 -> dealt round(2/2.6*9)=7 >= 3: kill, the Warrior moves to (3,4), FINISHED (dash)
    env, T = board()
    env.place_unit(0, "warrior", T(3, 3))
    env.place_unit(1, "warrior", T(3, 4), hp=3)
    attack(env, T(3, 3), T(3, 4))
    assert env.unit_at(T(3, 3)) is None
    w = env.unit_at(T(3, 4))
    assert w["owner"] == 0 and w["type"] == "warrior" and w["hp"] == 10
    assert w["kills"] == 1 and env.player(0)["kills"] == 1
    assert w["status"] == "finished"


@pytest.mark.parametrize("climbing", [False, True])
def test_melee_move_in_uses_push_test(climbing):
    # RULES §8.5: "A melee unit's advance after a kill uses the same test on the one target tile":
    # a mountain is usable only with Climbing. (Defender has no Meditation: B = 1, dealt 7 >= 3.)
    env, T = board()
    env.set_terrain(T(3, 4), "mountain")
    ensure_tech(env, 1, "climbing")
    if climbing:
        ensure_tech(env, 0, "climbing")
    env.place_unit(0, "warrior", T(3, 3))
    env.place_unit(1, "warrior", T(3, 4), hp=3)
    attack(env, T(3, 3), T(3, 4))
    if climbing:
        assert env.unit_at(T(3, 3)) is None and env.unit_at(T(3, 4))["owner"] == 0
    else:
        assert env.unit_at(T(3, 4)) is None and env.unit_at(T(3, 3))["owner"] == 0


def test_ranged_kill_stays():
    # RULES §5: Archer is not melee ("the others stay put"). Archer vs adjacent Warrior at 3/10: dealt 7, kill
    env, T = board()
    env.place_unit(0, "archer", T(3, 3))
    env.place_unit(1, "warrior", T(3, 4), hp=3)
    attack(env, T(3, 3), T(3, 4))
    assert env.unit_at(T(3, 4)) is None
    assert env.unit_at(T(3, 3))["type"] == "archer"
    assert env.unit_at(T(3, 3))["kills"] == 1


# ---------------------------------------------------------------- §5 turn patterns

def test_rider_move_then_no_second_move():
    # RULES §5 escape: allowed M, M-A, M-A-M, A, A-M (no M-M)
    env, T = board(11)
    env.place_unit(0, "rider", T(5, 1))
    env.place_unit(1, "warrior", T(5, 5))
    move(env, T(5, 1), T(5, 2))
    assert env.unit_at(T(5, 2))["status"] == "moved"
    assert move_targets(env, T(5, 2)) == set()


def test_rider_move_attack_move_then_finished():
    # RULES §5 escape: M-A-M allowed, then nothing more
    env, T = board(11)
    env.place_unit(0, "rider", T(5, 2))
    env.place_unit(1, "warrior", T(5, 5))
    move(env, T(5, 2), T(5, 4))
    r = env.unit_at(T(5, 4))
    assert r["status"] == "moved"
    assert move_targets(env, T(5, 4)) == set()
    attack(env, T(5, 4), T(5, 5))  # 5 dealt, 5 back (§14 #1 figures)
    assert env.unit_at(T(5, 4))["status"] == "moved_and_attacked"
    assert not is_legal(env, "attack", T(5, 4), T(5, 5))
    assert T(5, 2) in move_targets(env, T(5, 4))
    move(env, T(5, 4), T(5, 2))
    assert env.unit_at(T(5, 2))["status"] == "finished"
    assert move_targets(env, T(5, 2)) == set()
    assert not is_legal(env, "attack", T(5, 2), T(5, 5))


def test_rider_attack_move_finishes():
    # RULES §5 escape: A then A-M; [quirk 4] after A-M the Rider is FINISHED
    env, T = board(11)
    env.place_unit(0, "rider", T(5, 4))
    env.place_unit(1, "warrior", T(5, 5))
    attack(env, T(5, 4), T(5, 5))
    assert env.unit_at(T(5, 4))["status"] == "attacked"
    assert not is_legal(env, "attack", T(5, 4), T(5, 5))
    assert T(5, 2) in move_targets(env, T(5, 4))
    move(env, T(5, 4), T(5, 2))
    assert env.unit_at(T(5, 2))["status"] == "finished"
    assert move_targets(env, T(5, 2)) == set()


@pytest.mark.parametrize("kind", ["warrior", "swordsman", "archer"])
def test_dash_unit_cannot_move_after_attacking(kind):
    # RULES §5 dash: attack from FRESH or MOVED -> FINISHED (move-then-attack only)
    env, T = board(11)
    env.place_unit(0, kind, T(5, 4))
    env.place_unit(1, "defender", T(5, 5))
    attack(env, T(5, 4), T(5, 5))
    assert env.unit_at(T(5, 4))["status"] == "finished"
    assert move_targets(env, T(5, 4)) == set()


def test_dash_unit_can_attack_after_moving():
    # RULES §5 dash: move -> MOVED; attack from MOVED -> FINISHED
    env, T = board(11)
    env.place_unit(0, "warrior", T(5, 3))
    env.place_unit(1, "defender", T(5, 5))
    move(env, T(5, 3), T(5, 4))
    assert env.unit_at(T(5, 4))["status"] == "moved"
    attack(env, T(5, 4), T(5, 5))
    assert env.unit_at(T(5, 4))["status"] == "finished"


@pytest.mark.parametrize("kind", ["defender", "catapult", "giant"])
def test_one_action_unit_finishes_after_move(kind):
    # RULES §5 one action: any move or attack -> FINISHED (the Giant has no dash)
    env, T = board(11)
    env.place_unit(0, kind, T(5, 3))
    env.place_unit(1, "warrior", T(5, 5))
    move(env, T(5, 3), T(5, 4))
    assert env.unit_at(T(5, 4))["status"] == "finished"
    assert not is_legal(env, "attack", T(5, 4), T(5, 5))
    assert move_targets(env, T(5, 4)) == set()


@pytest.mark.parametrize("kind", ["defender", "catapult", "giant"])
def test_one_action_unit_finishes_after_attack(kind):
    # RULES §5 one action: attack -> FINISHED
    env, T = board(11)
    env.place_unit(0, kind, T(5, 4))
    env.place_unit(1, "defender", T(5, 5))
    attack(env, T(5, 4), T(5, 5))
    assert env.unit_at(T(5, 4))["status"] == "finished"
    assert move_targets(env, T(5, 4)) == set()


# ---------------------------------------------------------------- §5 veterans

def test_make_veteran_at_three_kills():
    # RULES §5: with >= 3 kills a free MAKE_VETERAN: +5 max HP and full heal, once only
    env, T = board()
    env.place_unit(0, "warrior", T(3, 3), hp=4, kills=3)
    act(env, "make_veteran", source=T(3, 3))
    w = env.unit_at(T(3, 3))
    assert w["veteran"] and w["max_hp"] == 15 and w["hp"] == 15
    assert not is_legal(env, "make_veteran", source=T(3, 3))


def test_make_veteran_needs_three_kills():
    # RULES §5/§11: ">= 3 kills"
    env, T = board()
    env.place_unit(0, "warrior", T(3, 3), kills=2)
    assert not is_legal(env, "make_veteran", source=T(3, 3))


def test_make_veteran_not_for_giant():
    # RULES §5: "not for Giants"
    env, T = board()
    env.place_unit(0, "giant", T(3, 3), kills=3)
    assert not is_legal(env, "make_veteran", source=T(3, 3))


def test_make_veteran_not_when_finished():
    # RULES §11: Make Veteran: ">= 3 kills, not yet a veteran, not a Giant, not FINISHED"
    env, T = board()
    env.place_unit(0, "warrior", T(3, 3), kills=3, status="finished")
    assert not is_legal(env, "make_veteran", source=T(3, 3))


def test_defensive_kills_count_for_veteran():
    # RULES §5: "with >= 3 kills (defensive kills count)". §14 #7 gives the defender its 3rd kill.
    env, T = board()
    env.place_unit(0, "warrior", T(3, 3), hp=5)
    env.place_unit(1, "warrior", T(3, 4), kills=2)
    attack(env, T(3, 3), T(3, 4))
    assert env.unit_at(T(3, 4))["kills"] == 3
    end_turn(env)
    assert env.current_player == 1
    act(env, "make_veteran", source=T(3, 4))
    d = env.unit_at(T(3, 4))
    assert d["hp"] == 15 and d["max_hp"] == 15 and d["veteran"]


def test_veteran_keeps_base_attack_and_defence():
    # RULES §5/§7: "ATK and DEF do not change"; formula uses base ATK/DEF and hp/maxHP.
    # A 15/15 veteran Warrior fights like §14 #1: 5 dealt, 5 back.
    env, T = board()
    env.place_unit(0, "warrior", T(3, 3), veteran=True, kills=3)
    env.place_unit(1, "warrior", T(3, 4))
    assert env.unit_at(T(3, 3))["max_hp"] == 15 and env.unit_at(T(3, 3))["hp"] == 15
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == 5
    assert hp(env, T(3, 3)) == 10


def test_giant_left_moved_by_a_push_can_still_attack():
    # RULES §5: the Giant is a "one action" unit (any move or attack -> FINISHED); a PUSHED unit "becomes
    # MOVED" at its owner's turn start. Tribes' Unit.canTransitionTo groups the Giant with the dash units,
    # so from MOVED it may still attack (it cannot move).
    env = duel(11)
    g = at(env, 5, 5)
    env.place_unit(0, "giant", g, status="moved")
    env.place_unit(1, "warrior", at(env, 5, 6))
    assert is_legal(env, "attack", source=g, target=at(env, 5, 6))
    assert not is_legal(env, "move", source=g, target=at(env, 4, 4))
    env.place_unit(0, "defender", at(env, 2, 2), status="moved")
    env.place_unit(1, "warrior", at(env, 2, 3))
    assert not is_legal(env, "attack", source=at(env, 2, 2), target=at(env, 2, 3))


def test_knight_killing_by_retaliation_is_set_attacked():
    # RULES §5 Knight "persist: each kill sets ATTACKED"; §7 "An attacker brought to <= 0 HP dies and the
    # target gets the kill". Tribes' Unit.addKill sets the Knight ATTACKED on a defensive kill too (it is
    # FRESH again at its owner's next turn start).
    env = duel(11)
    a, k = at(env, 5, 5), at(env, 5, 6)
    env.place_unit(0, "warrior", a, hp=1)
    env.place_unit(1, "knight", k, status="finished")
    attack(env, a, k)
    assert env.unit_at(a) is None
    assert env.unit_at(k)["kills"] == 1 and env.unit_at(k)["status"] == "attacked"
    end_turn(env)
    assert env.unit_at(k)["status"] == "fresh"


@pytest.mark.parametrize("onto_port", [False, True])
def test_melee_advance_reveals_unless_it_embarks_under_fog(onto_port):
    # RULES §6 Vision: "Unit ends a move | 1" (fog mode). Tribes' advance after a kill is Board.tryPush:
    # onto land it moves the unit with moveUnit, which clears view; onto its own port (§8.5) it embarks
    # (Board.embark), which clears nothing. Warrior vs Warrior at 3/10: dealt 7, a kill (as above).
    env = GameEnv.blank(8, (Bardur, Imperius), revealed=False)
    T = lambda x, y: at(env, x, y)  # noqa: E731
    env.place_city(0, T(0, 0), capital=True)
    env.place_city(1, T(7, 7), capital=True)
    env.place_city(0, T(2, 3))                       # its territory holds (3,4): the port is player 0's
    env.reveal(0, [T(x, y) for x in range(8) for y in range(5)])
    if onto_port:
        env.set_terrain(T(3, 4), "shallow_water")
        env.set_building(T(3, 4), "port")
    env.place_unit(0, "warrior", T(3, 3))
    env.place_unit(1, "boat" if onto_port else "warrior", T(3, 4), hp=3)
    attack(env, T(3, 3), T(3, 4))
    assert env.unit_at(T(3, 4))["owner"] == 0
    assert env.unit_at(T(3, 4))["type"] == ("boat" if onto_port else "warrior")
    assert all(env.tile(T(x, 5))["explored"][0] != onto_port for x in (2, 3, 4))
