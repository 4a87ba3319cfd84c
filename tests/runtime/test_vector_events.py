"""VectorGameEnv: the visible-event window (fog-safe, right-aligned, bounded,
empty after an auto-reset), terminal observations (final_* keys) and the
opponent option (bots play the non-learner seats natively)."""
import numpy as np
import pytest

import polyenv
from polyenv import Bardur, Imperius, Oumaji, VectorGameEnv

from vector_reference import Reference, assert_batches_equal, assert_lockstep, random_actions

GAME = dict(map_size=8, players=(Bardur, Imperius), max_turns=3)
DIPLOMACY = (polyenv.ACTION_KINDS.index("declare_war"), polyenv.ACTION_KINDS.index("send_stars"))
EVENT_KEYS = ("visible_event_features", "visible_event_sequence", "visible_event_action_sequence",
              "visible_event_mask", "visible_event_affected", "visible_event_affected_mask")


def make(num_envs=5, **kwargs):
    args = dict(GAME, seed=0, max_actions=48, num_threads=2)
    args.update(kwargs)
    return VectorGameEnv(num_envs, **args)


# ---------------------------------------------------------------------------- the window

@pytest.mark.parametrize("auto_reset", [True, False])
def test_window_is_the_last_k_records_of_the_players_fog_filtered_journal(auto_reset):
    """Every row equals GameEnv.visible_events_numpy() of the row's player, cut to the last K:
    the same visible_record() filter, so no event the player could not see ever appears."""
    K, B = 6, 4
    env = make(B, seed=500, visible_event_history=K, auto_reset=auto_reset, keep_terminal_observation=True)
    ref = Reference(B, seed=500, max_actions=48, history=K, auto_reset=auto_reset, keep_terminal=True,
                    map_size=8, players=(Bardur, Imperius), max_turns=3)
    assert_lockstep(env, ref, seed=500, rng_seed=11, steps=250, auto_reset=auto_reset)
    env.close()


def test_window_layout_right_aligned_chronological_and_bounded():
    K = 4
    with make(6, seed=600, visible_event_history=K, max_turns=8) as env:
        batch = env.reset(seed=600)
        rng = np.random.default_rng(12)
        longest = 0
        for _ in range(200):
            batch = env.step(random_actions(batch, rng))
            mask = batch["visible_event_mask"].astype(bool)
            seq = batch["visible_event_sequence"]
            for r in range(6):
                n = mask[r].sum()
                assert (mask[r, K - n:]).all() and not mask[r, : K - n].any()  # right-aligned
                valid = seq[r, K - n:].astype(np.int64)
                assert (np.diff(valid) == 1).all()  # the newest n of one private stream, oldest first
                assert (seq[r, : K - n] == 0).all() and (batch["visible_event_features"][r, : K - n] == 0).all()
                assert (np.diff(batch["visible_event_action_sequence"][r, K - n:].astype(np.int64)) > 0).all()
                longest = max(longest, int(valid[-1]) if n else 0)
            assert mask.sum(axis=1).max() <= K
        assert longest > 10 * K  # long histories, bounded window


def test_events_never_reveal_tiles_the_observer_has_not_explored():
    K = 8
    with make(8, seed=700, visible_event_history=K, max_turns=8, map_size=10) as env:
        batch = env.reset(seed=700)
        rng = np.random.default_rng(13)
        foreign = 0
        for _ in range(300):
            batch = env.step(random_actions(batch, rng))
            explored = batch["map_tokens"][:, :, 0]
            f = batch["visible_event_features"]
            names = env.visible_event_feature_names
            src, tgt, actor = names.index("source_index"), names.index("target_index"), names.index("actor_player")
            for r, k in zip(*np.nonzero(batch["visible_event_mask"])):
                if f[r, k, actor] == 1:
                    continue  # the observer's own actions (ownership code 1 = self)
                foreign += 1
                if f[r, k, names.index("type_id")] in DIPLOMACY:  # public; target_index is a player
                    assert f[r, k, src] == -1
                    continue
                for col in (src, tgt):
                    if f[r, k, col] >= 0:
                        assert explored[r, f[r, k, col]] == 1
                rows = batch["visible_event_affected_mask"][r, k].astype(bool)
                for tile in batch["visible_event_affected"][r, k][rows][:, 1]:
                    assert explored[r, tile] == 1
        assert foreign > 0


def test_auto_reset_rows_start_with_an_empty_window():
    with make(6, seed=800, visible_event_history=5) as env:
        batch = env.reset(seed=800)
        assert not batch["visible_event_mask"].any()
        rng = np.random.default_rng(14)
        resets = 0
        for _ in range(500):
            batch = env.step(random_actions(batch, rng))
            done = batch["terminated"].astype(bool)
            assert not batch["visible_event_mask"][done].any()
            assert not batch["visible_event_sequence"][done].any()
            resets += done.sum()
        assert resets > 0


