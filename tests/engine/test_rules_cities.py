"""City rules: RULES.md §8 (levels, rewards, capacity, capture, elimination,
population floor), §9 (gathering, buildings) and the §11 unit actions Recover
and Disband, with the "Further checked figures" of §14."""
import pytest

from polyenv import Bardur, GameEnv, Imperius, Luxidoor

from conftest import act, aid, area, at, duel, end_round, end_turn, ensure_tech, hp, is_legal, move
from polyenv._core import _testing


def score(env, p=0):
    return env.player(p)["score"]


def gather_board(level, population, map_size=11, capital=False):
    """duel(11) plus a player-0 city at (5,5) with a fruit at (5,4), Organization and 10 stars."""
    env = duel(map_size)
    c = at(env, 5, 5)
    env.set_resource(at(env, 5, 4), "fruit")
    env.place_city(0, c, level=level, population=population, capital=capital)
    ensure_tech(env, 0, "organization")
    env.set_stars(0, 10)
    return env, c


def gather_to_level_up(env):
    act(env, "gather", target=at(env, 5, 4))


# ---------------------------------------------------------------- §8.1 levels

def test_new_city_level_1_need_2():
    # RULES §8.1: "A new city: level 1, population 0, need 2, bound 1, no walls"
    env = duel()
    city = env.city_at(at(env, 0, 0))
    assert (city["level"], city["population"], city["need"], city["walls"]) == (1, 0, 2, False)


REWARDS = {2: ("workshop", "explorer"), 3: ("city_wall", "resources"), 4: ("pop_growth", "border_growth"),
           5: ("park", "super_unit"), 6: ("park", "super_unit"), 7: ("park", "super_unit")}


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5, 6])
def test_level_threshold(level):
    # RULES §8.1: "Level L -> L+1 needs population >= L+1 (2, 3, 4, 5, 6, ...)"; §8.2 reward pairs
    env, c = gather_board(level, population=level - 1)
    assert env.city_at(c)["need"] == level + 1
    gather_to_level_up(env)  # population L, still below the need
    assert env.pending_level_up is None
    env.set_resource(at(env, 5, 6), "fruit")
    act(env, "gather", target=at(env, 5, 6))  # population L+1
    assert env.pending_level_up == (c, *REWARDS[level + 1])
    choice = {2: "workshop", 3: "city_wall", 4: "border_growth"}.get(level + 1, "park")
    act(env, "level_up", arg=choice)
    city = env.city_at(c)
    assert (city["level"], city["population"], city["need"]) == (level + 1, 0, level + 2)
    assert env.pending_level_up is None


def test_pending_level_up_only_two_choices_no_end_turn():
    # RULES §8.1: "While any city can level up, the owner's only legal actions are that city's two
    # choices ... and it cannot end its turn (checked)."
    env, c = gather_board(1, population=1)
    env.place_unit(0, "warrior", at(env, 2, 2))
    gather_to_level_up(env)
    assert env.pending_level_up == (c, "workshop", "explorer")
    legal = env.legal_actions().tolist()
    assert legal == sorted([aid(env, "level_up", arg=0), aid(env, "level_up", arg=1)])
    assert aid(env, "end_turn") not in legal
    with pytest.raises(ValueError):
        env.step(aid(env, "end_turn"))


# ---------------------------------------------------------------- §8.2 rewards

def test_reward_workshop():
    # RULES §8.2: L2 Workshop: production +1; +40 score (also into the city's worth)
    env, c = gather_board(1, population=1)
    gather_to_level_up(env)
    s, w = score(env), env.city_at(c)["worth"]
    act(env, "level_up", arg="workshop")
    city = env.city_at(c)
    assert score(env) == s + 40 and city["worth"] == w + 40
    assert city["workshops"] == 1
    assert city["production"] == 2 + 1  # level 2 + Workshop (not a capital)


def test_reward_explorer():
    # RULES §8.2: L2 Explorer: +40 (every tile is already revealed on a blank board)
    env, c = gather_board(1, population=1)
    gather_to_level_up(env)
    s = score(env)
    act(env, "level_up", arg="explorer")
    assert score(env) == s + 40
    assert env.city_at(c)["level"] == 2


def test_reward_city_wall():
    # RULES §8.2: L3 City Wall: walls; +35
    env, c = gather_board(2, population=2)
    gather_to_level_up(env)
    s = score(env)
    act(env, "level_up", arg="city_wall")
    assert score(env) == s + 35
    assert env.city_at(c)["walls"] is True


def test_reward_resources():
    # RULES §8.2: L3 Resources: +5 stars; +35
    env, c = gather_board(2, population=2)
    gather_to_level_up(env)
    s, stars = score(env), env.stars(0)
    act(env, "level_up", arg="resources")
    assert score(env) == s + 35
    assert env.stars(0) == stars + 5


