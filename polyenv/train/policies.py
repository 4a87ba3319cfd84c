"""Pointer-style SB3 policies for ``action_mode="rows"``: one logit per legal-action row.

A row of ``obs["action_features"]`` describes one legal action (its kind, tech,
building, unit type, star cost, population gain, ...). These policies embed
every row, add the embedding of the tile the action targets and a summary of
the whole board, and score each row with one shared MLP; the value comes from
the board summary. The same weights serve any number of legal actions, so the
policy generalises across positions far better than a linear head over
25,000 global ids.

* :class:`TribesPointerPolicy` — for sb3-contrib's ``MaskablePPO``;
* :class:`TribesPointerPPOPolicy` — the same network for SB3's ``PPO``.

``mask_logits=True`` (default) also sets the logits of padding rows to -1e8
from ``obs["action_mask"]``, so even plain PPO samples only legal rows; pass
``policy_kwargs=dict(mask_logits=False)`` to leave that to the environment's
``invalid_action`` policy.

Shapes: map_tokens [B, T, 23], state [B, 11], action_features [B, A, 17],
action_mask [B, A] (SB3 hands them over as float32 tensors).
"""

from __future__ import annotations

import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.policies import ActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from .._names import ACTION_KINDS, BUILDINGS, LEVEL_UP_REWARDS, RESOURCES, TECHS, TERRAINS, TILE_ACTIONS, UNIT_TYPES
from ..description import game_description

__all__ = ["TribesRowsExtractor", "PointerHead", "TribesPointerPolicy", "TribesPointerPPOPolicy"]

# Column indices of the engine's layouts (polyenv.GameDescription).
_LAYOUT = game_description()
_T, _S, _F = _LAYOUT.map_token_columns, _LAYOUT.state_columns, _LAYOUT.action_feature_columns
_CAPITAL = _LAYOUT.city_flags["capital"]
# Map-token columns embedded as categories: (column, number of values after shifting -1 to 0, shift).
_TILE_CATEGORIES = (
    (_T["explored"], 2, 0),
    (_T["terrain"], len(TERRAINS), 0),
    (_T["resource"], len(RESOURCES) + 1, 1),          # -1 none
    (_T["building"], len(BUILDINGS) + 1, 1),
    (_T["territory_owner"], 3, 0),                    # none / self / other (clipped)
    (_T["city_owner"], 3, 0),
    (_T["city_level"], 8, 1),                         # -1 none, clipped at 6
    (_T["unit_owner"], 3, 0),
    (_T["unit_type"], len(UNIT_TYPES) + 1, 1),
    (_T["unit_status"], 7, 1),
)
# Action-feature columns embedded as categories.
_ROW_CATEGORIES = (
    (_F["type_id"], len(ACTION_KINDS), 0),
    (_F["tech"], len(TECHS) + 1, 1),
    (_F["building"], len(BUILDINGS) + 1, 1),
    (_F["spawn_type"], 9, 1),
    (_F["upgrade"], len(LEVEL_UP_REWARDS) + 1, 1),
    (_F["tile_action"], len(TILE_ACTIONS) + 1, 1),
    (_F["unit_upgrade"], len(UNIT_TYPES) + 1, 1),
)
_DECLARE_WAR, _SEND_STARS = ACTION_KINDS.index("declare_war"), ACTION_KINDS.index("send_stars")