def test_zero_history_keeps_the_event_keys_with_an_empty_k_dimension():
    with make(3, visible_event_history=0) as env:
        batch = env.step(random_actions(env.reset(seed=1), np.random.default_rng(0)))
        for key in EVENT_KEYS:
            assert batch[key].shape[:2] == (3, 0)


# ---------------------------------------------------------------------------- terminal observations

def test_final_observation_keys_and_transition_next_observations():
    B, K = 6, 3
    with make(B, seed=900, visible_event_history=K, keep_terminal_observation=True) as env:
        spec = env.batch_spec()
        finals = [k for k in spec if k.startswith("final_")]
        assert finals == ["final_" + k for k in ("map_tokens", "state") + EVENT_KEYS]
        for k in finals:
            assert spec[k] == spec[k[len("final_"):]]
        batch = env.reset(seed=900)
        assert not any(batch[k].any() for k in finals)
        rng = np.random.default_rng(15)
        ended = 0
        for _ in range(400):
            actor = batch["state"][:, 1].copy()
            batch = env.step(random_actions(batch, rng))
            done = batch["terminated"].astype(bool)
            for k in finals:
                assert not batch[k][~done].any()
            for r in np.flatnonzero(done):
                st = batch["final_state"][r]
                assert st[2] == 1 and batch["state"][r, 2] == 0  # terminal vs the next episode
                assert batch["reward"][r] == (1.0 if st[3] == actor[r] else -1.0)
                assert batch["final_visible_event_mask"][r].any()
            nxt = VectorGameEnv.transition_next_observations(batch)
            for key, value in nxt.items():
                np.testing.assert_array_equal(value[done], batch["final_" + key][done])
                np.testing.assert_array_equal(value[~done], batch[key][~done])
            ended += done.sum()
        assert ended > 0
    with make(2) as env, pytest.raises(ValueError, match="keep_terminal_observation"):
        VectorGameEnv.transition_next_observations(env.reset())


# ---------------------------------------------------------------------------- opponents

@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_opponent_rows_show_only_learner_turns(opponent):
    B = 4
    with make(B, seed=1000, opponent=opponent, visible_event_history=6, auto_reset=False) as env:
        assert env.learner_seats == (0,)
        batch = env.reset(seed=1000)
        rng = np.random.default_rng(16)
        bot_events = ended = 0
        for _ in range(400):
            live = batch["state"][:, 2] == 0
            assert (batch["state"][live, 1] == 0).all()  # the learner is always the one to move
            batch = env.step(np.where(live, random_actions(batch, rng), 0).astype(np.int32))
            f = batch["visible_event_features"]
            actor_col = env.visible_event_feature_names.index("actor_player")
            bot_events += int(((f[..., actor_col] == 2) & batch["visible_event_mask"].astype(bool)).sum())
            for r in np.flatnonzero(batch["terminated"]):
                ended += 1
                winner = batch["state"][r, 3]
                assert batch["reward"][r] == (1.0 if winner == 0 else -1.0)
            if batch["state"][:, 2].all():
                break
        assert ended > 0 and bot_events > 0


def test_opponent_with_a_later_learner_seat_and_determinism_across_threads():
    def run(threads):
        env = make(4, seed=1100, opponent="random", learner_seats=(1,), num_threads=threads,
                   visible_event_history=4, players=(Bardur, Imperius, Oumaji), map_size=10)
        batch = env.reset(seed=1100)
        out = [batch]
        rng = np.random.default_rng(17)
        for _ in range(150):
            assert (batch["state"][:, 1] == 1).all()
            batch = env.step(random_actions(batch, rng))
            out.append(batch)
        env.close()
        return out
    a, b = run(1), run(3)
    for x, y in zip(a, b):
        assert_batches_equal(x, y)
    # the bot (seat 0) moved before the learner's first turn, visibly or not: round 0, player 1 to move
    assert (a[0]["state"][:, 1] == 1).all()


def test_opponent_with_several_learner_seats():
    with make(4, seed=1200, opponent="greedy", learner_seats=(0, 2), players=(Bardur, Imperius, Oumaji),
              map_size=10) as env:
        batch = env.reset(seed=1200)
        rng = np.random.default_rng(18)
        seats = set()
        for _ in range(150):
            live = batch["state"][:, 2] == 0
            seats.update(batch["state"][live, 1].tolist())
            batch = env.step(random_actions(batch, rng))
        assert seats == {0, 2}