def test_reward_pop_growth():
    # RULES §8.2: L4 Pop Growth: +3 population; +30, and §12.3 population +5 per point -> +45 in all
    env, c = gather_board(3, population=3)
    gather_to_level_up(env)
    s, w = score(env), env.city_at(c)["worth"]
    act(env, "level_up", arg="pop_growth")
    city = env.city_at(c)
    assert city["population"] == 3
    assert score(env) == s + 45 and city["worth"] == w + 45


def test_reward_border_growth():
    # RULES §8.2: L4 Border Growth: bound +1 (radius 2), +20 per new tile; +30.
    # City at (5,5) on 11x11 in the open: 25 - 9 = 16 new tiles -> +30 + 320 = +350
    env, c = gather_board(3, population=3)
    gather_to_level_up(env)
    s, w = score(env), env.city_at(c)["worth"]
    act(env, "level_up", arg="border_growth")
    assert env.city_at(c)["bound"] == 2
    assert score(env) == s + 350 and env.city_at(c)["worth"] == w + 350
    assert all(env.tile(t)["owner"] == 0 and env.tile(t)["city"] == c for t in area(env, c, 2))


def test_border_growth_claims_villages_too():
    # RULES §8.3: "A city claims the unowned tiles of its radius-bound area (+20 score each)" — a village
    # included (Tribes' assignCityTiles checks only that the tile has no city).
    env, c = gather_board(3, population=3)
    v = at(env, 5, 7)
    env.set_terrain(v, "village")
    gather_to_level_up(env)
    s = score(env)
    act(env, "level_up", arg="border_growth")
    assert env.tile(v)["city"] == c
    assert score(env) == s + 350


def test_border_growth_reveals_nothing_and_builds_follow_the_true_state():
    """Tribes' Board.expandBorder only assigns tiles (no clearView), and BuildFactory checks no
    visibility: the new territory stays unexplored, and the Build actions on it are computed on the
    true tiles (here a Lumber Hut on an unexplored forest) — information the action set carries, as
    documented in the README's fog section."""
    from polyenv import MAP_TOKEN_FEATURE_NAMES, Bardur, GameEnv, Imperius
    env = GameEnv.blank(11, (Bardur, Imperius), revealed=False)
    env.place_city(0, at(env, 0, 0), capital=True)
    env.place_city(1, at(env, 10, 10), capital=True)
    c, far = at(env, 5, 5), at(env, 5, 7)
    env.place_city(0, c, level=3, population=3)
    env.reveal(0, area(env, c, 1))
    env.set_terrain(far, "forest")
    env.set_resource(at(env, 5, 4), "fruit")
    ensure_tech(env, 0, "organization", "forestry")
    env.set_stars(0, 10)
    explored = list(MAP_TOKEN_FEATURE_NAMES).index("explored")
    assert env.observe(player=0)["map_tokens"][far, explored] == 0
    gather_to_level_up(env)
    act(env, "level_up", arg="border_growth")
    assert env.tile(far)["owner"] == 0
    assert env.observe(player=0)["map_tokens"][far, explored] == 0
    assert is_legal(env, "build", target=far, arg="lumber_hut")


def test_reward_park():
    # RULES §8.2: L5 Park: +250 score; +25 -> +275 (into worth too)
    env, c = gather_board(4, population=4)
    gather_to_level_up(env)
    s, w = score(env), env.city_at(c)["worth"]
    act(env, "level_up", arg="park")
    assert score(env) == s + 275 and env.city_at(c)["worth"] == w + 275
    assert env.city_at(c)["parks"] == 1


def test_reward_super_unit():
    # RULES §8.2: L5 Super Unit: Giant on the city tile; +25 (level-up Giant: 0 unit points, §12.3);
    # §5: every new unit starts FINISHED
    env, c = gather_board(4, population=4)
    gather_to_level_up(env)
    s = score(env)
    act(env, "level_up", arg="super_unit")
    assert score(env) == s + 25
    g = env.unit_at(c)
    assert g["type"] == "giant" and g["owner"] == 0 and g["hp"] == 40 and g["max_hp"] == 40
    assert g["status"] == "finished"


def test_super_unit_pushes_unit_in_city():
    # RULES §8.2: "Giant on the city tile (pushes out any unit there)"; §8.5 offsets tried in order
    # (0,+1), (-1,0), ...: with (5,6) occupied the Warrior goes to (4,5) and becomes PUSHED;
    # §5: PUSHED units become MOVED at the owner's next turn start
    env, c = gather_board(4, population=4)
    env.place_unit(0, "warrior", c)
    env.place_unit(0, "warrior", at(env, 5, 6))
    gather_to_level_up(env)
    act(env, "level_up", arg="super_unit")
    assert env.unit_at(c)["type"] == "giant"
    pushed = env.unit_at(at(env, 4, 5))
    assert pushed is not None and pushed["type"] == "warrior" and pushed["status"] == "pushed"
    end_round(env)
    assert env.unit_at(at(env, 4, 5))["status"] == "moved"


