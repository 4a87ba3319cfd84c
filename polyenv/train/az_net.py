"""The ``"az"`` policy/value network in PyTorch (the training implementation).

:class:`AzNet` computes exactly what the native forward pass of the ``"az"`` bot computes
(``csrc/players/az_net.hpp``; the inputs are :mod:`polyenv.az_network`'s feature spec):

* tiles: the sum of each tile's categorical embeddings plus linear maps of its numeric
  features and its distance fields, ReLU; then ``layers`` residual mixing layers
  ``h += relu(A h + B mean(8-neighbours of h) + c)``;
* a global vector from ``[mean(h), max(h), state features]`` through two ReLU layers;
* a pointer head: per action row, its embeddings and numeric features plus the encodings of
  its source and target tiles plus the global vector, two ReLU layers, one logit;
* a value head: two layers on the global vector, ``tanh``, one value per relative seat.

Rows are *packed*: ``features`` [R, 17] holds the valid rows of all N positions and
``row_position`` [R] says whose they are, so padding rows cost nothing.
:meth:`AzNet.forward_batch` packs a dense leaf batch (``action_mask``) itself.
:meth:`AzNet.export` writes the native weight file; :func:`load_weights` reads one back.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from .. import az_network as spec
from ..description import game_description

__all__ = ["AzNet", "load_weights", "segment_log_softmax", "pack_rows", "distance_fields", "distance_steps",
           "neighbour_means"]

# The action-feature columns the pointer head reads (the engine's layout: polyenv.GameDescription).
_F = game_description().action_feature_columns
_KIND, _SOURCE, _TARGET = _F["type_id"], _F["source_index"], _F["target_index"]


def _categories(cats) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, int]:
    a = torch.tensor(cats, dtype=torch.int64)
    sizes = a[:, 2]
    offsets = torch.cumsum(sizes, 0) - sizes
    return a[:, 0], a[:, 1], sizes - 1, offsets, int(sizes.sum())


class _Inputs(nn.Module):
    """Embedding-bag of categorical columns plus a linear map of numeric ops: int [..., W] -> [..., dim]."""

    def __init__(self, categories, numeric, dim: int):
        super().__init__()
        cols, shifts, tops, offsets, vocab = _categories(categories)
        for name, value in (("cols", cols), ("shifts", shifts), ("tops", tops), ("offsets", offsets)):
            self.register_buffer(name, value, persistent=False)
        ops, scales = spec._numeric(numeric)
        self.register_buffer("ops", torch.from_numpy(ops).long(), persistent=False)
        self.register_buffer("scales", torch.from_numpy(scales), persistent=False)
        self.embed = nn.Parameter(torch.randn(vocab, dim) * (1.0 / len(categories)) ** 0.5)
        self.numeric = nn.Linear(len(numeric), dim)

    def numeric_features(self, x: torch.Tensor) -> torch.Tensor:
        return numeric_features(x, self.ops, self.scales)

    def forward(self, x: torch.Tensor, extra_bias: torch.Tensor | None = None) -> torch.Tensor:
        index = torch.minimum((x.index_select(-1, self.cols) + self.shifts).clamp(min=0), self.tops) + self.offsets
        # The sum of the embeddings as a multi-hot vector times the table: on a CPU its backward pass is
        # one matrix product, several times faster than an embedding(-bag) scatter.
        hot = torch.zeros(*index.shape[:-1], self.embed.shape[0], dtype=self.embed.dtype)
        emb = hot.scatter_(-1, index, 1.0) @ self.embed
        out = emb + self.numeric(self.numeric_features(x))
        return out if extra_bias is None else out + extra_bias


def numeric_features(x: torch.Tensor, ops: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    """The numeric ops of the feature spec applied to int columns: [..., W] -> float32 [..., n]."""
    out = []
    for k in range(ops.shape[0]):
        kind, col, arg = (int(v) for v in ops[k])
        scale, lo, hi = scales[k]
        v = x[..., col]
        if kind == spec.BIT:
            out.append(((v >> arg) & 1).float())
        elif kind == spec.NON_NEGATIVE:
            out.append((v >= 0).float())
        else:
            if kind == spec.DIFF:
                v = v - x[..., arg]
            out.append(torch.clamp(v.float() * scale, lo, hi))
    return torch.stack(out, -1)


def _neighbour_counts(map_size: int) -> torch.Tensor:
    """[n, n, 1]: 1 / the number of in-board 8-neighbours of each tile."""
    n = map_size
    x, y = np.divmod(np.arange(n * n), n)
    near = (np.abs(x[:, None] - x[None]) <= 1) & (np.abs(y[:, None] - y[None]) <= 1)
    np.fill_diagonal(near, False)
    return torch.from_numpy((1.0 / np.maximum(near.sum(1), 1)).astype(np.float32)).reshape(n, n, 1)


def neighbour_means(h: torch.Tensor, inverse_counts: torch.Tensor) -> torch.Tensor:
    """The mean of each tile's in-board 8-neighbours of tile encodings ``h`` [N, T, D] (tile x * n + y):
    a 3x3 sum pool (zero padding) minus the tile itself, on the channels-last view of the board
    (far cheaper than a [T, T] averaging product)."""
    N, T, D = h.shape
    n = inverse_counts.shape[0]
    board = h.reshape(N, n, n, D).permute(0, 3, 1, 2)            # [N, D, n, n], channels last in memory
    pooled = torch.nn.functional.avg_pool2d(board, 3, stride=1, padding=1, count_include_pad=True) * 9.0 - board
    return (pooled.permute(0, 2, 3, 1) * inverse_counts).reshape(N, T, D)


def distance_steps(tokens: torch.Tensor) -> torch.Tensor:
    """The feature spec's distance fields of int map tokens [N, T, 23] in steps: uint8 [N, T, F],
    ``min(Chebyshev distance, FIELD_CAP)`` (a function of the tokens alone, so replay storage can keep it)."""
    tokens = torch.as_tensor(tokens)
    N, T = tokens.shape[:2]
    n = int(round(T ** 0.5))
    fields = torch.tensor(spec.TILE_FIELDS, dtype=torch.int64)
    x = tokens.long().index_select(-1, fields[:, 0])                     # [N, T, F]
    hit = ((x >= fields[:, 1]) & (x <= fields[:, 2])).float()
    F_ = fields.shape[0]
    reach = hit.permute(0, 2, 1).reshape(N * F_, 1, n, n)
    cap = spec.FIELD_CAP
    dist = torch.full_like(reach, float(cap))
    for k in range(cap):  # Chebyshev balls grow by one ring per 3x3 max-pool
        dist = torch.where((reach > 0) & (dist == cap), torch.full_like(dist, float(k)), dist)
        reach = torch.nn.functional.max_pool2d(reach, 3, stride=1, padding=1)
    return dist.reshape(N, F_, T).permute(0, 2, 1).to(torch.uint8)


def distance_fields(tokens: torch.Tensor) -> torch.Tensor:
    """The feature spec's distance fields of int map tokens [N, T, 23]: float32 [N, T, F] in [0, 1]."""
    return distance_steps(tokens).float() / spec.FIELD_CAP


