"""Replay storage for AlphaZero-style training: (observation, improved policy, outcome) positions.

Positions are stored compactly in *chunks* (one per finished batch of games): map tokens as
int8 (every column the network reads saturates inside int8, see :func:`compact_tokens`),
the state as int32, the valid action rows packed (int16 features, one policy target per row)
and the value target per relative seat. :class:`ReplayBuffer` keeps the newest
``capacity`` positions and samples uniform minibatches as torch tensors ready for
:class:`~polyenv.train.az_net.AzNet`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np
import torch

from .. import az_network as spec

__all__ = ["Chunk", "ChunkBuilder", "ReplayBuffer", "compact_tokens", "relative_values"]


def compact_tokens(map_tokens: np.ndarray) -> np.ndarray:
    """int8 copy of map tokens [..., 23]. Every column the network reads either fits int8 or
    saturates the network's clamp inside it (populations, production, kills), so the network
    computes the same from the copy; unused columns (observed unit ids) are clipped."""
    return np.clip(map_tokens, -128, 127).astype(np.int8)


def relative_values(terminal_values: np.ndarray, player: np.ndarray) -> np.ndarray:
    """Outcomes [n, P] in global player order -> float32 [n, 16] by seat relative to ``player`` [n]."""
    n, P = terminal_values.shape
    seats = (np.asarray(player)[:, None] + np.arange(P)[None]) % P
    out = np.zeros((n, spec.VALUE_SIZE), np.float32)
    out[:, :P] = np.take_along_axis(terminal_values, seats, 1)
    return out


@dataclass
class Chunk:
    """Positions stored together: ``tokens`` int8 [n, T, 23], ``state`` int32 [n, 11], ``row_start``
    int64 [n + 1] (rows of position i are ``row_start[i]:row_start[i+1]``), ``features`` int16 [R, 17],
    ``policy`` float32 [R] (sums to 1 per position), ``values`` float32 [n, 16] (outcome by relative
    seat), ``players`` int8 [n] (P: how many value entries are targets)."""

    tokens: np.ndarray
    state: np.ndarray
    row_start: np.ndarray
    features: np.ndarray
    policy: np.ndarray
    values: np.ndarray
    players: np.ndarray

    def __len__(self) -> int:
        return len(self.state)

    def arrays(self) -> dict[str, np.ndarray]:
        """The chunk's fields by name (tokens, state, row_start, features, policy, values, players)."""
        return {k: getattr(self, k) for k in ("tokens", "state", "row_start", "features", "policy", "values",
                                               "players")}

    @staticmethod
    def concatenate(chunks: list["Chunk"]) -> "Chunk":
        """One chunk holding ``chunks`` in order."""
        starts, base = [np.zeros(1, np.int64)], 0
        for c in chunks:
            starts.append(c.row_start[1:] + base)
            base += int(c.row_start[-1])
        cat = lambda k: np.concatenate([getattr(c, k) for c in chunks])  # noqa: E731
        return Chunk(cat("tokens"), cat("state"), np.concatenate(starts), cat("features"), cat("policy"),
                     cat("values"), cat("players"))


class ChunkBuilder:
    """Collects the positions of games in progress (per environment slot) and turns a finished
    game's positions into a :class:`Chunk` once its outcome is known."""

    def __init__(self, num_envs: int):
        self._open: list[list[tuple]] = [[] for _ in range(num_envs)]

    def add(self, env: int, tokens, state, features, policy, player: int) -> None:
        """One position of ``env``'s current game: its observation, the valid rows' features and policy target."""
        self._open[env].append((compact_tokens(tokens), np.asarray(state, np.int32).copy(),
                                np.clip(features, -32768, 32767).astype(np.int16), np.asarray(policy, np.float32),
                                int(player)))

    def add_batch(self, envs: np.ndarray, tokens, state, features, mask, policy, player) -> None:
        """Positions of several environments from dense arrays ([B, ...], rows where ``mask``)."""
        counts = mask.sum(1)
        for k, env in enumerate(envs):
            n = int(counts[k])
            self.add(int(env), tokens[k], state[k], features[k, :n], policy[k, :n], player[k])

    def finish(self, env: int, terminal_values: np.ndarray) -> Chunk | None:
        """Closes ``env``'s game with outcome ``terminal_values`` [P] (global order); its chunk (None if empty)."""
        positions, self._open[env] = self._open[env], []
        if not positions:
            return None
        P = len(terminal_values)
        players = np.array([p[4] for p in positions])
        rows = np.array([len(p[2]) for p in positions])
        return Chunk(np.stack([p[0] for p in positions]), np.stack([p[1] for p in positions]),
                     np.concatenate([[0], np.cumsum(rows)]).astype(np.int64),
                     np.concatenate([p[2] for p in positions]), np.concatenate([p[3] for p in positions]),
                     relative_values(np.broadcast_to(np.asarray(terminal_values, np.float32), (len(players), P)),
                                     players),
                     np.full(len(players), P, np.int8))

    def drop(self, env: int) -> None:
        """Forgets ``env``'s open game (its outcome will never be known)."""
        self._open[env] = []