def test_unit_pushed_onto_its_port_is_a_new_finished_boat():
    # RULES §8.5: a push tile is usable if it is "water with the tribe's own port (the unit embarks)";
    # §5: "Every new unit starts FINISHED: ... embarked". Tribes marks the replaced land unit PUSHED, so
    # the new Boat stays FINISHED.
    env, c = gather_board(4, population=4)
    env.place_unit(0, "warrior", c)
    port = at(env, 5, 6)  # first push offset (0, +1)
    env.set_terrain(port, "shallow_water")
    env.set_building(port, "port")
    gather_to_level_up(env)
    act(env, "level_up", arg="super_unit")
    boat = env.unit_at(port)
    assert boat is not None and boat["type"] == "boat" and boat["status"] == "finished"


def test_level_up_chain_capital_population_20():
    # RULES §14 Further checked figures: capital with population 20 at (1,1), pop/need:
    # 18/3 (Workshop, production 4) -> 15/4 (Walls) -> 11/5 (Border Growth: +170, 7 new tiles)
    # -> 6/6 (Park: +275, Park of Fortune available) -> 0/7 (Giant, level 6)
    env = duel(p0_city=None)
    c = at(env, 1, 1)
    env.place_city(0, c, population=20, capital=True)

    def step(choice, pop, need, gain):
        s = score(env)
        act(env, "level_up", arg=choice)
        city = env.city_at(c)
        assert (city["population"], city["need"]) == (pop, need), choice
        assert score(env) == s + gain, choice
        return city

    assert env.pending_level_up == (c, "workshop", "explorer")
    assert step("workshop", 18, 3, 40)["production"] == 4
    assert env.pending_level_up == (c, "city_wall", "resources")
    assert step("city_wall", 15, 4, 35)["walls"]
    assert env.pending_level_up == (c, "pop_growth", "border_growth")
    step("border_growth", 11, 5, 170)
    assert env.pending_level_up == (c, "park", "super_unit")
    step("park", 6, 6, 275)
    assert env.pending_level_up == (c, "park", "super_unit")
    city = step("super_unit", 0, 7, 25)
    assert city["level"] == 6
    assert env.unit_at(c)["type"] == "giant"
    assert env.pending_level_up is None
    # §9.2 monument: Park of Fortune available once a city reaches level 5
    assert is_legal(env, "build", target=at(env, 0, 0), arg="park_of_fortune")


# ---------------------------------------------------------------- §8.1 unit capacity

@pytest.mark.parametrize("level", [1, 2])
def test_unit_capacity_level_plus_one(level):
    # RULES §8.1: "Unit capacity: level + 1 supported units; spawning also needs an empty city tile"
    env = duel(11)
    c = at(env, 5, 5)
    env.place_city(0, c, level=level)
    env.set_stars(0, 50)
    exits = [at(env, 5, 6), at(env, 4, 5), at(env, 6, 5)]
    for i in range(level + 1):
        assert is_legal(env, "spawn", source=c, arg="warrior")
        env.place_unit(0, "warrior", c)  # a unit placed on its city is supported by it
        assert not is_legal(env, "spawn", source=c, arg="warrior")  # city tile occupied
        move(env, c, exits[i])
    assert env.city_at(c)["supported"] == level + 1
    assert not is_legal(env, "spawn", source=c, arg="warrior")


def test_spawn_unit_starts_finished_and_costs():
    # RULES §5: Warrior costs 2; "Every new unit starts FINISHED: spawned ..."; §12.3: +10 score
    env = duel()
    c = at(env, 0, 0)
    env.set_stars(0, 5)
    s = score(env)
    act(env, "spawn", source=c, arg="warrior")
    u = env.unit_at(c)
    assert u["type"] == "warrior" and u["owner"] == 0 and u["status"] == "finished"
    assert u["home_city"] == c
    assert env.stars(0) == 3
    assert score(env) == s + 10


# ---------------------------------------------------------------- §8.4 capture

def test_capture_village_in_the_open():
    # RULES §8.4: village -> level-1 city: +100, +20 per claimed tile (checked: +280 in the open);
    # the unit becomes FINISHED
    env = duel(11)
    v = at(env, 5, 5)
    env.set_terrain(v, "village")
    env.place_unit(0, "warrior", v)
    s = score(env)
    act(env, "capture", source=v)
    assert score(env) == s + 280
    city = env.city_at(v)
    assert city["owner"] == 0 and city["level"] == 1 and city["population"] == 0
    assert env.tile(v)["terrain"] == "city"
    assert env.player(0)["num_cities"] == 2
    assert env.unit_at(v)["status"] == "finished"
    assert all(env.tile(t)["owner"] == 0 for t in area(env, v, 1))


