"""polyenv.game_description: the static facts of a configuration, computed without building a
game, equal what a live game reports (2..16 players, fog and full observability, the shipped
levels), and the Python faces read them."""
from pathlib import Path

import numpy as np
import pytest

import polyenv
from polyenv import GameEnv, bots, game_description
from polyenv.envs import default_map_size

LEVELS = sorted((Path(polyenv.__file__).parent / "levels").glob("*.csv"))


def _check_against(d, g: GameEnv, max_actions: int, actions: int = 120, seed: int = 0):
    assert (d.map_size, d.num_players, d.num_tiles) == (g.map_size, g.num_players, g.num_tiles)
    assert (d.turn_limit, d.full_observability) == (g.turn_limit, g.full_observability)
    assert (d.action_space_size, d.action_space_fingerprint) == (g.action_space_size, g.action_space_fingerprint)
    assert d.max_actions == max_actions
    # Blocks tile the id range in order; the engine decodes each block's first and last id to that block.
    end = 0
    for name, b in d.action_blocks.items():
        assert b["offset"] == end and b["size"] >= (0 if name in ("declare_war", "send_stars") else 1), name
        end += b["size"]
        if b["size"] == 0:  # a one-player level has no other player to declare war on or send stars to
            continue
        assert g.decode_action(b["offset"])["block"] == b["index"]
        assert g.decode_action(b["offset"] + b["size"] - 1)["block"] == b["index"]
    assert end == d.action_space_size
    low = {k: v[0] for k, v in (("map_tokens", d.map_token_bounds), ("state", d.state_bounds),
                                ("action_features", d.action_feature_bounds))}
    high = {k: v[1] for k, v in (("map_tokens", d.map_token_bounds), ("state", d.state_bounds),
                                 ("action_features", d.action_feature_bounds))}
    kinds = d.action_kinds
    g.reset(seed)
    for step in range(actions):
        if g.game_over:
            break
        if step % 10 == 0:
            for p in range(g.num_players):
                o = g.observe(p, max_actions=max_actions)
                for key in ("map_tokens", "state"):
                    assert (o[key] >= low[key]).all() and (o[key] <= high[key]).all(), (key, p)
                rows = o["action_features"][:int(o["legal_action_count"])]
                assert (rows >= low["action_features"]).all() and (rows <= high["action_features"]).all()
                for row, a in zip(rows, o["action_id"]):  # the kind of every legal action lies in its block
                    block, _ = kinds[polyenv.ACTION_KINDS[row[d.action_feature_columns["type_id"]]]]
                    assert g.decode_action(int(a))["block"] == block
        bots.play(g, "random", seed=step)
    assert [p for p in range(g.num_players) if not g.player(p)["alive"]] == g.eliminated


@pytest.mark.parametrize("players", range(2, 17))
@pytest.mark.parametrize("full", [False, True], ids=["fog", "full"])
def test_generated_games_match_their_description(players, full):
    size = default_map_size(players)
    d = game_description(map_size=size, players=players, full_observability=full, max_actions=64)
    g = GameEnv(seed=players, map_size=size, players=polyenv._names.resolve_tribes(players, False),
                full_observability=full)
    _check_against(d, g, 64, actions=60)


@pytest.mark.parametrize("level", LEVELS, ids=lambda p: p.stem)
@pytest.mark.parametrize("full", [False, True], ids=["fog", "full"])
def test_levels_match_their_description(level, full):
    d = game_description(level=level, full_observability=full, mode="score", max_actions=32)
    g = GameEnv(level=level, full_observability=full, mode="score")
    _check_against(d, g, 32)
    assert d.mode == "score" and d.turn_limit == 30


def test_columns_are_the_exported_names():
    d = game_description()
    assert d.map_token_features == polyenv.MAP_TOKEN_FEATURE_NAMES
    assert d.state_features == polyenv.STATE_FEATURE_NAMES
    assert d.action_features == polyenv.ACTION_FEATURE_NAMES
    assert d.action_arg_mask_features == polyenv.ACTION_ARG_MASK_NAMES
    assert d.map_token_columns == {n: i for i, n in enumerate(polyenv.MAP_TOKEN_FEATURE_NAMES)}
    assert d.state_columns == {n: i for i, n in enumerate(polyenv.STATE_FEATURE_NAMES)}
    assert d.action_feature_columns == {n: i for i, n in enumerate(polyenv.ACTION_FEATURE_NAMES)}
    assert set(d.action_kinds) == set(polyenv.ACTION_KINDS)
    for key in ("map_tokens", "state", "action_features"):
        assert all(d.bound_reasons[key]), key


def test_flag_bits_are_what_the_encoder_writes():
    d = game_description()
    g = GameEnv.blank(8, ["Bardur", "Imperius"])
    g.place_city(0, (2, 2), capital=True, walls=True)
    g.place_unit(0, "warrior", (2, 2), veteran=True)
    tokens = g.observe(0)["map_tokens"][2 * 8 + 2]
    c = d.map_token_columns
    assert tokens[c["city_flags"]] & d.city_flags["capital"] and tokens[c["city_flags"]] & d.city_flags["walls"]
    assert not tokens[c["city_flags"]] & d.city_flags["park"]
    assert tokens[c["unit_flags"]] == d.unit_flags["veteran"]
    assert d.map_token_bounds[1][c["city_flags"]] == sum(d.city_flags.values())


def test_turn_limit_and_defaults():
    d = game_description()
    assert (d.map_size, d.num_players, d.turn_limit, d.mode, d.max_actions) == (11, 2, 50, "capitals", 512)
    assert game_description(max_turns=7).turn_limit == 7
    assert game_description(max_turns=7).state_bounds[1][d.state_columns["turn"]] == 8