class _Categories(nn.Module):
    """Embeds several categorical columns and sums them: [..., F] -> [..., dim].

    Equivalent to one embedding table per column, computed as a multi-hot
    vector times one linear layer: its backward pass is a matrix product
    instead of an embedding scatter, which is faster on a CPU.
    """

    def __init__(self, categories, dim: int):
        super().__init__()
        sizes = torch.tensor([n for _, n, _ in categories])
        self.register_buffer("columns", torch.tensor([c for c, _, _ in categories]), persistent=False)
        self.register_buffer("shifts", torch.tensor([float(s) for _, _, s in categories]), persistent=False)
        self.register_buffer("top", (sizes - 1).float(), persistent=False)
        self.register_buffer("offsets", torch.cumsum(sizes, 0) - sizes, persistent=False)
        self.vocabulary = int(sizes.sum())
        self.table = nn.Linear(self.vocabulary, dim, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        values = x.index_select(-1, self.columns) + self.shifts          # -1 (none) becomes 0
        index = torch.minimum(values.clamp(min=0), self.top).long() + self.offsets
        hot = torch.zeros(*index.shape[:-1], self.vocabulary, dtype=self.table.weight.dtype, device=x.device)
        return self.table(hot.scatter_(-1, index, 1.0))


class TribesRowsExtractor(BaseFeaturesExtractor):
    """Board summary and per-row embeddings of a rows-mode observation.

    Output ``[B, context_dim + A * (row_dim + 1)]``: the context vector, then for
    each of the A rows its embedding and its legality (0/1) as the last channel.
    """

    def __init__(self, observation_space: spaces.Dict, tile_dim: int = 32, row_dim: int = 32,
                 context_dim: int = 64):
        if "action_features" not in observation_space.spaces:
            raise ValueError("TribesRowsExtractor needs action_mode='rows' observations")
        num_rows = observation_space["action_features"].shape[0]
        super().__init__(observation_space, context_dim + num_rows * (row_dim + 1))
        self.num_rows, self.row_dim, self.context_dim = num_rows, row_dim, context_dim
        self.tile_embeddings = _Categories(_TILE_CATEGORIES, tile_dim)
        self.tile_numeric = nn.Linear(4, tile_dim)
        self.tile_mlp = nn.Sequential(nn.ReLU(), nn.Linear(tile_dim, tile_dim), nn.ReLU())
        self.context = nn.Sequential(nn.Linear(2 * tile_dim + 8, context_dim), nn.ReLU())
        self.row_embeddings = _Categories(_ROW_CATEGORIES, row_dim)
        self.row_numeric = nn.Linear(5, row_dim)
        self.row_tiles = nn.Linear(2 * tile_dim, row_dim)
        self.row_mlp = nn.Sequential(nn.ReLU(), nn.Linear(row_dim, row_dim), nn.ReLU())

    def forward(self, obs: dict[str, torch.Tensor]) -> torch.Tensor:
        """Features float32 ``[B, context_dim + A * (row_dim + 1)]`` of a batch of rows-mode observations."""
        tokens, state = obs["map_tokens"], obs["state"]            # [B, T, 23], [B, 11]
        feats, valid = obs["action_features"], obs["action_mask"]  # [B, A, 17], [B, A]
        # Categories are clamped: owners become none / self / any other, city levels stop at 6.
        tiles = self.tile_embeddings(tokens)
        numeric = torch.stack([tokens[..., _T["road"]], tokens[..., _T["unit_hp"]].clamp(min=0) / 20,
                               tokens[..., _T["city_flags"]] % (2 * _CAPITAL),  # the capital bit (the lowest)
                               tokens[..., _T["building_level"]] / 5], -1)
        tiles = self.tile_mlp(tiles + self.tile_numeric(numeric))  # [B, T, tile_dim]
        s = state
        scalars = torch.stack([s[:, _S["turn"]] / 50, (s[:, _S["player_stars"]] / 20).clamp(max=5),
                               s[:, _S["owns_units"]] / 20, s[:, _S["own_cities"]] / 10,
                               (s[:, _S["next_turn_star_income"]] / 20).clamp(max=5),
                               (s[:, _S["pending_city_id"]] >= 0).float(), s[:, _S["game_over"]],
                               torch.ones_like(s[:, _S["turn"]])], -1)
        context = self.context(torch.cat([tiles.mean(1), tiles.amax(1), scalars], -1))  # [B, context_dim]

        rows = self.row_embeddings(feats)
        cost, stars = feats[..., _F["cost_stars"]], feats[..., _F["stars_before"]]
        numeric = torch.stack([feats[..., _F["population_gain"]] / 4, (cost / 10).clamp(-2, 5),
                               feats[..., _F["affordable"]], ((stars - cost) / 20).clamp(-5, 5), valid], -1)
        kind = feats[..., _F["type_id"]]
        on_tile = (kind != _DECLARE_WAR) & (kind != _SEND_STARS)   # target is a tile, not a player

        def gather(index: torch.Tensor) -> torch.Tensor:
            present = ((index >= 0) & on_tile).unsqueeze(-1).float()
            i = index.long().clamp(min=0).unsqueeze(-1).expand(-1, -1, tiles.shape[-1])
            return torch.gather(tiles, 1, i) * present

        rows = rows + self.row_numeric(numeric) + self.row_tiles(torch.cat([gather(feats[..., _F["source_index"]]),
                                                                           gather(feats[..., _F["target_index"]])],
                                                                          -1))
        rows = self.row_mlp(rows)                                  # [B, A, row_dim]
        rows = torch.cat([rows, valid.unsqueeze(-1)], -1)
        return torch.cat([context, rows.flatten(1)], 1)


class PointerHead(nn.Module):
    """The SB3 ``mlp_extractor`` of the pointer policies: per-row logits and a value latent.

    ``forward_actor`` returns the logits [B, A] (the policy's action net is the
    identity); ``forward_critic`` a ``hidden`` latent of the context.
    """

    def __init__(self, context_dim: int, row_dim: int, num_rows: int, hidden: int = 64, mask_logits: bool = True):
        super().__init__()
        self.context_dim, self.row_dim, self.num_rows, self.mask_logits = context_dim, row_dim, num_rows, mask_logits
        self.latent_dim_pi, self.latent_dim_vf = num_rows, hidden
        # The first layer of the row scorer MLP([row, context]), split so the context
        # part is computed once per observation, not once per row.
        self.score_row = nn.Linear(row_dim, hidden)
        self.score_context = nn.Linear(context_dim, hidden, bias=False)
        self.score_out = nn.Sequential(nn.ReLU(), nn.Linear(hidden, 1))
        self.value = nn.Sequential(nn.Linear(context_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(forward_actor(features), forward_critic(features))``."""
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        """Logits float32 [B, A], one per action row (padding rows -1e8 with ``mask_logits``)."""
        context = features[:, :self.context_dim]
        rows = features[:, self.context_dim:].view(-1, self.num_rows, self.row_dim + 1)
        valid = rows[..., -1]
        hidden = self.score_row(rows[..., :-1]) + self.score_context(context).unsqueeze(1)
        logits = self.score_out(hidden).squeeze(-1)
        return logits.masked_fill(valid < 0.5, -1e8) if self.mask_logits else logits

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        """The value latent float32 [B, hidden] of the board summary."""
        return self.value(features[:, :self.context_dim])


def _pointer(base):
    class Policy(base):
        def __init__(self, observation_space, action_space, lr_schedule, hidden_dim: int = 64,
                     mask_logits: bool = True, **kwargs):
            kwargs.setdefault("features_extractor_class", TribesRowsExtractor)
            self._hidden_dim, self._mask_logits = hidden_dim, mask_logits
            super().__init__(observation_space, action_space, lr_schedule, **kwargs)

        def _build_mlp_extractor(self) -> None:
            fe = self.features_extractor
            self.mlp_extractor = PointerHead(fe.context_dim, fe.row_dim, fe.num_rows, self._hidden_dim,
                                             self._mask_logits)

        def _build(self, lr_schedule) -> None:
            super()._build(lr_schedule)
            self.action_net = nn.Identity()  # the head already returns one logit per row
            self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

        def _get_constructor_parameters(self) -> dict:
            data = super()._get_constructor_parameters()
            data.update(hidden_dim=self._hidden_dim, mask_logits=self._mask_logits)
            return data

    return Policy


class TribesPointerPolicy(_pointer(MaskableActorCriticPolicy)):
    """Pointer policy for ``MaskablePPO`` on ``action_mode="rows"`` (see the module docstring).

    Extra arguments: ``hidden_dim`` (64), ``mask_logits`` (True); the features
    extractor's sizes go in ``features_extractor_kwargs`` (tile_dim, row_dim, context_dim).
    """


class TribesPointerPPOPolicy(_pointer(ActorCriticPolicy)):
    """The pointer policy for SB3's ``PPO`` (same arguments as :class:`TribesPointerPolicy`)."""