def test_capture_needs_fresh_unit():
    # RULES §8.4: "The capturing unit must be FRESH, so it has to move in on one turn and capture on the next"
    env = duel(11)
    v = at(env, 5, 5)
    env.set_terrain(v, "village")
    env.place_unit(0, "warrior", at(env, 5, 4))
    move(env, at(env, 5, 4), v)
    assert not is_legal(env, "capture", source=v)
    end_round(env)
    assert is_legal(env, "capture", source=v)


def test_capture_enemy_city_moves_worth_and_keeps_capital():
    # RULES §8.4: enemy city keeps level, population, walls and capital flag (the new owner gets the +1);
    # its worth moves from the old owner's score to the captor's
    env = duel(11, p1_city=None)
    c = at(env, 5, 6)
    env.place_city(1, c, level=2, capital=True)
    env.place_city(1, at(env, 10, 10))  # player 1 keeps a city
    env.set_resource(at(env, 5, 7), "fruit")
    ensure_tech(env, 1, "organization")
    env.place_unit(0, "warrior", c)
    end_turn(env)
    env.set_stars(1, 5)
    act(env, "gather", target=at(env, 5, 7))  # population 1: the city's worth includes +5
    end_turn(env)
    worth = env.city_at(c)["worth"]
    assert worth >= 5
    s0, s1 = score(env, 0), score(env, 1)
    act(env, "capture", source=c)
    city = env.city_at(c)
    assert city["owner"] == 0 and city["capital"] and city["level"] == 2 and city["population"] == 1
    assert city["production"] == 2 + 1  # level 2 + capital bonus, now for player 0
    assert score(env, 0) == s0 + worth
    assert score(env, 1) == s1 - worth
    assert env.unit_at(c)["status"] == "finished"
    assert env.player(1)["alive"]


def test_capturing_an_enemy_city_rehomes_one_unit_to_it():
    # RULES §8.4 (village): "One unit already supported elsewhere is re-homed to it for bookkeeping: the last
    # unit in the capital's list". Tribes' Board.capture does the same for an enemy city (moveOneToNewCity).
    env = duel(11, p1_city=None)
    c = at(env, 5, 6)
    env.place_city(1, c)
    env.place_city(1, at(env, 10, 10), capital=True)
    capital = at(env, 0, 0)
    env.place_unit(0, "warrior", c)
    env.place_unit(0, "warrior", capital)  # supported by the capital
    assert env.unit_at(capital)["home_city"] == capital
    act(env, "capture", source=c)
    assert env.unit_at(capital)["home_city"] == c
    assert env.city_at(c)["supported"] == 1 and env.city_at(capital)["supported"] == 0


def _captured_low_index_city(env):
    """Player 1's city at (5,6) is placed before player 0's city at (2,2), then captured by player 0: a lower
    city index than (2,2), but later in player 0's acquisition order. Returns (captured, held) tiles."""
    captured, held = at(env, 5, 6), at(env, 2, 2)
    env.place_city(1, captured)
    env.place_city(0, held)
    env.place_unit(0, "warrior", captured)
    act(env, "capture", source=captured)
    return captured, held


def test_level_up_offers_the_first_city_in_acquisition_order():
    # RULES §8.1: "While any city can level up, the owner's only legal actions are that city's two choices
    # (first such city in its list)". A captured city joins the end of the captor's list (Tribes'
    # Tribe.addCity appends to citiesID), whatever its index on the board.
    env = duel(11)
    captured, held = _captured_low_index_city(env)
    env.set_population(captured, 2)
    env.set_population(held, 2)
    assert env.pending_level_up == (held, "workshop", "explorer")
    act(env, "level_up", arg="workshop")
    assert env.pending_level_up == (captured, "workshop", "explorer")


def test_ruins_pop_growth_without_capital_goes_to_the_first_city_in_acquisition_order():
    # RULES §8.4: "Losing the capital: ... its ruins population goes to its first city"; §11 Pop Growth
    # "+3 population in the capital (or the first city)" — the first of its list, so not a city captured later.
    env = duel(11, p0_city=None)
    captured, held = _captured_low_index_city(env)
    ruins = at(env, 8, 2)
    env.set_resource(ruins, "ruins")
    env.place_unit(0, "warrior", ruins)
    before = env.city_at(captured)["population"], env.city_at(held)["population"]
    _testing.force_ruins(env._game, 2, -1)  # pop growth
    act(env, "examine", source=ruins)
    assert (env.city_at(captured)["population"], env.city_at(held)["population"]) == (before[0], before[1] + 3)


def test_elimination_when_no_cities_left():
    # RULES §8.4: "A tribe is eliminated (LOSS) only with no cities left; all its units are then removed."
    env = duel(11, p1_city=None)
    c = at(env, 5, 6)
    env.place_city(1, c, capital=True)
    env.place_unit(0, "warrior", c)
    env.place_unit(1, "warrior", at(env, 8, 8))
    act(env, "capture", source=c)
    p1 = env.player(1)
    assert p1["num_cities"] == 0
    assert not p1["alive"] and p1["result"] == "loss"
    assert env.unit_at(at(env, 8, 8)) is None