def test_a_game_reports_its_own_description():
    g = GameEnv(seed=3, map_size=14, players=["Bardur", "Oumaji", "Zebasi"], mode="score")
    d = g.description
    ref = game_description(map_size=14, players=3, mode="score")
    assert (d.action_space_fingerprint, d.turn_limit, d.num_players) == (ref.action_space_fingerprint, 30, 3)


def test_player_count_rule_comes_from_the_core():
    assert (polyenv.MIN_PLAYERS, polyenv.MAX_PLAYERS) == (polyenv.GameDescription.MIN_PLAYERS,
                                                          polyenv.GameDescription.MAX_PLAYERS) == (2, 16)
    for bad in (0, 1, 17):
        with pytest.raises(ValueError, match="2 to 16 players"):
            game_description(map_size=30, players=bad)


@pytest.mark.parametrize("kwargs,match", [
    (dict(map_size=3), "map_size"),
    (dict(map_size=41), "map_size"),
    (dict(map_size=11.0), "map_size"),
    (dict(mode="domination"), "mode"),
    (dict(max_turns=-2), "max_turns"),
    (dict(max_actions=0), "max_actions"),
    (dict(full_observability="yes"), "full_observability"),
    (dict(players=["Nobody", "Bardur"]), "tribe"),
    (dict(level="/nonexistent/level.csv"), "level"),
    (dict(level=LEVELS[0], players=("Bardur",)), "2 to 16 players"),
])
def test_bad_configurations_raise_value_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        game_description(**kwargs)


def test_level_map_size_must_agree():
    d = game_description(level=Path(polyenv.__file__).parent / "levels" / "duel_11.csv")
    assert d.map_size == 11
    with pytest.raises(ValueError, match="map_size"):
        game_description(level=Path(polyenv.__file__).parent / "levels" / "duel_11.csv", map_size=14)


def test_environments_expose_the_description_of_their_games():
    import gymnasium as gym
    from polyenv.envs import tribes_aec_v0
    from polyenv.vector import TribesVectorEnv

    env = gym.make("polyenv/Tribes-v0", map_size=12, max_actions=16).unwrapped
    assert env.description.action_space_fingerprint == env.game.action_space_fingerprint
    aec = tribes_aec_v0.raw_env(players=3)
    assert aec.description.action_space_fingerprint == aec.game.action_space_fingerprint
    vec = TribesVectorEnv(2, map_size=12, num_threads=1)
    try:
        assert vec.description.action_space_fingerprint == env.action_space_fingerprint
    finally:
        vec.close()
    for e in (env, aec):
        assert np.array_equal(e.description.state_bounds[0], game_description(map_size=e.description.map_size,
                                                                              players=e.description.num_players)
                              .state_bounds[0])


# The exported column names in order: part of the observation contract (every layout's names are
# generated from its column table in csrc/encode/; a change there must show up here as a reviewed diff).
EXPORTED_NAMES = {
    "MAP_TOKEN_FEATURE_NAMES": (
        "explored", "terrain", "resource", "building", "building_level", "road", "territory_owner",
        "territory_city_tile", "city_owner", "city_level", "city_population", "city_flags", "city_production",
        "unit_owner", "unit_type", "unit_hp", "unit_max_hp", "unit_status", "unit_flags", "unit_kills",
        "unit_carried_type", "observed_unit_id", "unit_home_city_tile",
    ),
    "STATE_FEATURE_NAMES": (
        "turn", "current_player", "game_over", "winner", "player_stars", "owns_units", "own_cities",
        "next_turn_star_income", "pending_city_id", "pending_upgrade_a", "pending_upgrade_b",
    ),
    "ACTION_FEATURE_NAMES": (
        "type_id", "source_index", "target_index", "city", "tech", "building", "spawn_type", "upgrade", "tile_action",
        "unit_upgrade", "unit_id", "population_gain", "cost_stars", "stars_before", "affordable", "damage_dealt",
        "damage_received",
    ),
    "ACTION_ARG_MASK_NAMES": (
        "source_index", "target_index", "city", "tech", "building", "spawn_type", "upgrade", "tile_action",
        "unit_upgrade", "unit_id", "population_gain", "cost_stars",
    ),
    "VISIBLE_EVENT_FEATURE_NAMES": (
        "round", "turn", "type_id", "flags", "source_index", "target_index", "damage", "hp_before", "hp_after",
        "actor_player", "actor_tribe", "tile_action_kind", "building_type", "spawn_type", "source_unit_type",
        "target_unit_type", "source_observed_unit_id", "target_observed_unit_id", "source_unit_hp_before",
        "source_unit_hp_after", "target_unit_hp_before", "target_unit_hp_after", "unit_upgrade_kind",
        "upgraded_unit_type", "unit_destroyed", "source_unit_destroyed",
    ),
    "VISIBLE_EVENT_AFFECTED_FEATURE_NAMES": (
        "observed_unit_id", "tile_index", "unit_type", "damage", "hp_before", "hp_after", "destroyed", "splash",
    ),
    "VISIBLE_ACTION_HISTORY_FEATURE_NAMES": (
        "event_type", "actor_player", "actor_tribe", "visibility_flags", "source_index", "target_index",
        "source_unit_type", "target_unit_type", "source_observed_unit_id", "target_observed_unit_id", "detail_kind",
        "detail_value",
    ),
}


@pytest.mark.parametrize("name", sorted(EXPORTED_NAMES))
def test_exported_column_names_are_the_contract(name):
    assert getattr(polyenv, name) == EXPORTED_NAMES[name]

