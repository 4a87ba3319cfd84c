"""A plain-PyTorch pointer actor-critic over a VectorGameEnv batch, and its checkpoint files.

:class:`PointerActorCritic` reuses the layers of the SB3 pointer policies
(:class:`~polyenv.train.policies.TribesRowsExtractor` and
:class:`~polyenv.train.policies.PointerHead`): one logit per ``action_features``
row (padding rows masked to -1e8) and a value from the board summary. It reads
the dense batch directly — ``map_tokens``, ``state``, ``action_features``,
``action_mask`` as NumPy arrays or tensors of any integer dtype — so a trainer
or the tournament feeds it ``VectorGameEnv`` rows (or ``RolloutBuffer`` views)
without a Gymnasium wrapper.

Checkpoints (``save_checkpoint`` / ``load_checkpoint``) are ``torch.save``
files ``{"format": "polyenv-pointer", "config": {...}, "state_dict": {...},
"meta": {...}}``; ``polyenv tournament`` accepts their paths as players.
"""

from __future__ import annotations

import numpy as np
import torch
from gymnasium import spaces
from torch import nn

from .. import _core
from .policies import PointerHead, TribesRowsExtractor

__all__ = ["PointerActorCritic", "OBSERVATION_KEYS", "save_checkpoint", "load_checkpoint", "CHECKPOINT_FORMAT"]

#: The ``format`` field of a checkpoint file (save_checkpoint / load_checkpoint).
CHECKPOINT_FORMAT = "polyenv-pointer"
#: The batch fields the network reads.
OBSERVATION_KEYS = ("map_tokens", "state", "action_features", "action_mask")


def _space(num_tiles: int, num_rows: int) -> spaces.Dict:
    big = 2**31 - 1
    return spaces.Dict({
        "map_tokens": spaces.Box(-big, big, (num_tiles, len(_core.MAP_TOKEN_FEATURE_NAMES)), np.int32),
        "state": spaces.Box(-big, big, (len(_core.STATE_FEATURE_NAMES),), np.int32),
        "action_features": spaces.Box(-big, big, (num_rows, len(_core.ACTION_FEATURE_NAMES)), np.int32),
        "action_mask": spaces.Box(0, 1, (num_rows,), np.uint8),
    })


class PointerActorCritic(nn.Module):
    """Logits over the action rows and a value, from a dense batch.

    Args:
        num_tiles: ``map_size ** 2``.
        num_rows: the env's ``max_actions``.
        tile_dim: width of a tile's embedding.
        row_dim: width of an action row's embedding.
        context_dim: width of the board summary.
        hidden_dim: width of the scoring and value layers.
        shared_trunk: let the value loss train the shared embeddings too (default False).

    ``forward(obs)`` takes a mapping with :data:`OBSERVATION_KEYS` ([B, ...])
    and returns ``(logits [B, A] float32, value [B] float32)``.
    """

    def __init__(self, num_tiles: int, num_rows: int, tile_dim: int = 32, row_dim: int = 32, context_dim: int = 64,
                 hidden_dim: int = 64, shared_trunk: bool = False):
        super().__init__()
        self.config = dict(num_tiles=int(num_tiles), num_rows=int(num_rows), tile_dim=tile_dim, row_dim=row_dim,
                           context_dim=context_dim, hidden_dim=hidden_dim, shared_trunk=bool(shared_trunk))
        self.shared_trunk = bool(shared_trunk)
        self.extractor = TribesRowsExtractor(_space(num_tiles, num_rows), tile_dim, row_dim, context_dim)
        self.head = PointerHead(context_dim, row_dim, num_rows, hidden_dim, mask_logits=True)
        self.value_out = nn.Linear(hidden_dim, 1)

    def forward(self, obs) -> tuple[torch.Tensor, torch.Tensor]:
        """``(logits float32 [B, A], value float32 [B])`` of a mapping with ``OBSERVATION_KEYS`` ([B, ...])."""
        x = {k: torch.as_tensor(obs[k]).float() for k in OBSERVATION_KEYS}
        features = self.extractor(x)
        logits = self.head.forward_actor(features)
        # By default the value loss trains only the value layers: its gradients would
        # otherwise dominate the shared embeddings the row scorer relies on.
        latent = self.head.forward_critic(features if self.shared_trunk else features.detach())
        return logits, self.value_out(latent).squeeze(-1)

    @torch.no_grad()
    def act(self, obs, deterministic: bool = True, generator: torch.Generator | None = None) -> np.ndarray:
        """Chosen row per observation (int64 [B]): the best legal row, or a sample."""
        logits, _ = self(obs)
        if deterministic:
            return logits.argmax(-1).numpy()
        return torch.multinomial(torch.softmax(logits, -1), 1, generator=generator).squeeze(-1).numpy()


def save_checkpoint(path, model: PointerActorCritic, **meta) -> None:
    """Writes ``model`` (config and weights) and ``meta`` (e.g. env steps, win rates) to ``path``."""
    torch.save({"format": CHECKPOINT_FORMAT, "config": model.config, "state_dict": model.state_dict(),
                "meta": meta}, path)


def load_checkpoint(path) -> PointerActorCritic:
    """The model saved at ``path`` (eval mode). ValueError when the file is not such a checkpoint."""
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # noqa: BLE001  (any unreadable file is a bad argument)
        raise ValueError(f"cannot read checkpoint {str(path)!r}: {e}") from None
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{str(path)!r} is not a {CHECKPOINT_FORMAT} checkpoint")
    model = PointerActorCritic(**data["config"])
    model.load_state_dict(data["state_dict"])
    model.meta = data.get("meta", {})
    return model.eval()