def test_losing_capital_is_not_elimination():
    # RULES §8.4: "Losing the capital: the tribe plays on" (score mode, so the game does not end)
    env = duel(11, p1_city=None, mode="score")
    c = at(env, 5, 6)
    env.place_city(1, c, capital=True)
    env.place_city(1, at(env, 9, 9))
    env.place_unit(0, "warrior", c)
    act(env, "capture", source=c)
    end_turn(env)
    assert env.player(1)["alive"] and not env.game_over
    assert env.current_player == 1


# ---------------------------------------------------------------- §8.1 population floor

def test_population_floor_and_negative_production():
    # RULES §8.1: "Population floor is -level"; §14 Further checked figures: "A city set to -5 population
    # is clamped to -1 and produces -1."; §3: a negative population lowers the income total.
    # The editor rejects a population below the floor (ValueError), so the clamp is reached through
    # Destroy (§9.3) of a Farm placed by set_building (no population effect): 0 - 2 -> clamped to -1,
    # and only the applied -1 costs score (-5).
    env = duel()
    c, farm = at(env, 4, 4), at(env, 4, 5)
    env.place_city(0, c)
    env.set_building(farm, "farm")
    ensure_tech(env, 0, "organization", "farming", "construction")
    s = score(env)
    act(env, "destroy", target=farm)
    city = env.city_at(c)
    assert env.tile(farm)["building"] is None
    assert city["population"] == -1
    assert city["production"] == -1
    assert env.income(0) == 2 - 1
    assert score(env) == s - 5


def test_population_below_floor_rejected_by_editor():
    # API: editing methods raise ValueError on bad input; RULES §8.1 floor is -level
    env = duel()
    with pytest.raises(ValueError):
        env.place_city(0, at(env, 4, 4), population=-2)
    env.place_city(0, at(env, 4, 4), population=-1)
    assert env.city_at(at(env, 4, 4))["production"] == -1


# ---------------------------------------------------------------- §9.1 gathering

@pytest.mark.parametrize("resource, terrain, tech", [
    ("fruit", "plain", "organization"), ("animal", "forest", "hunting"), ("fish", "shallow_water", "fishing")])
def test_gather_population_resource(resource, terrain, tech):
    # RULES §9.1: Fruit/Animal/Fish: tech, 2 stars, +1 population (+5 score); the resource is removed
    env = duel(11, players=(Luxidoor, Imperius))  # Luxidoor has no starting tech
    c, t = at(env, 5, 5), at(env, 5, 6)
    env.set_terrain(t, terrain)
    env.set_resource(t, resource)
    env.place_city(0, c)
    env.set_stars(0, 3)
    assert not is_legal(env, "gather", target=t)  # tech missing
    ensure_tech(env, 0, tech)
    s = score(env)
    act(env, "gather", target=t)
    assert env.city_at(c)["population"] == 1
    assert env.stars(0) == 1
    assert score(env) == s + 5
    assert env.tile(t)["resource"] is None


def test_gather_needs_two_stars():
    # RULES §9.1: cost 2
    env = duel(11)
    t = at(env, 5, 6)
    env.set_resource(t, "fruit")
    env.place_city(0, at(env, 5, 5))
    ensure_tech(env, 0, "organization")
    env.set_stars(0, 1)
    assert not is_legal(env, "gather", target=t)


def test_gather_whales():
    # RULES §9.1: Whales: Whaling, cost 0, +10 stars (no population)
    env = duel(11)
    c, t = at(env, 5, 5), at(env, 5, 6)
    env.set_terrain(t, "deep_water")
    env.set_resource(t, "whales")
    env.place_city(0, c)
    ensure_tech(env, 0, "fishing", "whaling")
    act(env, "gather", target=t)
    assert env.stars(0) == 10
    assert env.city_at(c)["population"] == 0
    assert env.tile(t)["resource"] is None


def test_gather_outside_territory_not_legal():
    # RULES §9.1: "The tile must be in the city's territory."
    env = duel(11)
    t = at(env, 5, 7)  # distance 2 from the city
    env.set_resource(t, "fruit")
    env.place_city(0, at(env, 5, 5))
    ensure_tech(env, 0, "organization")
    env.set_stars(0, 10)
    assert not is_legal(env, "gather", target=t)