def segment_log_softmax(logits: torch.Tensor, position: torch.Tensor, count: int) -> torch.Tensor:
    """log softmax of packed row logits [R] within each position (``position`` [R] int64 in [0, count))."""
    top = torch.full((count,), -torch.inf, dtype=logits.dtype).scatter_reduce(0, position, logits, "amax")
    shifted = logits - top[position].detach()
    total = torch.zeros(count, dtype=logits.dtype).index_add(0, position, shifted.exp())
    return shifted - total.log()[position]


def pack_rows(features: np.ndarray | torch.Tensor, mask: np.ndarray | torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The valid rows of a dense [N, A, 17] batch and their positions: (features [R, 17], position [R] int64)."""
    mask = torch.as_tensor(np.asarray(mask) if not torch.is_tensor(mask) else mask).bool()
    position, row = mask.nonzero(as_tuple=True)
    return torch.as_tensor(features)[position, row], position


class AzNet(nn.Module):
    """The az network (module docstring). Widths: tile ``tile_dim``, ``layers`` mixing layers,
    ``global_dim``, ``row_dim``, ``value_hidden``; values: :data:`polyenv.az_network.VALUE_SIZE`."""

    def __init__(self, tile_dim: int = 32, layers: int = 3, global_dim: int = 64, row_dim: int = 64,
                 value_hidden: int = 64):
        super().__init__()
        self.config = dict(tile_dim=int(tile_dim), layers=int(layers), global_dim=int(global_dim),
                           row_dim=int(row_dim), value_hidden=int(value_hidden))
        D, G, R, H = tile_dim, global_dim, row_dim, value_hidden
        self.tiles = _Inputs(spec.TILE_CATEGORIES, spec.TILE_NUMERIC, D)
        self.tile_fields = nn.Linear(len(spec.TILE_FIELDS), D, bias=False)
        self.mix_self = nn.ModuleList(nn.Linear(D, D) for _ in range(layers))
        self.mix_nbr = nn.ModuleList(nn.Linear(D, D, bias=False) for _ in range(layers))
        ops, scales = spec._numeric(spec.STATE_NUMERIC)
        self.register_buffer("state_ops", torch.from_numpy(ops).long(), persistent=False)
        self.register_buffer("state_scales", torch.from_numpy(scales), persistent=False)
        self.glob1 = nn.Linear(2 * D + len(spec.STATE_NUMERIC), G)
        self.glob2 = nn.Linear(G, G)
        self.rows = _Inputs(spec.ROW_CATEGORIES, spec.ROW_NUMERIC, R)
        self.row_src = nn.Linear(D, R, bias=False)
        self.row_tgt = nn.Linear(D, R, bias=False)
        self.row_glob = nn.Linear(G, R, bias=False)
        self.row2 = nn.Linear(R, R)
        self.row_out = nn.Linear(R, 1)
        self.value1 = nn.Linear(G, H)
        self.value2 = nn.Linear(H, spec.VALUE_SIZE)
        self.register_buffer("player_kinds", torch.tensor(spec.PLAYER_TARGET_KINDS), persistent=False)
        self._means: dict[int, torch.Tensor] = {}

    def _inverse_counts(self, tiles: int) -> torch.Tensor:
        if tiles not in self._means:
            n = int(round(tiles ** 0.5))
            if n * n != tiles:
                raise ValueError(f"map_tokens must hold a square map's tiles, got {tiles}")
            self._means[tiles] = _neighbour_counts(n)
        return self._means[tiles]

    def forward(self, map_tokens, state, features, row_position, steps=None) -> tuple[torch.Tensor, torch.Tensor]:
        """``map_tokens`` [N, T, 23], ``state`` [N, 11], packed ``features`` [R, 17] (any integer dtype)
        and ``row_position`` [R] -> (logits float32 [R], values float32 [N, 16]). ``steps``: the tokens'
        :func:`distance_steps` when already known (uint8 [N, T, F]), else computed here."""
        tokens = torch.as_tensor(map_tokens).long()
        state = torch.as_tensor(state).long()
        feats = torch.as_tensor(features).long()
        position = torch.as_tensor(row_position).long()
        N, T = tokens.shape[0], tokens.shape[1]
        fields = (distance_steps(tokens) if steps is None else torch.as_tensor(steps)).float() / spec.FIELD_CAP
        h = torch.relu(self.tiles(tokens, self.tile_fields(fields)))        # [N, T, D]
        inverse_counts = self._inverse_counts(T)
        for mix_self, mix_nbr in zip(self.mix_self, self.mix_nbr):
            h = h + torch.relu(mix_self(h) + mix_nbr(neighbour_means(h, inverse_counts)))
        s = numeric_features(state, self.state_ops, self.state_scales)
        g = torch.relu(self.glob1(torch.cat([h.mean(1), h.amax(1), s], -1)))
        g = torch.relu(self.glob2(g))                                        # [N, G]
        values = torch.tanh(self.value2(torch.relu(self.value1(g))))         # [N, 16]

        src, tgt = feats[:, _SOURCE], feats[:, _TARGET]
        on_src = (src >= 0) & (src < T)
        on_tgt = (tgt >= 0) & (tgt < T) & ~torch.isin(feats[:, _KIND], self.player_kinds)
        flat_h = h.reshape(N * T, -1)
        h_src = flat_h[position * T + src.clamp(0, T - 1)] * on_src.unsqueeze(-1)
        h_tgt = flat_h[position * T + tgt.clamp(0, T - 1)] * on_tgt.unsqueeze(-1)
        r = self.rows(feats, self.row_glob(g)[position]) + self.row_src(h_src) + self.row_tgt(h_tgt)
        r = torch.relu(self.row2(torch.relu(r)))
        return self.row_out(r).squeeze(-1), values

    def forward_batch(self, batch) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """A dense batch (``map_tokens``, ``state``, ``action_features``, ``action_mask`` [N, A]) ->
        (logits [R], row positions [R], values [N, 16]) over the valid rows."""
        feats, position = pack_rows(batch["action_features"], batch["action_mask"])
        logits, values = self(batch["map_tokens"], batch["state"], feats, position)
        return logits, position, values

    @torch.no_grad()
    def dense_logits(self, batch, fill: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """(logits float32 [N, A] with ``fill`` on padding rows, values float32 [N, 16]) of a dense batch."""
        mask = np.asarray(batch["action_mask"]).astype(bool)
        logits, position, values = self.forward_batch(batch)
        out = np.full(mask.shape, fill, np.float32)
        out[mask] = logits.numpy()
        return out, values.numpy()

    def export_tensors(self) -> dict[str, np.ndarray]:
        """The weight file's tensors (the feature spec and every layer, dense layers as [in, out])."""
        t = lambda x: x.detach().cpu().float().numpy()  # noqa: E731
        c = self.config
        out = spec.feature_tensors()
        out["config"] = np.array([c["tile_dim"], c["layers"], c["global_dim"], c["row_dim"], c["value_hidden"],
                                  spec.VALUE_SIZE], np.int32)
        out.update(tile_embed=t(self.tiles.embed), tile_num_w=t(self.tiles.numeric.weight).T,
                   tile_b=t(self.tiles.numeric.bias), tile_field_w=t(self.tile_fields.weight).T)
        for k, (a, b) in enumerate(zip(self.mix_self, self.mix_nbr)):
            out[f"mix{k}_self"], out[f"mix{k}_nbr"], out[f"mix{k}_b"] = t(a.weight).T, t(b.weight).T, t(a.bias)
        out.update(glob1_w=t(self.glob1.weight).T, glob1_b=t(self.glob1.bias), glob2_w=t(self.glob2.weight).T,
                   glob2_b=t(self.glob2.bias), row_embed=t(self.rows.embed), row_num_w=t(self.rows.numeric.weight).T,
                   row_src_w=t(self.row_src.weight).T, row_tgt_w=t(self.row_tgt.weight).T,
                   row_glob_w=t(self.row_glob.weight).T, row_b=t(self.rows.numeric.bias),
                   row2_w=t(self.row2.weight).T, row2_b=t(self.row2.bias), row_out_w=t(self.row_out.weight)[0],
                   row_out_b=t(self.row_out.bias), value1_w=t(self.value1.weight).T, value1_b=t(self.value1.bias),
                   value2_w=t(self.value2.weight).T, value2_b=t(self.value2.bias))
        return {k: np.ascontiguousarray(v) for k, v in out.items()}

    def export(self, path, leaf_value_mix: float | None = None) -> None:
        """Writes the native weight file (``.paz``) the ``"az"`` bot reads. ``leaf_value_mix`` in
        [0, 1]: the weight of the engine's heuristic in the bot's leaf values (0 or None: the value
        head alone; see ``csrc/players/az_bot.hpp``)."""
        tensors = self.export_tensors()
        if leaf_value_mix is not None:
            if not 0.0 <= float(leaf_value_mix) <= 1.0:
                raise ValueError(f"leaf_value_mix must be in [0, 1], got {leaf_value_mix!r}")
            tensors["leaf_value_mix"] = np.array([leaf_value_mix], np.float32)
        spec.write_weights(path, tensors)


def load_weights(path) -> AzNet:
    """An :class:`AzNet` with the weights of a ``.paz`` file (eval mode)."""
    w = spec.read_weights(path)
    D, L, G, R, H, _ = (int(v) for v in w["config"])
    net = AzNet(D, L, G, R, H)
    f = lambda name: torch.from_numpy(np.ascontiguousarray(w[name]))  # noqa: E731
    with torch.no_grad():
        net.tiles.embed.copy_(f("tile_embed"))
        net.tiles.numeric.weight.copy_(f("tile_num_w").T)
        net.tiles.numeric.bias.copy_(f("tile_b"))
        net.tile_fields.weight.copy_(f("tile_field_w").T)
        for k, (a, b) in enumerate(zip(net.mix_self, net.mix_nbr)):
            a.weight.copy_(f(f"mix{k}_self").T)
            a.bias.copy_(f(f"mix{k}_b"))
            b.weight.copy_(f(f"mix{k}_nbr").T)
        for layer, name in ((net.glob1, "glob1"), (net.glob2, "glob2"), (net.row2, "row2"), (net.value1, "value1"),
                            (net.value2, "value2")):
            layer.weight.copy_(f(name + "_w").T)
            layer.bias.copy_(f(name + "_b"))
        net.rows.embed.copy_(f("row_embed"))
        net.rows.numeric.weight.copy_(f("row_num_w").T)
        net.rows.numeric.bias.copy_(f("row_b"))
        net.row_src.weight.copy_(f("row_src_w").T)
        net.row_tgt.weight.copy_(f("row_tgt_w").T)
        net.row_glob.weight.copy_(f("row_glob_w").T)
        net.row_out.weight.copy_(f("row_out_w")[None])
        net.row_out.bias.copy_(f("row_out_b"))
    return net.eval()
