"""Economy rules: RULES.md §3 (stars, income), §4 (tech costs, tree, research
score) and §10 (Send Stars, Declare War) with the §13 legal-action counts."""
import pytest

import polyenv
from polyenv import Bardur, GameEnv, Imperius, Luxidoor, Oumaji

from conftest import act, aid, at, duel, end_round, end_turn, ensure_tech, is_legal


def send_stars_ids(env, targets=(1,)):
    return {aid(env, "send_stars", target=r, arg=n) for r in targets for n in range(1, 15)}


def legal_send_stars(env, targets=(1,)):
    return len(send_stars_ids(env, targets) & set(env.legal_actions().tolist()))


# ---------------------------------------------------------------- §3 stars and income

def test_starting_stars_are_5():
    # RULES §3: "Starting stars: 5. At tick 0 stars are set to 5 and cities produce nothing."
    env = GameEnv(seed=0)
    assert env.turn == 0
    assert env.stars(0) == 5
    end_turn(env)
    assert env.current_player == 1
    assert env.stars(1) == 5
    assert env.stars(0) == 5  # no income at tick 0


def test_first_income_after_tick_0():
    # RULES §3: level-1 capital gives 2 a turn: 5 at tick 0, 7 at tick 1
    env = GameEnv(seed=0)
    end_round(env)
    assert env.turn == 1 and env.current_player == 0
    assert env.stars(0) == 7


def test_income_capital_level_1_gives_2():
    # RULES §3 examples: "level-1 capital 2 a turn"
    env = duel()
    assert env.income(0) == 2
    end_turn(env)  # player 1's turn starts: income added
    assert env.stars(1) == 2


def test_income_other_level_1_city_gives_1():
    # RULES §3 examples: "other level-1 city 1"
    env = duel()
    env.place_city(0, at(env, 3, 3))
    assert env.income(0) == 3
    end_round(env)
    assert env.stars(0) == 3


def test_income_city_with_enemy_unit_on_centre_yields_0():
    # RULES §3: "A city with an enemy unit on its centre tile yields 0."
    env = duel()
    env.place_city(0, at(env, 3, 3))
    env.place_unit(1, "warrior", at(env, 3, 3))
    assert env.income(0) == 2


def test_occupied_city_keeps_its_production():
    """Tribes' City.getProduction() ignores units: an enemy unit on the centre only removes the city
    from the income at turn start (GameState.initTurn), not from its production (city_at, the
    city_production column, the ranking's production tie-break)."""
    env = duel()
    c = at(env, 3, 3)
    env.place_city(0, c)
    env.place_unit(1, "warrior", c)
    assert env.city_at(c)["production"] == 1
    assert env.income(0) == 2
    col = list(polyenv.MAP_TOKEN_FEATURE_NAMES).index("city_production")
    assert env.observe(player=0)["map_tokens"][c, col] == 1
    end_round(env)
    assert env.stars(0) == 2  # the occupied city still yields nothing at turn start


def test_income_luxidoor_capital_gives_4():
    # RULES §3 examples: "Luxidoor capital 4" (level 3 + 1 capital bonus)
    env = GameEnv(seed=0, players=(Luxidoor, Bardur))
    assert env.income(0) == 4
    end_round(env)
    assert env.stars(0) == 5 + 4


def test_income_workshop_bonus():
    # RULES §3: production = level + bonus + 1 (capital); Workshop +1. A level-2 capital with a
    # Workshop gives 4 (also "Workshop, production 4" in the level-up chain).
    env = duel(p0_city=None)
    c = at(env, 3, 3)
    env.place_city(0, c, population=20, capital=True)
    act(env, "level_up", arg="workshop")
    assert env.city_at(c)["production"] == 4


# ---------------------------------------------------------------- §4 tech costs

def test_tech_cost_tier_1_one_city():
    # RULES §4 / Further checked figures: tier 1 with 1 city costs 5
    env = duel()
    assert env.tech_cost(0, "climbing") == 5


def test_tech_cost_tier_3_three_cities():
    # RULES §4: tier 3 with 3 cities costs 13 (4 + 3*3)
    env = duel()
    env.place_city(0, at(env, 3, 3))
    env.place_city(0, at(env, 5, 1))
    assert env.player(0)["num_cities"] == 3
    assert env.tech_cost(0, "smithery") == 13