@pytest.mark.parametrize("resource, terrain", [("crops", "plain"), ("ore", "mountain")])
def test_crops_and_ore_cannot_be_gathered(resource, terrain):
    # RULES §9.1: "Crops, Ore: cannot be gathered; they are Farm and Mine sites"
    env = duel(11)
    t = at(env, 5, 6)
    env.set_terrain(t, terrain)
    env.set_resource(t, resource)
    env.place_city(0, at(env, 5, 5))
    ensure_tech(env, 0, "organization", "climbing", "farming", "mining")
    env.set_stars(0, 10)
    assert not is_legal(env, "gather", target=t)


# ---------------------------------------------------------------- §9.2 buildings

def test_buildings_one_after_another():
    # RULES §14 Further checked figures, "Buildings, one after another in one city starting at 0
    # population: Farm +2, second Farm +2, Windmill next to both +2, second Windmill refused, Port +2,
    # Customs House next to it (production 2->4), Lumber Hut +1 (tile becomes plain), Temple +1
    # population and +105 score."
    # Assumption: the city is level 10 (need 11) so no level-up interrupts the +10 population; the
    # Customs House is checked as production +2 (the figure's 2->4 is a level-1 capital).
    env = duel(11)
    T = lambda x, y: at(env, x, y)  # noqa: E731
    c = T(5, 5)
    env.set_resource(T(4, 4), "crops")
    env.set_resource(T(4, 6), "crops")
    env.set_terrain(T(6, 4), "shallow_water")
    env.set_terrain(T(6, 6), "forest")
    env.place_city(0, c, level=10)
    ensure_tech(env, 0, "organization", "farming", "construction", "fishing", "sailing",
                "riding", "roads", "trade", "hunting", "forestry", "free_spirit")
    env.set_stars(0, 100)

    def build(x, y, building, pop_gain, score_gain, cost):
        p, s, st = env.city_at(c)["population"], score(env), env.stars(0)
        act(env, "build", target=T(x, y), arg=building)
        assert env.city_at(c)["population"] == p + pop_gain, building
        assert score(env) == s + score_gain, building
        assert env.stars(0) == st - cost, building
        assert env.tile(T(x, y))["building"] == building

    build(4, 4, "farm", 2, 10, 5)
    assert env.tile(T(4, 4))["resource"] is None  # §9.2: building removes the resource
    build(4, 6, "farm", 2, 10, 5)
    build(4, 5, "windmill", 2, 10, 5)
    assert not is_legal(env, "build", target=T(5, 4), arg="windmill")  # one per city
    build(6, 4, "port", 2, 10, 10)
    prod = env.city_at(c)["production"]
    build(6, 5, "customs_house", 0, 0, 5)
    assert env.city_at(c)["production"] == prod + 2
    build(6, 6, "lumber_hut", 1, 5, 2)
    assert env.tile(T(6, 6))["terrain"] == "plain"  # [quirk 5]
    build(5, 6, "temple", 1, 105, 20)
    assert env.city_at(c)["population"] == 10


def test_windmill_counts_farms_built_later():
    # RULES §9.2: Windmill "plain next to a Farm", "+1 population per adjacent Farm (also for Farms
    # built later)": Farm +2, Windmill next to it +1, a second Farm next to the Windmill +2 +1
    env = duel(11)
    c = at(env, 5, 5)
    env.set_resource(at(env, 4, 4), "crops")
    env.set_resource(at(env, 4, 6), "crops")
    env.place_city(0, c, level=10)
    ensure_tech(env, 0, "organization", "farming", "construction")
    env.set_stars(0, 20)
    assert not is_legal(env, "build", target=at(env, 4, 5), arg="windmill")  # no Farm next to it yet
    act(env, "build", target=at(env, 4, 4), arg="farm")
    act(env, "build", target=at(env, 4, 5), arg="windmill")
    assert env.city_at(c)["population"] == 3
    act(env, "build", target=at(env, 4, 6), arg="farm")
    assert env.city_at(c)["population"] == 6


def test_mine_and_forge():
    # RULES §9.2: Mine 5 stars (Mining) on mountain with ore +2; Forge (Smithery) next to a Mine +2 per Mine
    env = duel(11)
    c = at(env, 5, 5)
    env.set_terrain(at(env, 4, 4), "mountain")
    env.set_resource(at(env, 4, 4), "ore")
    env.place_city(0, c, level=10)
    ensure_tech(env, 0, "climbing", "mining", "smithery")
    env.set_stars(0, 10)
    act(env, "build", target=at(env, 4, 4), arg="mine")
    assert env.city_at(c)["population"] == 2
    assert env.stars(0) == 5
    act(env, "build", target=at(env, 4, 5), arg="forge")
    assert env.city_at(c)["population"] == 4
    assert env.stars(0) == 0


