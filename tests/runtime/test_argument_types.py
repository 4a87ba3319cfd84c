"""Arguments of the wrong type are rejected, not converted (issue 10).

A float where an index is expected used to be truncated (``observe(player=1.5)``
observed player 1), a truthy string turned fog off (``full_observability="False"``)
and bools passed as integers. polyenv/_validate.py is the one helper behind every
check: a wrong type raises ``ArgumentTypeError``, which is a ``TypeError`` and
also a ``ValueError`` (the project's "malformed argument" contract). Every
rejected call on a live game leaves it unchanged.
"""
import numpy as np
import pytest

import polyenv
from polyenv import GameEnv, VectorGameEnv
from polyenv._validate import ArgumentTypeError


def assert_type_rejected(env, fn, *args, **kwargs):
    before, state_id = env.to_bytes(), env.state_id
    with pytest.raises(TypeError) as info:
        fn(*args, **kwargs)
    assert isinstance(info.value, ValueError), "a wrong type is also a malformed argument (ValueError)"
    assert env.to_bytes() == before and env.state_id == state_id


@pytest.fixture
def env():
    e = GameEnv(seed=3, map_size=11)
    e.playout(max_actions=60, seed=1)
    return e


def test_argument_type_error_is_both():
    assert issubclass(ArgumentTypeError, TypeError) and issubclass(ArgumentTypeError, ValueError)
    assert polyenv.ArgumentTypeError is ArgumentTypeError and "ArgumentTypeError" in polyenv.__all__


@pytest.mark.parametrize("value", [1.5, 1.0, True, "1", np.float64(1.0)], ids=repr)
def test_float_bool_and_str_indices_are_not_truncated(env, value):
    legal = int(env.legal_actions()[-1])
    assert_type_rejected(env, env.observe, player=value)
    assert_type_rejected(env, env.describe_action, value)
    assert_type_rejected(env, env.decode_action, value)
    assert_type_rejected(env, env.is_legal, value)
    assert_type_rejected(env, env.playout, max_actions=value)
    assert_type_rejected(env, env.observe, max_actions=value)
    assert_type_rejected(env, env.player, value)
    assert_type_rejected(env, env.income, value)
    assert_type_rejected(env, env.score_margin, value)
    assert_type_rejected(env, env.tech_cost, value, "riding")
    assert_type_rejected(env, env.visible_events_numpy, player=value)
    assert_type_rejected(env, env.visible_events_numpy, value)
    assert_type_rejected(env, env.tile, (value, 2))
    assert_type_rejected(env, env.tile, value)
    assert env.is_legal(legal) and env.is_legal(np.int64(legal))


def test_is_legal_of_a_float_near_a_legal_id(env):
    legal = int(env.legal_actions()[-1])
    assert_type_rejected(env, env.is_legal, legal + 0.7)


@pytest.mark.parametrize("kind,kwargs", [
    ("research", dict(arg=1.5)), ("research", dict(arg=1.0)), ("send_stars", dict(target=1, arg=1.5)),
    ("send_stars", dict(target=1.0, arg=2)), ("declare_war", dict(target=True)), ("spawn", dict(source=5, arg=0.0)),
    ("build", dict(target=5, arg=True)), ("level_up", dict(arg=1.0)), ("move", dict(source=1.5, target=2)),
])
def test_action_id_arguments(env, kind, kwargs):
    with pytest.raises(TypeError):
        env.action_id(kind, **kwargs)


@pytest.mark.parametrize("players", [(1.0, 2.0), (True, 2), (np.float32(2), 1)], ids=repr)
def test_players_as_floats_or_bools(players):
    with pytest.raises(TypeError, match="tribe"):
        GameEnv(players=players)
    with pytest.raises(TypeError, match="tribe"):
        GameEnv.blank(8, players)
    with pytest.raises(TypeError, match="tribe"):
        VectorGameEnv(1, map_size=8, players=players)


@pytest.mark.parametrize("value", ["False", "", 0, 1, 1.0, None], ids=repr)
def test_flags_accept_only_bools(value):
    with pytest.raises(TypeError, match="full_observability"):
        GameEnv(full_observability=value)
    with pytest.raises(TypeError, match="auto_end_turn"):
        GameEnv(auto_end_turn=value)
    with pytest.raises(TypeError, match="full_observability"):
        GameEnv.blank(8, (0, 1), full_observability=value)
    with pytest.raises(TypeError, match="revealed"):
        GameEnv.blank(8, (0, 1), revealed=value)
    for flag in ("full_observability", "auto_reset", "include_combat_preview", "keep_terminal_observation"):
        with pytest.raises(TypeError, match=flag):
            VectorGameEnv(1, map_size=8, **{flag: value})


def test_gym_and_pettingzoo_flags_accept_only_bools():
    from polyenv.envs.gym_env import TribesEnv

    with pytest.raises(TypeError, match="full_observability"):
        TribesEnv(full_observability="False")
    pytest.importorskip("pettingzoo")
    from polyenv.envs import tribes_aec_v0

    with pytest.raises(TypeError, match="full_observability"):
        tribes_aec_v0.raw_env(players=2, full_observability="False")


def test_numpy_bools_and_integers_are_accepted(env):
    assert GameEnv(full_observability=np.bool_(True)).full_observability
    assert env.observe(player=np.int64(1))["state"].shape == (11,)


def test_edit_flags_accept_only_bools():
    env = GameEnv.blank(8, (0, 1))
    assert_type_rejected(env, env.place_city, 0, (1, 1), capital="False")
    assert_type_rejected(env, env.place_city, 0, (1, 1), walls=1)
    assert_type_rejected(env, env.place_unit, 0, "warrior", (2, 2), veteran="no")
    assert_type_rejected(env, env.playout, record_events="yes")
    assert_type_rejected(env, env.observe, include_combat_preview=1)


def test_combat_preview_needs_a_unit_on_both_tiles():
    env = GameEnv.blank(8, (0, 1))
    env.place_city(0, (1, 1), capital=True)
    env.place_city(1, (6, 6), capital=True)
    env.place_unit(0, "warrior", (3, 3))
    env.place_unit(1, "warrior", (3, 4))
    assert env.combat_preview((3, 3), (3, 4))["dealt"] > 0
    for attacker, target in (((2, 2), (3, 4)), ((3, 3), (5, 5)), ((0, 0), (7, 7))):
        with pytest.raises(ValueError, match="no unit"):
            env.combat_preview(attacker, target)


def test_pettingzoo_step_before_reset_is_a_clear_error():
    pytest.importorskip("pettingzoo")
    from polyenv.envs import tribes_aec_v0

    raw = tribes_aec_v0.raw_env(players=2)
    with pytest.raises(RuntimeError, match="reset"):
        raw.step(0)
    raw.reset(seed=0)
    raw.step(int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"])[0]))


def test_pettingzoo_seed_must_be_an_integer():
    pytest.importorskip("pettingzoo")
    from polyenv.envs import tribes_aec_v0

    with pytest.raises(TypeError, match="seed"):
        tribes_aec_v0.raw_env(players=2).reset(seed=1.5)
