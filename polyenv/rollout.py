"""RolloutBuffer: fixed-length on-policy storage of [T, B] steps of a VectorGameEnv batch.

The usage cycle: ``add()`` up to ``max_length`` steps, then
``compute_returns(gamma)`` or ``compute_gae(...)``, one gradient update,
``clear()``, repeat. Every field is one array allocated (zero-filled) in the
constructor, shaped ``[max_length, num_envs, ...]``; nothing is allocated per
step and ``clear()`` only resets the length.

```python
buf = RolloutBuffer(128, env.num_envs, ["map_tokens", "state", "action_features", "action_mask"],
                    env=env, value=True)
buf.add(batch, action, reward, log_prob, done, value)     # one [B, ...] step
advantages, returns = buf.compute_gae(last_values, last_dones, gamma=0.99, lam=0.95)
obs = torch.from_numpy(buf.observations["map_tokens"])    # zero-copy [size, B, tiles, 23]
```

Per-step fields (B = ``num_envs``): ``action`` int64 [B] (the chosen row or id),
``reward`` float32 [B], ``log_prob`` float32 [B], ``done`` uint8 [B] (1 when
this step's action ended the episode — ``batch["terminated"]`` of the step it
caused) and, with ``value=True``, ``value`` float32 [B].

Errors: a malformed argument raises ValueError and writes nothing; ``add()``
on a full buffer raises :class:`RolloutBufferFullError` (a
:class:`RolloutProtocolError`, which is a RuntimeError, not a ValueError): the arguments are fine, the call sequence is not — the trainer
forgot its compute-and-clear step. The buffer is deliberately not circular:
overwriting the oldest step would corrupt the returns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from . import _validate as _v

__all__ = ["RolloutBuffer", "RolloutBufferFullError", "RolloutProtocolError"]

_STEP_FIELDS = (("action", np.int64), ("reward", np.float32), ("log_prob", np.float32), ("done", np.uint8))


class RolloutProtocolError(RuntimeError):
    """A RolloutBuffer call out of sequence (well-formed arguments, wrong moment)."""


class RolloutBufferFullError(RolloutProtocolError):
    """``RolloutBuffer.add()`` past ``max_length``: a usage-protocol error (clear() was not called)."""


def _spec(spec, env, num_envs: int) -> dict:
    """Normalises ``spec`` to ``{name: (per-env shape, dtype)}``."""
    if isinstance(spec, Mapping):
        out = {}
        for name, field in spec.items():
            try:
                shape, dtype = tuple(int(n) for n in field["shape"]), np.dtype(field["dtype"])
            except (TypeError, KeyError) as e:
                raise ValueError(f"spec[{name!r}] must be a mapping with 'shape' and 'dtype'") from e
            if not shape or shape[0] != num_envs or min(shape) < 0:
                raise ValueError(f"spec[{name!r}] shape {shape} must be [num_envs={num_envs}, ...]")
            out[str(name)] = (shape[1:], dtype)
        return out
    if isinstance(spec, (str, bytes)) or not isinstance(spec, Sequence):
        raise ValueError("spec must be a batch_spec()-style dict or a list of field names")
    if env is None:
        raise ValueError("a list of field names needs env= (the VectorGameEnv they come from)")
    full = env.slot_batch_spec(num_envs)
    unknown = [n for n in spec if n not in full]
    if unknown:
        raise ValueError(f"unknown batch fields {unknown}; expected names from {list(full)}")
    if len(set(spec)) != len(spec):
        raise ValueError("spec names a field twice")
    return {n: (tuple(full[n]["shape"][1:]), np.dtype(full[n]["dtype"])) for n in spec}


def _check(array, name: str, shape: tuple, dtype: np.dtype) -> np.ndarray:
    if not isinstance(array, np.ndarray):
        raise ValueError(f"{name} must be a numpy array of dtype {dtype} and shape {shape}, "
                         f"got {type(array).__name__}")
    if array.dtype != dtype or array.shape != shape:
        raise ValueError(f"{name} must have dtype {dtype} and shape {shape}, got {array.dtype} {array.shape}")
    return array


def _gamma(gamma) -> float:
    if isinstance(gamma, (bool, np.bool_)) or not isinstance(gamma, (int, float, np.floating, np.integer)) \
            or not 0.0 < float(gamma) <= 1.0:
        raise ValueError(f"gamma must be in (0, 1], got {gamma!r}")
    return float(gamma)


class RolloutBuffer:
    """Fill-once storage of up to ``max_length`` steps of ``num_envs`` environments.

    Args:
        max_length: T, the steps one rollout holds (>= 1).
        num_envs: B, the rows of every added step (>= 1): a VectorGameEnv's
            ``num_envs`` or one slot's row count.
        spec: the observation fields to store: a ``batch_spec()`` /
            ``slot_batch_spec(B)``-style dict ``{name: {"shape": [B, ...], "dtype"}}``,
            or a list of field names of ``env``'s batch.
        env: the VectorGameEnv whose spec a list of names refers to.
        value: also store a float32 ``value`` per step (needed by ``compute_gae``).

    Views (NumPy, ``[size, B, ...]``, no copy — ``torch.from_numpy`` shares them):
    ``observations[name]``, ``actions()``, ``rewards()``, ``log_probs()``,
    ``dones()`` (float32 0/1), ``values()``; ``compute_*`` return views of the
    buffer's own returns / advantages arrays, overwritten by the next compute.
    """

    def __init__(self, max_length: int, num_envs: int, spec, env=None, value: bool = False):
        max_length = _v.integer(max_length, "max_length", 1)
        num_envs = _v.integer(num_envs, "num_envs", 1)
        fields = _spec(spec, env, num_envs)
        self._T, self._B, self._size = max_length, num_envs, 0
        self._fields = fields
        self.observations: dict[str, np.ndarray] = {}
        self._obs = {n: np.zeros((max_length, num_envs) + shape, dtype) for n, (shape, dtype) in fields.items()}
        self._step = {n: np.zeros((max_length, num_envs), dtype) for n, dtype in _STEP_FIELDS}
        if value:
            self._step["value"] = np.zeros((max_length, num_envs), np.float32)
        self._dones = np.zeros((max_length, num_envs), np.float32)  # done as 0.0 / 1.0, kept in add()
        self._returns = np.zeros((max_length, num_envs), np.float32)
        self._advantages = np.zeros((max_length, num_envs), np.float32)
        self._refresh()

    # ------------------------------------------------------------------ size
    size = property(lambda self: self._size, doc="Steps stored, 0 .. max_length.")
    max_length = property(lambda self: self._T, doc="T, the steps one rollout holds.")
    num_envs = property(lambda self: self._B, doc="B, rows per step.")
    has_value = property(lambda self: "value" in self._step, doc="True when a value is stored per step.")

    def __len__(self) -> int:
        return self._size

    def _refresh(self) -> None:
        self.observations = {n: a[:self._size] for n, a in self._obs.items()}

    def clear(self) -> None:
        """Empties the rollout (length 0); the storage stays allocated."""
        self._size = 0
        self._refresh()

    # ------------------------------------------------------------------ add
    def add(self, batch: Mapping, action, reward, log_prob, done, value=None) -> None:
        """Copies one step: ``batch[name]`` [B, ...] for every stored field, ``action`` int64 [B],
        ``reward`` float32 [B], ``log_prob`` float32 [B], ``done`` uint8 [B] and, with ``value=True``,
        ``value`` float32 [B]. Everything is validated first: a ValueError writes nothing; a full
        buffer raises :class:`RolloutBufferFullError`."""
        if not isinstance(batch, Mapping):
            raise ValueError("batch must be a mapping of field name to array")
        B = self._B
        for name, (shape, dtype) in self._fields.items():
            if name not in batch:
                raise ValueError(f"batch has no field {name!r}")
            _check(batch[name], f"batch[{name!r}]", (B,) + shape, dtype)
        step = {"action": action, "reward": reward, "log_prob": log_prob, "done": done}
        if self.has_value:
            if value is None:
                raise ValueError("this buffer stores values: pass value (float32 [B])")
            step["value"] = value
        elif value is not None:
            raise ValueError("this buffer was built with value=False: pass no value")
        for name, a in step.items():
            _check(a, name, (B,), self._step[name].dtype)
        if self._size >= self._T:
            raise RolloutBufferFullError(f"the rollout is full ({self._T} steps): compute, update, then clear()")
        t = self._size
        for name in self._fields:
            self._obs[name][t] = batch[name]
        for name, a in step.items():
            self._step[name][t] = a
        np.not_equal(step["done"], 0, out=self._dones[t], casting="unsafe")
        self._size = t + 1
        self._refresh()

    def set_outcome(self, reward, done) -> None:
        """Overwrites the reward and done of the last added step (float32 / uint8 [B]).

        For pipelines that step into the very arrays the observation was read from
        (``step_slots_into_checked``): ``add()`` the step when acting (reward and done
        zero), then set its outcome once the step returns. ValueError for malformed
        arrays, :class:`RolloutProtocolError` on an empty buffer; nothing written then.
        """
        _check(reward, "reward", (self._B,), self._step["reward"].dtype)
        _check(done, "done", (self._B,), self._step["done"].dtype)
        if self._size == 0:
            raise RolloutProtocolError("set_outcome() needs a step: add() one first")
        t = self._size - 1
        self._step["reward"][t] = reward
        self._step["done"][t] = done
        np.not_equal(done, 0, out=self._dones[t], casting="unsafe")

    # ------------------------------------------------------------------ views
    def actions(self) -> np.ndarray:
        """int64 [size, B] actions as added."""
        return self._step["action"][:self._size]

    def rewards(self) -> np.ndarray:
        """float32 [size, B] rewards as added."""
        return self._step["reward"][:self._size]

    def log_probs(self) -> np.ndarray:
        """float32 [size, B] log-probabilities as added."""
        return self._step["log_prob"][:self._size]

    def dones(self) -> np.ndarray:
        """float32 [size, B]: 1.0 where the step ended its episode, else 0.0."""
        return self._dones[:self._size]

    def values(self) -> np.ndarray:
        """float32 [size, B] values as added (ValueError without ``value=True``)."""
        if not self.has_value:
            raise ValueError("this buffer was built with value=False")
        return self._step["value"][:self._size]

    # ------------------------------------------------------------------ reductions
    def compute_returns(self, gamma: float) -> np.ndarray:
        """Discounted return-to-go per env, float32 [size, B]:
        ``G_t = r_t + gamma * (1 - done_t) * G_{t+1}`` (``G_size = 0``): a done step's
        return is its own reward, nothing crosses an episode boundary. ``gamma`` in (0, 1]."""
        gamma = _gamma(gamma)
        T = self._size
        r, keep, out = self._step["reward"], 1.0 - self._dones[:T], self._returns
        keep *= np.float32(gamma)                       # gamma * (1 - done), once for all steps
        if T:
            out[T - 1] = r[T - 1]
        for t in range(T - 2, -1, -1):                  # a loop over time, vectorised across envs
            np.multiply(out[t + 1], keep[t], out=out[t])
            out[t] += r[t]
        return out[:T]

    def compute_gae(self, last_values, last_dones, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
        """Generalised advantage estimation; returns ``(advantages, returns)``, float32 [size, B].

        ``delta_t = r_t + gamma * V_{t+1} * (1 - done_t) - V_t`` and
        ``A_t = delta_t + gamma * lam * (1 - done_t) * A_{t+1}``, ``returns = A + V``.
        ``V_size`` is ``last_values`` (float32 [B], the value of the observation after the last
        step) and the bootstrap is also cut where ``last_dones`` (uint8 / bool [B]) is set —
        SB3's ``dones`` argument: pass ``batch["terminated"]`` of the last step, which equals
        ``dones()[-1]`` for an auto-reset env. ``gamma`` and ``lam`` in (0, 1] and [0, 1].
        """
        if not self.has_value:
            raise ValueError("compute_gae needs values: build the buffer with value=True")
        gamma = _gamma(gamma)
        if isinstance(lam, (bool, np.bool_)) or not isinstance(lam, (int, float, np.floating, np.integer)) \
                or not 0.0 <= float(lam) <= 1.0:
            raise ValueError(f"lam must be in [0, 1], got {lam!r}")
        _check(last_values, "last_values", (self._B,), np.dtype(np.float32))
        if not isinstance(last_dones, np.ndarray) or last_dones.dtype not in (np.uint8, np.bool_) \
                or last_dones.shape != (self._B,):
            raise ValueError(f"last_dones must be a uint8 or bool array of shape ({self._B},)")
        T = self._size
        if T == 0:
            return self._advantages[:0], self._returns[:0]
        r, v = self._step["reward"], self._step["value"]
        keep = 1.0 - self._dones[:T]
        keep[T - 1] *= 1.0 - last_dones.astype(np.float32)
        adv, ret = self._advantages, self._returns
        # Every TD error at once; only the trace recursion runs over time (vectorised across envs).
        next_v = np.empty((T, self._B), np.float32)
        next_v[:-1], next_v[-1] = v[1:T], last_values
        delta = r[:T] + np.float32(gamma) * next_v * keep - v[:T]
        trace = keep * np.float32(gamma * float(lam))
        adv[T - 1] = delta[T - 1]
        for t in range(T - 2, -1, -1):
            np.multiply(adv[t + 1], trace[t], out=adv[t])
            adv[t] += delta[t]
        np.add(adv[:T], v[:T], out=ret[:T])
        return adv[:T], ret[:T]

    def __repr__(self) -> str:
        return (f"RolloutBuffer(size={self._size}, max_length={self._T}, num_envs={self._B}, "
                f"fields={list(self._fields)}, value={self.has_value})")