def test_tech_cost_with_philosophy():
    # RULES §4 [quirk 1]: with Philosophy floor(cost*0.2): tier 1/1 city 5 -> 1; tier 3/3 cities 13 -> 2
    env = duel()
    ensure_tech(env, 0, "climbing", "meditation", "philosophy")
    assert env.tech_cost(0, "fishing") == 1
    env.place_city(0, at(env, 3, 3))
    env.place_city(0, at(env, 5, 1))
    assert env.tech_cost(0, "smithery") == 2


@pytest.mark.parametrize("tech, tier", [("climbing", 1), ("riding", 1)])
def test_research_deducts_cost_and_adds_tier_score(tech, tier):
    # RULES §4: "Researching adds tier x 100 score"; cost 5 at tier 1 with 1 city
    env = duel(players=(Luxidoor, Imperius))
    env.set_stars(0, 7)
    s = env.player(0)["score"]
    act(env, "research", arg=tech)
    assert env.stars(0) == 2
    assert env.player(0)["score"] == s + tier * 100
    assert tech in env.player(0)["techs"]


def test_research_score_tier_2_and_3():
    # RULES §4: +tier x 100: Archery (2) +200, Spiritualism (3) +300 (costs 4+2*1=6 and 4+3*1=7)
    env = duel(players=(Luxidoor, Imperius))
    ensure_tech(env, 0, "hunting")
    env.set_stars(0, 13)
    s = env.player(0)["score"]
    act(env, "research", arg="archery")
    assert env.player(0)["score"] == s + 200
    assert env.stars(0) == 7
    act(env, "research", arg="spiritualism")
    assert env.player(0)["score"] == s + 500
    assert env.stars(0) == 0


def test_research_needs_enough_stars():
    # RULES §4: "the tribe has enough stars"
    env = duel(players=(Luxidoor, Imperius))
    env.set_stars(0, 4)
    assert not is_legal(env, "research", arg="climbing")
    env.set_stars(0, 5)
    assert is_legal(env, "research", arg="climbing")


TECH_TREE = [  # RULES §4 table: (tech, tier, parent)
    ("climbing", 1, None), ("fishing", 1, None), ("hunting", 1, None), ("organization", 1, None),
    ("riding", 1, None), ("archery", 2, "hunting"), ("farming", 2, "organization"),
    ("forestry", 2, "hunting"), ("free_spirit", 2, "riding"), ("meditation", 2, "climbing"),
    ("mining", 2, "climbing"), ("roads", 2, "riding"), ("sailing", 2, "fishing"),
    ("shields", 2, "organization"), ("whaling", 2, "fishing"), ("aquatism", 3, "whaling"),
    ("chivalry", 3, "free_spirit"), ("construction", 3, "farming"), ("mathematics", 3, "forestry"),
    ("navigation", 3, "sailing"), ("smithery", 3, "mining"), ("spiritualism", 3, "archery"),
    ("trade", 3, "roads"), ("philosophy", 3, "meditation"),
]


def test_tech_table_order():
    # RULES §4 / API: polyenv.TECHS follows the §4 table order
    assert tuple(polyenv.TECHS) == tuple(t for t, _, _ in TECH_TREE)


@pytest.mark.parametrize("tech, tier, parent", TECH_TREE)
def test_tech_tree_parent(tech, tier, parent):
    # RULES §4: "A tech can be researched if its parent is researched (or it has no parent)"
    env = duel(players=(Luxidoor, Imperius))  # Luxidoor starts with no tech
    env.set_stars(0, 100)
    assert env.tech_cost(0, tech) == 4 + tier * 1
    if parent is None:
        assert is_legal(env, "research", arg=tech)
        return
    assert not is_legal(env, "research", arg=tech)
    env.grant_tech(0, parent)
    assert is_legal(env, "research", arg=tech)


def test_known_tech_cannot_be_researched_again():
    # RULES §13: Research lists researchable techs only
    env = duel(players=(Luxidoor, Imperius))
    env.set_stars(0, 100)
    act(env, "research", arg="climbing")
    assert not is_legal(env, "research", arg="climbing")


# ---------------------------------------------------------------- §10 Send Stars