def test_lumber_hut_and_sawmill():
    # RULES §9.2: Lumber Hut 2 stars (Forestry) on forest +1, tile becomes plain; Sawmill (Mathematics)
    # next to a Lumber Hut +1 per hut
    env = duel(11)
    c = at(env, 5, 5)
    env.set_terrain(at(env, 4, 4), "forest")
    env.place_city(0, c, level=10)
    ensure_tech(env, 0, "hunting", "forestry", "mathematics")
    env.set_stars(0, 7)
    act(env, "build", target=at(env, 4, 4), arg="lumber_hut")
    assert env.city_at(c)["population"] == 1
    assert env.tile(at(env, 4, 4))["terrain"] == "plain"
    act(env, "build", target=at(env, 4, 5), arg="sawmill")
    assert env.city_at(c)["population"] == 2
    assert env.stars(0) == 0


def test_building_needs_tech_and_territory():
    # RULES §9.2: "The tile must be in the city's territory ... The tribe must have the tech and the stars."
    env = duel(11)
    env.set_resource(at(env, 4, 4), "crops")
    env.set_resource(at(env, 3, 3), "crops")  # outside the radius-1 territory
    env.place_city(0, at(env, 5, 5), level=10)
    env.set_stars(0, 20)
    assert not is_legal(env, "build", target=at(env, 4, 4), arg="farm")
    ensure_tech(env, 0, "organization", "farming")
    assert is_legal(env, "build", target=at(env, 4, 4), arg="farm")
    assert not is_legal(env, "build", target=at(env, 3, 3), arg="farm")
    env.set_stars(0, 4)
    assert not is_legal(env, "build", target=at(env, 4, 4), arg="farm")


# ---------------------------------------------------------------- §11 Recover, Disband

@pytest.mark.parametrize("own_territory, expected", [(False, 5), (True, 7)])
def test_recover(own_territory, expected):
    # RULES §14 Further checked figures: "Recover from 3 HP: 7 in own territory, 5 outside."
    # §11: needs FRESH, 0 < HP < max; the unit becomes FINISHED
    env = duel(11)
    t = at(env, 5, 5)
    if own_territory:
        env.place_city(0, at(env, 5, 6))
    env.place_unit(0, "warrior", t, hp=3)
    act(env, "recover", source=t)
    assert hp(env, t) == expected
    assert env.unit_at(t)["status"] == "finished"


def test_recover_preconditions():
    # RULES §11: Recover needs FRESH and 0 < HP < max
    env = duel(11)
    env.place_unit(0, "warrior", at(env, 5, 5))
    env.place_unit(0, "warrior", at(env, 3, 3), hp=3, status="moved")
    assert not is_legal(env, "recover", source=at(env, 5, 5))
    assert not is_legal(env, "recover", source=at(env, 3, 3))


def test_auto_recover_at_turn_end():
    # RULES §7/§12.1: "every unit still FRESH at the end of its turn recovers automatically" (+2 outside)
    env = duel(11)
    env.place_unit(0, "warrior", at(env, 5, 5), hp=3)
    env.place_unit(0, "warrior", at(env, 3, 3), hp=3, status="moved")
    env.place_unit(0, "warrior", at(env, 7, 7))
    end_turn(env)
    assert hp(env, at(env, 5, 5)) == 5
    assert hp(env, at(env, 3, 3)) == 3
    # §7 "Recover ... makes the unit FINISHED": the automatic one too (Tribes runs the Recover
    # action); a unit at full HP has nothing to recover and stays FRESH.
    assert env.unit_at(at(env, 5, 5))["status"] == "finished"
    assert env.unit_at(at(env, 7, 7))["status"] == "fresh"


def test_disband_knight():
    # RULES §14 Further checked figures: "Disbanding a Knight: +4 stars, -40 score."
    # §11: Disband needs FRESH and Free Spirit
    env = duel(11)
    t = at(env, 5, 5)
    env.place_unit(0, "knight", t)
    assert not is_legal(env, "disband", source=t)
    ensure_tech(env, 0, "riding", "free_spirit")
    s, stars = score(env), env.stars(0)
    act(env, "disband", source=t)
    assert env.unit_at(t) is None
    assert env.stars(0) == stars + 4
    assert score(env) == s - 40


def _fogged_level_4_city_with_a_warrior(port=None):
    """A fogged 11x11 board: Bardur's level-4 capital at (5,5) with 4 population, one Fruit from its level-up
    (at (5,4)), a Warrior in it, 10 stars and Organization; ``port``: a port of its own at that tile."""
    env = GameEnv.blank(11, (Bardur, Imperius), revealed=False)
    c = at(env, 5, 5)
    env.place_city(1, at(env, 10, 10), capital=True)
    env.place_city(0, c, level=4, population=4, capital=True)
    env.reveal(0, area(env, c, 1) | {at(env, 5, 4)})
    env.set_resource(at(env, 5, 4), "fruit")
    if port is not None:
        env.set_terrain(port, "shallow_water")
        env.set_building(port, "port")
    ensure_tech(env, 0, "organization")
    env.set_stars(0, 10)
    env.place_unit(0, "warrior", c)
    gather_to_level_up(env)
    return env


