"""Naval rules (issue 3 item 1): RULES.md §5 (boats, upgrades), §6 (water
movement, vision), §7 / §14 #12-#13 (naval combat, Aquatism), §9.2 (ports),
§11 (upgrade, disband, ruins on water) and quirks 3 and 8.

Board: ``duel(11)`` (capitals at (0,0) and (10,10)) with water painted where a
test needs it; player 0 acts. Tiles are ``T(x, y)`` = x * 11 + y.
"""
import pytest

from polyenv import GameEnv

from conftest import act, area, at, attack, duel, end_round, ensure_tech, hp, is_legal, move, move_targets


def board(map_size=11):
    env = duel(map_size)
    return env, (lambda x, y: at(env, x, y))


def paint(env, tiles, terrain):
    for t in tiles:
        env.set_terrain(t, terrain)


def rect(env, x0, x1, y0, y1):
    """Tiles of rows x0..x1 and columns y0..y1 (inclusive)."""
    return [at(env, x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]


def score(env, p=0):
    return env.player(p)["score"]


def ocean(map_size=11, terrain="shallow_water", sailing=True, navigation=False):
    """A blank all-water board without cities (units are tribe-level)."""
    env = GameEnv.blank(map_size, (0, 1), terrain=terrain)
    if sailing:
        ensure_tech(env, 0, "fishing", "sailing")
    if navigation:
        ensure_tech(env, 0, "fishing", "sailing", "navigation")
    return env


# ---------------------------------------------------------------- §9.2 ports

def test_port_build_cost_tech_terrain_population():
    # RULES §9.2: "Port | 10 | Sailing | shallow water | +2 population; trade-network node; embark point"
    env, T = board()
    c, shallow, deep = T(5, 5), T(5, 6), T(4, 6)
    env.set_terrain(shallow, "shallow_water")
    env.set_terrain(deep, "deep_water")
    env.place_city(0, c, level=5)
    env.set_stars(0, 10)
    assert not is_legal(env, "build", target=shallow, arg="port")  # no Sailing
    ensure_tech(env, 0, "fishing", "sailing", "navigation")
    env.set_stars(0, 9)
    assert not is_legal(env, "build", target=shallow, arg="port")  # 9 < 10 stars
    env.set_stars(0, 10)
    assert not is_legal(env, "build", target=deep, arg="port")  # shallow water only
    s, pop = score(env), env.city_at(c)["population"]
    act(env, "build", target=shallow, arg="port")
    assert env.tile(shallow)["building"] == "port"
    assert env.stars(0) == 0
    assert env.city_at(c)["population"] == pop + 2
    assert score(env) == s + 10  # +5 per population point (§12.3)


# ---------------------------------------------------------------- §5 embarking

def test_embark_on_own_port_keeps_hp_kills_veteran_home_city():
    # RULES §5: "a land unit ending a move on *any* PORT tile becomes a Boat ... The Boat keeps HP,
    # max HP, kills, veteran flag, home city and its land type"; "Every new unit starts FINISHED:
    # spawned, embarked, ..."; §0: "embark, disembark and upgrade create a **new** unit with a new id"
    env, T = board()
    c, port = T(5, 5), T(5, 6)
    env.set_terrain(port, "shallow_water")
    env.place_city(0, c, level=5)
    env.set_building(port, "port")
    ensure_tech(env, 0, "fishing", "sailing")
    env.place_unit(0, "warrior", c, hp=11, veteran=True, kills=3)
    before = env.unit_at(c)
    supported = env.city_at(c)["supported"]
    move(env, c, port)
    boat = env.unit_at(port)
    assert env.unit_at(c) is None
    assert boat["type"] == "boat" and boat["carried"] == "warrior"
    assert (boat["hp"], boat["max_hp"], boat["kills"], boat["veteran"]) == (11, 15, 3, True)
    assert boat["home_city"] == c and env.city_at(c)["supported"] == supported
    assert boat["uid"] != before["uid"]
    assert boat["status"] == "finished"


def test_embarked_defender_keeps_its_max_hp():
    # RULES §5 table: Boat "Max HP | = carried unit"
    env, T = board()
    port = T(5, 6)
    env.set_terrain(port, "shallow_water")
    env.place_city(0, T(5, 5))
    env.set_building(port, "port")
    ensure_tech(env, 0, "fishing", "sailing")
    env.place_unit(0, "defender", T(4, 6))
    move(env, T(4, 6), port)
    assert env.unit_at(port)["max_hp"] == 15 and env.unit_at(port)["carried"] == "defender"


def test_embark_needs_sailing():
    # RULES §5: "(Sailing is needed to enter shallow water)"; §6 "Always blocked: ... shallow water
    # without Sailing"
    env, T = board()
    port = T(5, 6)
    env.set_terrain(port, "shallow_water")
    env.place_city(0, T(5, 5))
    env.set_building(port, "port")
    env.place_unit(0, "warrior", T(4, 6))
    assert port not in move_targets(env, T(4, 6))
    ensure_tech(env, 0, "fishing", "sailing")
    assert port in move_targets(env, T(4, 6))


def test_embark_on_enemy_port_quirk_3():
    # RULES §15 quirk 3: "Land units can embark at enemy ports." §5: "*any* PORT tile"
    env, T = board()
    port = T(6, 6)
    env.set_terrain(port, "shallow_water")
    env.place_city(1, T(7, 7))
    env.set_building(port, "port")
    assert env.tile(port)["owner"] == 1
    ensure_tech(env, 0, "fishing", "sailing")
    env.place_unit(0, "warrior", T(5, 5))
    move(env, T(5, 5), port)
    boat = env.unit_at(port)
    assert boat["type"] == "boat" and boat["owner"] == 0 and boat["carried"] == "warrior"


def test_land_unit_cannot_enter_water_without_port():
    # RULES §6: land-unit step cost "water | only onto a PORT tile"
    env, T = board()
    paint(env, [T(5, 6), T(4, 6)], "shallow_water")
    paint(env, [T(6, 6)], "deep_water")
    ensure_tech(env, 0, "fishing", "sailing", "navigation")
    env.place_unit(0, "warrior", T(5, 5))
    targets = move_targets(env, T(5, 5))
    assert not targets & {T(5, 6), T(4, 6), T(6, 6)}
    assert T(5, 4) in targets


def test_embarking_ends_the_move():
    # RULES §6: "water | only onto a PORT tile: all remaining movement, then the unit embarks"
    env, T = board()
    paint(env, rect(env, 3, 7, 6, 8), "shallow_water")
    env.place_city(0, T(5, 4))
    env.set_terrain(T(5, 5), "shallow_water")
    env.set_building(T(5, 5), "port")
    ensure_tech(env, 0, "fishing", "sailing", "riding")
    env.place_unit(0, "rider", T(5, 3))  # MOV 2: the port is 2 steps away
    targets = move_targets(env, T(5, 3))
    assert T(5, 5) in targets
    assert T(5, 6) not in targets  # water behind the port cannot be reached in the same move


# ---------------------------------------------------------------- §6 water movement

@pytest.mark.parametrize("unit, reach", [("boat", 24), ("ship", 48), ("battleship", 48)])
def test_water_units_reach_on_open_water(unit, reach):
    # RULES §5: Boat MOV 2, Ship and Battleship MOV 3; §6 "Water units: water step 1";
    # §13 "(2·MOV+1)² − 1 = 8 / 24 / 48 for MOV 1 / 2 / 3"
    env = ocean(navigation=True)
    env.place_unit(0, unit, at(env, 5, 5))
    assert len(move_targets(env, at(env, 5, 5))) == reach


def test_shallow_needs_sailing_deep_needs_navigation():
    # RULES §6: "Always blocked: mountains without Climbing, shallow water without Sailing, deep water
    # without Navigation (boats included)"; §4: Sailing "enter shallow water", Navigation "enter deep water"
    env = ocean(sailing=False)
    src = at(env, 5, 5)
    deep = set(rect(env, 3, 7, 7, 7))
    paint(env, deep, "deep_water")
    env.place_unit(0, "boat", src)
    assert move_targets(env, src) == set()  # no Sailing: no water at all
    ensure_tech(env, 0, "fishing", "sailing")
    targets = move_targets(env, src)
    assert targets and not targets & deep
    assert at(env, 5, 6) in targets
    ensure_tech(env, 0, "navigation")
    assert deep <= move_targets(env, src)


def test_boat_passes_deep_water_only_with_navigation():
    # RULES §6: deep water blocked without Navigation: a wall of deep water cuts the boat's paths
    env = ocean()
    paint(env, rect(env, 0, 10, 6, 6), "deep_water")
    env.place_unit(0, "boat", at(env, 5, 5))
    assert at(env, 5, 7) not in move_targets(env, at(env, 5, 5))
    ensure_tech(env, 0, "navigation")
    assert at(env, 5, 7) in move_targets(env, at(env, 5, 5))


# ---------------------------------------------------------------- §5/§6 disembarking

@pytest.mark.parametrize("terrain", ["plain", "forest", "village", "mountain", "city"])
def test_disembark_onto_land(terrain):
    # RULES §5: "a Boat, Ship or Battleship that moves onto land turns back into that unit";
    # §6 "moving onto any land tile (plain, forest, village, mountain, city) costs all remaining
    # movement and disembarks the unit"; new unit FINISHED with a new id
    env, T = board()
    paint(env, rect(env, 3, 7, 2, 5), "shallow_water")
    land, beyond = T(5, 6), T(5, 7)
    ensure_tech(env, 0, "fishing", "sailing", "climbing")
    if terrain == "city":
        env.place_city(0, land)
    else:
        env.set_terrain(land, terrain)
    env.place_unit(0, "ship", T(5, 5), hp=6, veteran=True, kills=4, carried="swordsman")
    uid = env.unit_at(T(5, 5))["uid"]
    targets = move_targets(env, T(5, 5))
    assert land in targets and beyond not in targets  # the land step ends the move
    move(env, T(5, 5), land)
    u = env.unit_at(land)
    assert u["type"] == "swordsman" and u["carried"] is None
    assert (u["hp"], u["max_hp"], u["kills"], u["veteran"]) == (6, 20, 4, True)
    assert u["uid"] != uid and u["status"] == "finished"
    assert env.unit_at(T(5, 5)) is None


def test_boat_keeps_home_city_through_a_round_trip():
    # RULES §5: "The Boat keeps ... home city"
    env, T = board()
    c, port = T(5, 5), T(5, 6)
    paint(env, [port, T(5, 7), T(4, 7), T(6, 7)], "shallow_water")
    env.place_city(0, c, level=3)
    env.set_building(port, "port")
    ensure_tech(env, 0, "fishing", "sailing")
    env.place_unit(0, "warrior", c)
    supported = env.city_at(c)["supported"]
    move(env, c, port)
    end_round(env)
    move(env, port, T(4, 6))  # back onto land (territory tile)
    assert env.unit_at(T(4, 6))["type"] == "warrior"
    assert env.unit_at(T(4, 6))["home_city"] == c
    assert env.city_at(c)["supported"] == supported


# ---------------------------------------------------------------- §5/§11 upgrades

def test_boat_to_ship_costs_5_with_sailing():
    # RULES §5: "Upgrades: Boat→Ship 5 stars (Sailing)"; §11 "new unit of the next type; same HP,
    # max HP, kills, veteran flag, status and carried type"
    env = ocean(sailing=False)
    t = at(env, 5, 5)
    env.place_unit(0, "boat", t, hp=9, veteran=True, kills=3, carried="archer")
    env.set_stars(0, 5)
    assert not is_legal(env, "upgrade", source=t)  # no Sailing
    ensure_tech(env, 0, "fishing", "sailing")
    env.set_stars(0, 4)
    assert not is_legal(env, "upgrade", source=t)
    env.set_stars(0, 5)
    before, s = env.unit_at(t), score(env)
    act(env, "upgrade", source=t)
    u = env.unit_at(t)
    assert u["type"] == "ship"
    assert env.stars(0) == 0
    assert score(env) == s  # boats are worth 0 points
    for key in ("hp", "max_hp", "kills", "veteran", "carried", "status", "owner"):
        assert u[key] == before[key], key
    assert u["uid"] != before["uid"]


def test_ship_to_battleship_costs_15_with_navigation():
    # RULES §5: "Ship→Battleship 15 stars (Navigation)"
    env = ocean()
    t = at(env, 5, 5)
    env.place_unit(0, "ship", t, hp=7)
    env.set_stars(0, 40)
    assert not is_legal(env, "upgrade", source=t)  # Sailing only
    ensure_tech(env, 0, "navigation")
    env.set_stars(0, 14)
    assert not is_legal(env, "upgrade", source=t)
    env.set_stars(0, 15)
    act(env, "upgrade", source=t)
    u = env.unit_at(t)
    assert (u["type"], u["hp"], u["max_hp"], u["carried"]) == ("battleship", 7, 10, "warrior")
    assert env.stars(0) == 0


def test_no_upgrade_beyond_battleship_or_for_land_units():
    # RULES §11: "Upgrade (Boat→Ship, Ship→Battleship)" only
    env = ocean(navigation=True)
    env.set_terrain(at(env, 1, 1), "plain")
    env.place_unit(0, "battleship", at(env, 5, 5))
    env.place_unit(0, "warrior", at(env, 1, 1))
    env.set_stars(0, 100)
    assert not is_legal(env, "upgrade", source=at(env, 5, 5))
    assert not is_legal(env, "upgrade", source=at(env, 1, 1))


@pytest.mark.parametrize("status", ["moved", "finished"])
def test_upgrade_allowed_after_acting_status_carries_over(status):
    # RULES §5: "allowed anywhere, even after acting, and the status carries over"; §13:
    # "UPGRADE_BOAT / UPGRADE_SHIP | listed even for FINISHED units"
    env = ocean()
    t = at(env, 5, 5)
    env.place_unit(0, "boat", t, status=status)
    env.set_stars(0, 5)
    act(env, "upgrade", source=t)
    assert env.unit_at(t)["status"] == status


def test_upgrade_after_moving_then_attack_still_allowed():
    # RULES §5: the status carries over: a Boat that moved (MOVED) becomes a MOVED Ship, which may
    # still attack (dash pattern: move then attack)
    env = ocean()
    env.place_unit(0, "boat", at(env, 5, 3))
    env.place_unit(1, "boat", at(env, 5, 7))
    env.set_stars(0, 5)
    move(env, at(env, 5, 3), at(env, 5, 5))
    assert env.unit_at(at(env, 5, 5))["status"] == "moved"
    act(env, "upgrade", source=at(env, 5, 5))
    assert env.unit_at(at(env, 5, 5))["status"] == "moved"
    attack(env, at(env, 5, 5), at(env, 5, 7))
    assert env.unit_at(at(env, 5, 5))["status"] == "finished"


# ---------------------------------------------------------------- §7 naval combat

def test_scenario_12_battleship_sinks_boat_with_aquatism():
    # RULES §14 #12: "Battleship (carrying a Warrior, 10/10) at distance 2 attacks Boat (10/10) on
    # water, Boat's tribe has Aquatism | 4, 1.5, 5.5 | 13.09→13 | Boat dies; the Battleship stays";
    # §5 "A killed boat costs 0 score"
    env = ocean(navigation=True)
    ensure_tech(env, 1, "fishing", "sailing", "whaling", "aquatism")
    env.place_unit(0, "battleship", at(env, 3, 2))
    env.place_unit(1, "boat", at(env, 3, 4))
    assert env.combat_preview(at(env, 3, 2), at(env, 3, 4))["dealt"] == 13
    s1, k0 = score(env, 1), env.player(0)["kills"]
    attack(env, at(env, 3, 2), at(env, 3, 4))
    assert env.unit_at(at(env, 3, 4)) is None
    assert env.unit_at(at(env, 3, 2))["type"] == "battleship" and hp(env, at(env, 3, 2)) == 10
    assert score(env, 1) == s1
    assert env.player(0)["kills"] == k0 + 1
    assert env.unit_at(at(env, 3, 2))["kills"] == 1


def test_scenario_13_ship_attacks_defender_on_land():
    # RULES §14 #13: "Ship (carrying a Warrior, 10/10) on water attacks an adjacent Defender on plain |
    # 2, 3, 5 | 3.6→4, 8.1→8 | Defender 15→11, Ship 10→2"
    env, T = board()
    env.set_terrain(T(3, 3), "shallow_water")
    ensure_tech(env, 0, "fishing", "sailing")
    env.place_unit(0, "ship", T(3, 3))
    env.place_unit(1, "defender", T(3, 4))
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == 11
    assert hp(env, T(3, 3)) == 2


@pytest.mark.parametrize("aquatism, attacker_hp", [(False, 8), (True, 7)])
def test_aquatism_water_defence(aquatism, attacker_hp):
    # RULES §7: "Forest + Archery / Mountain + Meditation / water + Aquatism | 1.5"; §4 Aquatism "water
    # defence ×1.5". Boat (ATK 1) vs Boat (DEF 1) at distance 1: without: 1, 1, 2 -> 2.25->2, 2.25->2;
    # with Aquatism: 1, 1.5, 2.5 -> 1.8->2, 2.7->3
    env = ocean()
    ensure_tech(env, 1, "fishing", "sailing")
    if aquatism:
        ensure_tech(env, 1, "whaling", "aquatism")
    env.place_unit(0, "boat", at(env, 5, 5))
    env.place_unit(1, "boat", at(env, 5, 6))
    attack(env, at(env, 5, 5), at(env, 5, 6))
    assert hp(env, at(env, 5, 6)) == 8
    assert hp(env, at(env, 5, 5)) == attacker_hp


def test_aquatism_gives_nothing_on_land():
    # RULES §7: the 1.5 multiplier is "water + Aquatism" only: a Warrior on plain gets none
    env, T = board()
    ensure_tech(env, 1, "fishing", "whaling", "aquatism")
    env.place_unit(0, "warrior", T(3, 3))
    env.place_unit(1, "warrior", T(3, 4))
    attack(env, T(3, 3), T(3, 4))
    assert hp(env, T(3, 4)) == 5 and hp(env, T(3, 3)) == 5  # §14 #1 figures


def test_boat_attacks_land_unit_at_range_2_without_retaliation():
    # RULES §5: Boat ATK 1, range 2; §7 retaliation only "if the distance is ≤ the target's range":
    # 1, 2, 3 -> round(1/3 * 1 * 4.5) = round(1.5) = 2
    env, T = board()
    paint(env, rect(env, 3, 5, 1, 2), "shallow_water")
    ensure_tech(env, 0, "fishing", "sailing")
    env.place_unit(0, "boat", T(4, 2))
    env.place_unit(1, "warrior", T(4, 4))
    attack(env, T(4, 2), T(4, 4))
    assert hp(env, T(4, 4)) == 8
    assert hp(env, T(4, 2)) == 10


def test_boat_dash_pattern():
    # RULES §5: Boat, Ship, Battleship have the "dash" pattern: "attack from FRESH or MOVED → FINISHED
    # (move-then-attack only)"
    env = ocean()
    env.place_unit(0, "boat", at(env, 5, 5))
    env.place_unit(1, "boat", at(env, 5, 7))
    attack(env, at(env, 5, 5), at(env, 5, 7))
    assert env.unit_at(at(env, 5, 5))["status"] == "finished"
    assert move_targets(env, at(env, 5, 5)) == set()


@pytest.mark.parametrize("naval", ["boat", "ship", "battleship"])
def test_killed_boat_costs_zero_score_and_melee_killer_stays_on_land(naval):
    # RULES §5: "A killed boat costs 0 score, not the carried unit's points"; §12.3 "Unit killed ...
    # −points of its *current* type (boats 0 ...)"; §8.5 "A melee unit's advance after a kill uses the
    # same test on the one target tile" (water without an own port is not usable)
    env, T = board()
    env.set_terrain(T(3, 4), "shallow_water")
    ensure_tech(env, 1, "fishing", "sailing", "navigation")
    env.place_unit(0, "swordsman", T(3, 3))
    env.place_unit(1, naval, T(3, 4), hp=1, carried="knight")
    s1 = score(env, 1)
    attack(env, T(3, 3), T(3, 4))
    assert env.unit_at(T(3, 4)) is None
    assert score(env, 1) == s1
    assert env.unit_at(T(3, 3))["type"] == "swordsman"  # stayed on land


def test_defensive_kill_by_boat_counts():
    # RULES §7 step 3: "An attacker brought to ≤ 0 HP dies and the target gets the kill"
    # (polyenv follows Java: the defending tribe counts the kill too)
    env, T = board()
    env.set_terrain(T(3, 4), "shallow_water")
    ensure_tech(env, 1, "fishing", "sailing", "navigation")
    env.place_unit(0, "warrior", T(3, 3), hp=1)
    env.place_unit(1, "battleship", T(3, 4))
    attack(env, T(3, 3), T(3, 4))
    assert env.unit_at(T(3, 3)) is None
    assert env.unit_at(T(3, 4))["kills"] == 1
    assert env.player(1)["kills"] == 1


# ---------------------------------------------------------------- §11 disband

@pytest.mark.parametrize("naval, refund", [("boat", 0), ("ship", 2), ("battleship", 7)])
def test_disband_naval_refund_and_zero_points(naval, refund):
    # RULES §11: Disband "+ floor(unit's own cost / 2) stars (a boat refunds from its boat cost, i.e. 0);
    # minus its points" (Ship cost 5 -> 2, Battleship 15 -> 7; boats are worth 0 points)
    env = ocean(navigation=True)
    ensure_tech(env, 0, "riding", "free_spirit")
    t = at(env, 5, 5)
    env.place_unit(0, naval, t, carried="knight")
    s = score(env)
    act(env, "disband", source=t)
    assert env.unit_at(t) is None
    assert env.stars(0) == refund
    assert score(env) == s


# ---------------------------------------------------------------- §6 vision from water

def fog_ocean():
    env = GameEnv.blank(11, (0, 1), terrain="shallow_water", revealed=False)
    ensure_tech(env, 0, "fishing", "sailing", "navigation")
    return env


def explored(env, p=0):
    return {t for t in range(env.num_tiles) if env.tile(t)["explored"][p]}


@pytest.mark.parametrize("unit, radius", [("boat", 1), ("ship", 1), ("battleship", 2)])
def test_vision_after_a_move_from_water(unit, radius):
    # RULES §6 Vision: "Unit ends a move | 1; 2 if it ends on a mountain or is a Battleship";
    # §5 "Not implemented ...: scout (except the Battleship's extra vision)"
    env = fog_ocean()
    src, dst = at(env, 5, 3), at(env, 5, 4)
    env.reveal(0, [src, dst])
    env.place_unit(0, unit, src)
    move(env, src, dst)
    assert explored(env) == {src} | area(env, dst, radius)


@pytest.mark.parametrize("unit, radius", [("boat", 1), ("ship", 1), ("battleship", 2)])
def test_vision_after_landing_is_the_boats(unit, radius):
    # RULES §6 Vision: "Unit ends a move | 1; 2 if it ends on a mountain or is a Battleship": the move ends
    # before the landing turns the Battleship back into its Warrior (Tribes' Board.moveUnit reveals first,
    # then Board.disembark), so a landing Battleship still sees 2 tiles (differential game 964 of seed 10).
    env = fog_ocean()
    src, dst = at(env, 5, 3), at(env, 5, 4)
    env.set_terrain(dst, "plain")
    env.reveal(0, [src, dst])
    env.place_unit(0, unit, src, carried="warrior")
    move(env, src, dst)
    assert env.unit_at(dst)["type"] == "warrior"
    assert explored(env) == {src} | area(env, dst, radius)


def test_unrevealed_water_is_blocked():
    # RULES §6: "Always blocked: ... unrevealed tiles (fog mode)"
    env = fog_ocean()
    src = at(env, 5, 5)
    env.reveal(0, [src, at(env, 5, 6)])
    env.place_unit(0, "boat", src)
    assert move_targets(env, src) == {at(env, 5, 6)}


# ---------------------------------------------------------------- §11 ruins on water

def test_ruins_giant_on_water_is_a_battleship_and_pushes_the_boat():
    # RULES §11 Ruins: "Giant | ... On water a Battleship carrying a Warrior is created instead" (polyenv
    # fixes quirk 8: HP = max HP = 10, not -1); the examiner is pushed (§8.5, offsets in order
    # (0,+1), (−1,0), ...): polyenv moves a boat pushed on water to the first free water tile
    # (deliberate deviation: Tribes would leave two units stacked); §11 "the unit becomes FINISHED" (Tribes
    # sets it after the push).
    found = 0
    for seed in range(200):
        env = GameEnv.blank(11, (0, 1), terrain="deep_water", seed=seed)
        ensure_tech(env, 0, "fishing", "sailing", "navigation")
        env.set_terrain(at(env, 1, 1), "plain")
        env.place_city(0, at(env, 1, 1))  # Examine needs a city
        ruins = at(env, 5, 5)
        env.set_resource(ruins, "ruins")
        env.place_unit(0, "boat", ruins)
        env.place_unit(1, "boat", at(env, 5, 6))  # blocks the first push offset (0, +1)
        act(env, "examine", source=ruins)
        assert env.tile(ruins)["resource"] is None
        u = env.unit_at(ruins)
        if u is None or u["type"] != "battleship":
            assert u is not None and u["type"] == "boat" and u["status"] == "finished"
            continue
        found += 1
        assert (u["owner"], u["hp"], u["max_hp"], u["carried"], u["status"]) == (0, 10, 10, "warrior", "finished")
        assert env.unit_at(at(env, 5, 6))["owner"] == 1  # untouched
        pushed = env.unit_at(at(env, 4, 5))  # second offset (-1, 0)
        assert pushed is not None and pushed["type"] == "boat" and pushed["owner"] == 0
        assert pushed["status"] == "finished"
        env.check_invariants()
        if found == 3:
            break
    assert found >= 1


def test_pushed_boat_becomes_moved_next_turn():
    # RULES §5: "At the owner's turn start every unit becomes FRESH, except PUSHED units, which become MOVED."
    env = ocean()
    env.place_unit(0, "boat", at(env, 5, 5), status="pushed")
    end_round(env)
    assert env.unit_at(at(env, 5, 5))["status"] == "moved"


# ---------------------------------------------------------------- a water game plays to the end

def test_water_heavy_random_games_finish_with_boats():
    # Issue 3 "Done when": a water map game with boats and ships plays to the end.
    rows = []
    for x in range(11):
        row = []
        for y in range(11):
            if (x, y) == (2, 2):
                row.append("c:4")
            elif (x, y) == (8, 8):
                row.append("c:0")
            elif 1 <= x <= 3 and 1 <= y <= 3 or 7 <= x <= 9 and 7 <= y <= 9:
                row.append(".:")
            elif (x + y) % 7 == 0:
                row.append("v:")
            else:
                row.append("s:" if abs(x - y) < 4 else "d:")
        rows.append(",".join(row))
    level = "\n".join(rows)
    saw_naval = False
    for seed in range(6):
        env = GameEnv(seed=seed, level=level)
        for p in range(2):
            env.grant_tech(p, "fishing")
            env.grant_tech(p, "sailing")
        chunk = 0
        while not env.game_over:
            env.playout(max_actions=50, seed=seed * 1000 + chunk)
            chunk += 1
            for t in range(env.num_tiles):
                u = env.unit_at(t)
                if u is not None and u["type"] in ("boat", "ship", "battleship"):
                    saw_naval = True
            env.check_invariants()
        assert env.game_over
    assert saw_naval