@pytest.mark.parametrize("stars, count", [(0, 0), (1, 0), (2, 1), (5, 4), (15, 14), (20, 14)])
def test_send_stars_count(stars, count):
    # RULES §10/§13: n in 1..min(stars,15)-1 per other tribe; "checked: 14 at 20 stars with 2 tribes"
    env = duel()
    env.set_stars(0, stars)
    assert legal_send_stars(env) == count


def test_send_stars_count_three_tribes():
    # RULES §13: (tribes - 1) x (min(stars, 15) - 1) = 2 x 14 at 20 stars
    env = GameEnv.blank(8, (Bardur, Imperius, Oumaji))
    env.set_stars(0, 20)
    assert legal_send_stars(env, targets=(1, 2)) == 28


def test_send_stars_effect():
    # RULES §10: "The sender loses n stars and gains n score; the receiver gains n stars"
    env = duel()
    env.set_stars(0, 20)
    env.set_stars(1, 3)
    s0, s1 = env.player(0)["score"], env.player(1)["score"]
    act(env, "send_stars", target=1, arg=7)
    assert env.stars(0) == 13 and env.stars(1) == 10
    assert env.player(0)["score"] == s0 + 7
    assert env.player(1)["score"] == s1


def test_send_stars_limit_per_turn():
    # RULES §10: "Needs stars sent this turn < 30" (literal: checked before sending, so 14+14 = 28
    # still allows a third send of 14, reaching 42; then nothing)
    env = duel()
    env.set_stars(0, 100)
    for _ in range(3):
        act(env, "send_stars", target=1, arg=14)
    assert env.stars(0) == 100 - 42
    assert legal_send_stars(env) == 0
    end_round(env)  # §12.1: stars-sent resets at turn start
    assert legal_send_stars(env) == 14


# ---------------------------------------------------------------- §10 Declare War

def test_declare_war_count():
    # RULES §13: DECLARE_WAR <= tribes - 1
    env = duel()
    assert is_legal(env, "declare_war", target=1)
    env3 = GameEnv.blank(8, (Bardur, Imperius, Oumaji))
    assert is_legal(env3, "declare_war", target=1) and is_legal(env3, "declare_war", target=2)


def test_declare_war_once_and_only_above_minus_30():
    # RULES §10: "only if not yet used this turn and allegiance(self, target) > -30. Sets the pair to -30."
    env = duel()
    env.set_stars(0, 10)
    act(env, "declare_war", target=1)
    assert not is_legal(env, "declare_war", target=1)
    end_round(env)
    # new turn, flag reset, but allegiance is -30, not > -30
    assert not is_legal(env, "declare_war", target=1)
    # Send Stars: allegiance +n -> -29 > -30
    env.set_stars(0, 10)
    act(env, "send_stars", target=1, arg=1)
    assert is_legal(env, "declare_war", target=1)


def test_stars_are_capped_at_max_stars():
    # Not a Tribes rule: stars stop at polyenv.MAX_STARS so int32 arithmetic never overflows
    # (set_stars(p, 2**31 - 1) followed by income used to wrap to a negative count).
    env = duel()
    with pytest.raises(ValueError):
        env.set_stars(0, 2**31 - 1)
    with pytest.raises(ValueError):
        env.set_stars(0, polyenv.MAX_STARS + 1)
    assert env.stars(0) == 0
    env.set_stars(1, polyenv.MAX_STARS)
    end_turn(env)  # player 1's income arrives
    assert env.stars(1) == polyenv.MAX_STARS
    env.check_invariants()


def test_send_stars_and_declare_war_include_eliminated_tribes():
    # RULES §10: Send Stars "to any other tribe"; Declare War "only if not yet used this turn and
    # allegiance(self, target) > −30" — an eliminated tribe included (Tribes' SendStarsFactory and
    # DeclareWarFactory list every other tribe).
    env = GameEnv.blank(8, (Bardur, Imperius, Oumaji))
    env.place_city(0, (0, 0), capital=True)
    env.place_city(1, (7, 7), capital=True)
    env.place_city(2, (4, 4), capital=True)
    env.set_current_player(1)
    env.place_unit(1, "warrior", (4, 4))
    act(env, "capture", source=(4, 4))  # allegiance(1, 2) -30; player 0's stays 0
    assert not env.player(2)["alive"]
    env.set_current_player(0)
    env.set_stars(0, 20)
    assert legal_send_stars(env, targets=(1, 2)) == 28
    assert is_legal(env, "declare_war", target=2)
