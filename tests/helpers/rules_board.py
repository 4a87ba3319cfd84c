"""Helpers of the rule tests of buildings, tile actions, roads and diplomacy (tests/engine/test_rules_*.py).

``work_city`` is their board: ``duel(map_size)`` (capitals at (0,0) and (10,10)) plus a player-0
city at (5,5) of level 10 (so no level-up interrupts), territory (4..6, 4..6).
"""
import numpy as np

import polyenv

from conftest import aid, at, duel


def score(env, p=0):
    return env.player(p)["score"]


def pop(env, tile):
    return env.city_at(tile)["population"]


def advertised_gain(env, kind, target, arg):
    """The population_gain column of the action row of a legal action (the encoder's preview)."""
    obs = env.observe(max_actions=4096)
    row = np.flatnonzero(obs["action_id"] == aid(env, kind, target=target, arg=arg))
    assert row.size == 1
    return int(obs["action_features"][row[0], polyenv.ACTION_FEATURE_NAMES.index("population_gain")])


def work_city(map_size=11, level=10, **kw):
    env = duel(map_size)
    c = at(env, 5, 5)
    env.place_city(0, c, level=level, **kw)
    return env, c, (lambda x, y: at(env, x, y))


def available(env, p=0):
    return set(env.player(p)["monuments_available"])


def allegiance(env, a, b):
    return env.player(a)["allegiance"][b]
