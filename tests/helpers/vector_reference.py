"""A slow, obviously-correct model of VectorGameEnv (self-play) built from GameEnv.

Each environment is a GameEnv; rows are produced with ``GameEnv.observe`` and
``GameEnv.visible_events_numpy`` exactly as the seed-000 contract describes.
Tests compare VectorGameEnv batches with it field by field.
"""
from __future__ import annotations

import numpy as np

from polyenv import GameEnv

# Keys whose values are process-unique opaque ids (compared by pattern, not value).
ID_KEYS = ("state_id", "episode_id")


def random_actions(batch, rng):
    """A uniformly random represented (legal) action id per row, chosen in NumPy."""
    counts = batch["legal_action_count"]
    rows = np.minimum((rng.random(len(counts)) * counts).astype(np.int64), np.maximum(counts - 1, 0))
    ids = batch["action_id"][np.arange(len(counts)), rows]
    return np.where(counts > 0, ids, 0).astype(np.int32)


def assert_batches_equal(a, b, skip=ID_KEYS):
    assert list(a) == list(b)
    for key in a:
        if key in skip:
            continue
        assert a[key].dtype == b[key].dtype, key
        assert a[key].shape == b[key].shape, key
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def assert_lockstep(env, ref, seed: int, rng_seed: int, steps: int, auto_reset: bool) -> None:
    """Resets both with `seed`, steps them with the same random actions and compares every
    batch; at least one episode must end (all of them when games are not auto-reset)."""
    batch = env.reset(seed=seed)
    assert_batches_equal(batch, ref.reset(seed=seed))
    rng = np.random.default_rng(rng_seed)
    ended = 0
    for _ in range(steps):
        actions = random_actions(batch, rng)
        batch = env.step(actions)
        assert_batches_equal(batch, ref.step(actions))
        ended += int(batch["terminated"].sum())
        if not auto_reset and batch["state"][:, 2].all():
            break
    assert ended > 0


class Reference:
    """B GameEnv games stepped one by one in Python, producing VectorGameEnv-shaped batches."""

    def __init__(self, num_envs, seed=0, max_actions=64, history=0, auto_reset=True, keep_terminal=False,
                 **game_kwargs):
        self.B, self.base, self.A, self.K = num_envs, seed, max_actions, history
        self.auto_reset, self.keep_terminal = auto_reset, keep_terminal
        self.kwargs = game_kwargs
        self.episode = [0] * num_envs
        self.games = [self._new(i) for i in range(num_envs)]
        self.observer = [g.current_player for g in self.games]

    def _new(self, i):
        return GameEnv(seed=(self.base + i + self.episode[i] * self.B) % 2**64, **self.kwargs)

    def reset(self, seed=None):
        if seed is not None:
            self.base = seed
        for i in range(self.B):
            self.episode[i] = 0 if seed is not None else self.episode[i] + 1
            self.games[i] = self._new(i)
            self.observer[i] = self.games[i].current_player
        return self._batch([0.0] * self.B, [0] * self.B, [0] * self.B, [None] * self.B)

    def step(self, actions):
        rewards, terms, valids, finals = [], [], [], []
        for i, a in enumerate(np.asarray(actions).tolist()):
            g = self.games[i]
            reward, term, final = 0.0, 0, None
            valid = int(not g.game_over and g.is_legal(a))
            if valid:
                actor = g.current_player
                g.step(a)
                self.observer[i] = g.current_player
                if g.game_over:
                    term = 1
                    reward = 1.0 if g.winner == actor else -1.0
                    self.observer[i] = actor
                    final = self._observation(g, actor)
                    if self.auto_reset:
                        self.episode[i] += 1
                        self.games[i] = self._new(i)
                        self.observer[i] = self.games[i].current_player
            rewards.append(reward), terms.append(term), valids.append(valid), finals.append(final)
        return self._batch(rewards, terms, valids, finals)

    def _window(self, g, player):
        K = self.K
        out = {
            "visible_event_features": np.zeros((K, 26), np.int32),
            "visible_event_sequence": np.zeros(K, np.uint64),
            "visible_event_action_sequence": np.zeros(K, np.uint64),
            "visible_event_mask": np.zeros(K, np.uint8),
            "visible_event_affected": np.zeros((K, 9, 8), np.int32),
            "visible_event_affected_mask": np.zeros((K, 9), np.uint8),
        }
        if K == 0:
            return out
        events, _ = g.visible_events_numpy(0, player=player)
        n = min(K, len(events["sequence"]))
        if n:
            out["visible_event_features"][K - n:] = events["features"][-n:]
            out["visible_event_sequence"][K - n:] = events["sequence"][-n:]
            out["visible_event_action_sequence"][K - n:] = events["action_sequence"][-n:]
            out["visible_event_mask"][K - n:] = 1
            out["visible_event_affected"][K - n:] = events["affected"][-n:]
            out["visible_event_affected_mask"][K - n:] = events["affected_mask"][-n:]
        return out

    def _observation(self, g, player):
        o = g.observe(player, max_actions=1)
        obs = {"map_tokens": o["map_tokens"], "state": o["state"]}
        obs.update(self._window(g, player))
        return obs

    def _batch(self, rewards, terms, valids, finals):
        rows = []
        for i, g in enumerate(self.games):
            p = self.observer[i]
            o = g.observe(p, max_actions=self.A)
            row = {k: o[k] for k in ("map_tokens", "state", "action_id", "action_features", "action_arg_mask",
                                     "action_mask")}
            row.update(self._window(g, p))
            row.update(legal_action_count=np.int32(o["legal_action_count"]),
                       total_legal_action_count=np.int32(o["total_legal_action_count"]),
                       action_truncated=np.uint8(o["action_truncated"]), reward=np.float32(rewards[i]),
                       terminated=np.uint8(terms[i]), action_valid=np.uint8(valids[i]), env_id=np.int32(i),
                       state_id=np.uint64(0), episode_id=np.uint64(0))
            if self.keep_terminal:
                final = finals[i]
                for key, value in self._observation(g, p).items():
                    row["final_" + key] = final[key] if final is not None else np.zeros_like(value)
            rows.append(row)
        return {k: np.stack([r[k] for r in rows]) for k in rows[0]}