class ReplayBuffer:
    """The newest ``capacity`` positions (whole chunks are dropped oldest first), sampled uniformly.
    Each chunk's distance fields (:func:`~polyenv.train.az_net.distance_steps`, a function of the
    tokens) are computed once when it is added, not at every sample."""

    def __init__(self, capacity: int):
        if capacity < 1:
            raise ValueError(f"capacity must be >= 1, got {capacity}")
        self.capacity = int(capacity)
        self._chunks: deque[Chunk] = deque()
        self._steps: deque[np.ndarray] = deque()
        self._size = 0
        self.added = 0  # positions ever added

    def __len__(self) -> int:
        return self._size

    def add(self, chunk: Chunk | None) -> None:
        """Keeps the positions of ``chunk`` (None or empty: nothing), dropping the oldest past the capacity."""
        if chunk is None or len(chunk) == 0:
            return
        from .az_net import distance_steps
        self._chunks.append(chunk)
        self._steps.append(np.concatenate([distance_steps(torch.from_numpy(chunk.tokens[i:i + 4096])).numpy()
                                           for i in range(0, len(chunk), 4096)]))
        self._size += len(chunk)
        self.added += len(chunk)
        while self._size - len(self._chunks[0]) >= self.capacity:
            self._size -= len(self._chunks.popleft())
            self._steps.popleft()

    def sample(self, batch: int, rng: np.random.Generator) -> dict[str, torch.Tensor]:
        """``batch`` positions drawn uniformly with replacement, as tensors: ``map_tokens`` [b, T, 23],
        ``state`` [b, 11], packed ``features`` [R, 17] with ``row_position`` [R] and ``policy`` [R],
        ``values`` [b, 16], ``value_mask`` [b, 16] (1 on the first P entries) and ``steps`` uint8
        [b, T, F] (the tokens' distance fields)."""
        if self._size == 0:
            raise ValueError("the replay buffer is empty")
        chunks, all_steps = list(self._chunks), list(self._steps)
        sizes = np.array([len(c) for c in chunks])
        picks = rng.integers(0, self._size, batch)
        which = np.searchsorted(np.cumsum(sizes), picks, side="right")
        offset = picks - (np.cumsum(sizes) - sizes)[which]
        tokens, state, values, players, feats, policy, position, steps = [], [], [], [], [], [], [], []
        k = 0
        for c in np.unique(which):
            chunk, idx = chunks[c], offset[which == c]
            tokens.append(chunk.tokens[idx])
            steps.append(all_steps[c][idx])
            state.append(chunk.state[idx])
            values.append(chunk.values[idx])
            players.append(chunk.players[idx])
            starts, ends = chunk.row_start[idx], chunk.row_start[idx + 1]
            rows = np.concatenate([np.arange(s, e) for s, e in zip(starts, ends)])
            feats.append(chunk.features[rows])
            policy.append(chunk.policy[rows])
            position.append(np.repeat(np.arange(k, k + len(idx)), ends - starts))
            k += len(idx)
        players = np.concatenate(players)
        return {"map_tokens": torch.from_numpy(np.concatenate(tokens)), "state": torch.from_numpy(np.concatenate(state)),
                "features": torch.from_numpy(np.concatenate(feats)), "row_position": torch.from_numpy(np.concatenate(position)),
                "policy": torch.from_numpy(np.concatenate(policy)), "values": torch.from_numpy(np.concatenate(values)),
                "value_mask": torch.from_numpy((np.arange(spec.VALUE_SIZE)[None] < players[:, None]).astype(np.float32)),
                "steps": torch.from_numpy(np.concatenate(steps))}

    def state_dict(self) -> dict[str, np.ndarray]:
        """Everything kept, as arrays (for checkpoints)."""
        if not self._chunks:
            return {"added": np.array(self.added)}
        return {**Chunk.concatenate(list(self._chunks)).arrays(), "added": np.array(self.added)}

    def load_state_dict(self, arrays) -> None:
        """Replaces the contents with those of :meth:`state_dict`'s arrays (a checkpoint)."""
        self._chunks.clear()
        self._steps.clear()
        self._size = 0
        if "tokens" in arrays:
            self.add(Chunk(*(np.asarray(arrays[k]) for k in ("tokens", "state", "row_start", "features", "policy",
                                                              "values", "players"))))
        self.added = int(arrays["added"])
