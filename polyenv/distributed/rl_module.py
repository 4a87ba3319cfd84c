"""A masked RLModule for :class:`TribesMultiAgentEnv` (the pattern of RLlib's action-masking example).

The observation is ``{"observations": {...}, "action_mask": ...}``; the module
encodes ``observations`` and sets the logit of every masked-out action to
RLlib's ``FLOAT_MIN`` before the action distribution is built, so PPO never
samples an illegal move (and the masked actions get no gradient).

Encoder: every map tile (23 columns) through a shared MLP and mean-pooled, the
11 state columns through a linear layer, then a trunk MLP. Raw engine values
(ids, stars, hit points) are squashed with ``sign(x) * log1p(|x|)``. Heads:
``action_mode="rows"`` scores each legal row from its 17 action features
against the trunk (a pointer head: the same weights for any number of rows);
``"global"`` is a linear layer over every global id. The value head reads the
trunk (``ValueFunctionAPI``, for PPO). ``model_config={"hidden": 64}`` sets the width.
"""

from __future__ import annotations

import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch.torch_rl_module import TorchRLModule
from ray.rllib.utils.torch_utils import FLOAT_MIN
from torch import nn

__all__ = ["TribesMaskedRLModule"]


def _squash(x: torch.Tensor) -> torch.Tensor:
    x = x.float()
    return torch.sign(x) * torch.log1p(torch.abs(x))


class TribesMaskedRLModule(TorchRLModule, ValueFunctionAPI):
    """PPO-ready torch RLModule with action masking for ``TribesMultiAgentEnv`` (see the module docstring)."""

    def setup(self):
        """Builds the encoder and heads from the observation / action spaces."""
        inner = self.observation_space["observations"]
        hidden = int((self.model_config or {}).get("hidden", 64))
        self._rows = "action_features" in inner.spaces
        tile_columns, state_columns = inner["map_tokens"].shape[-1], inner["state"].shape[-1]
        self.tile = nn.Sequential(nn.Linear(tile_columns, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.state = nn.Linear(state_columns, hidden)
        self.trunk = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        if self._rows:
            row_columns = inner["action_features"].shape[-1]
            self.row = nn.Sequential(nn.Linear(row_columns, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        else:
            self.policy = nn.Linear(hidden, self.action_space.n)
        self.value = nn.Linear(hidden, 1)

    def _encode(self, obs: dict) -> torch.Tensor:
        o = obs["observations"]
        board = self.tile(_squash(o["map_tokens"])).mean(dim=-2)
        return self.trunk(torch.cat([board, self.state(_squash(o["state"]))], dim=-1))

    def _forward(self, batch: dict, **kwargs) -> dict:
        obs = batch[Columns.OBS]
        z = self._encode(obs)
        if self._rows:
            logits = (self.row(_squash(obs["observations"]["action_features"])) * z.unsqueeze(-2)).sum(-1)
        else:
            logits = self.policy(z)
        logits = logits.masked_fill(obs["action_mask"] == 0, FLOAT_MIN)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: z}

    def compute_values(self, batch: dict, embeddings=None) -> torch.Tensor:
        """State values [B] (from the trunk's ``embeddings`` when the forward pass computed them)."""
        if embeddings is None:
            embeddings = self._encode(batch[Columns.OBS])
        return self.value(embeddings).squeeze(-1)