def test_unit_pushed_onto_land_reveals_as_a_move_ends_under_fog():
    # RULES §6 Vision: "Unit ends a move | 1" (fog mode; +5 score per newly revealed tile). Tribes pushes a
    # unit onto land with Board.moveUnit, which clears view as a move does. §8.5: the Warrior in the city
    # goes to (5,6), the first offset (0,+1), and reveals the column y = 7 next to it.
    env = _fogged_level_4_city_with_a_warrior()
    s = score(env)
    act(env, "level_up", arg="super_unit")
    revealed = {at(env, x, 7) for x in (4, 5, 6)}
    assert env.unit_at(at(env, 5, 6))["type"] == "warrior"
    assert all(env.tile(t)["explored"][0] for t in revealed)
    assert score(env) == s + 25 + 5 * len(revealed)  # the level-5 reward and the revealed tiles


def test_unit_pushed_onto_its_port_reveals_nothing_under_fog():
    # RULES §6 and §8.5: a unit that embarks on its port when pushed is replaced by a Boat (Tribes'
    # Board.embark), which clears no view.
    port = 5 * 11 + 6  # (5,6), the first push offset from the city
    env = _fogged_level_4_city_with_a_warrior(port=port)
    act(env, "level_up", arg="super_unit")
    assert env.unit_at(port)["type"] == "boat"
    assert not any(env.tile(at(env, x, 7))["explored"][0] for x in (4, 5, 6))


def test_rehoming_takes_the_last_unit_of_the_capitals_list_not_the_newest():
    # RULES §8.4: "the last unit in the capital's list". A unit sent back to the capital when its city is
    # captured joins the end of the list (Tribes' Board.moveAllFromCity / moveLastUnitFromCity), after
    # units spawned later: Java cross-play game 65 of seed 3165 (az against java:MCTS) stopped on it.
    env = duel(11, p0_city=None)
    capital, y, v = at(env, 0, 0), at(env, 5, 5), at(env, 0, 4)
    env.place_city(0, capital, level=2, capital=True)  # room for 3 units
    env.place_city(0, y)
    env.set_terrain(v, "village")
    env.place_unit(0, "warrior", y)            # the older unit, supported by y
    env.place_unit(0, "warrior", capital)      # the newer one, supported by the capital
    move(env, y, at(env, 5, 4))
    end_turn(env)
    env.place_unit(1, "warrior", y)
    act(env, "capture", source=y)              # y's unit goes home: last in the capital's list
    assert env.unit_at(at(env, 5, 4))["home_city"] == capital
    end_turn(env)
    env.place_unit(0, "warrior", v)
    act(env, "capture", source=v)
    assert env.unit_at(at(env, 5, 4))["home_city"] == v
    assert env.unit_at(capital)["home_city"] == capital


def test_a_captured_citys_units_go_home_last_of_its_list_first():
    # RULES §8.4: "The old owner's units supported there are re-homed to its capital (if still held and not
    # full), then to random other cities; the rest become tribe-level units." Tribes' Board.moveAllFromCity
    # moves the last unit of the captured city's list first, so with room for one in the capital the
    # newer unit goes there and the older one becomes tribe-level.
    env = duel(11, p0_city=None)
    capital, y = at(env, 0, 0), at(env, 5, 5)
    env.place_city(0, capital, level=1, capital=True)  # capacity 2
    env.place_unit(0, "warrior", capital)              # one place left
    env.place_city(0, y, level=2)
    env.place_unit(0, "warrior", y)                    # first in y's list
    move(env, y, at(env, 5, 4))
    env.place_unit(0, "warrior", y)                    # last in y's list
    move(env, y, at(env, 5, 6))
    end_turn(env)
    env.place_unit(1, "warrior", y)
    act(env, "capture", source=y)
    assert env.unit_at(at(env, 5, 6))["home_city"] == capital
    assert env.unit_at(at(env, 5, 4))["home_city"] == -1


def test_the_order_of_a_citys_unit_list_survives_serialization():
    # The list order (RULES §8.4 "the last unit in the capital's list") is part of the saved state: the
    # re-homing of the test above gives the same answer after to_bytes / from_bytes.
    env = duel(11, p0_city=None)
    capital, y, v = at(env, 0, 0), at(env, 5, 5), at(env, 0, 4)
    env.place_city(0, capital, level=2, capital=True)
    env.place_city(0, y)
    env.set_terrain(v, "village")
    env.place_unit(0, "warrior", y)
    env.place_unit(0, "warrior", capital)
    move(env, y, at(env, 5, 4))
    end_turn(env)
    env.place_unit(1, "warrior", y)
    act(env, "capture", source=y)
    end_turn(env)
    env = GameEnv.from_bytes(env.to_bytes())
    env.place_unit(0, "warrior", v)
    act(env, "capture", source=v)
    assert env.unit_at(at(env, 5, 4))["home_city"] == v
