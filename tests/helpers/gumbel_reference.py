"""A pure-Python Gumbel search mirroring the documented root_selection="gumbel" (docs/mcts_pool.md).

It extends the PUCT reference (mcts_reference.py: the same tree keyed by action
paths, expansion with float32 priors, Maxⁿ backup, virtual loss) with the
Gumbel rules of csrc/players/gumbel.hpp, written out from the formulas of
"Policy improvement by planning with Gumbel" / mctx's gumbel_muzero_policy:
the sequential-halving schedule, completed Q by the mixed value, the improved
policy, the non-root matching rule, the root's candidates and the final choice.
The root's Gumbel draws are replayed from the pool (root_policy()["gumbel"]).
Every float is computed in the same order as the native code, so the two
searches make the same decisions and produce the same bits.
"""
from __future__ import annotations

import math

import numpy as np

from mcts_reference import Node, ReferencePuct

FLT_MIN = float(np.finfo(np.float32).tiny)


def considered_visits(m: int, n: int, length: int) -> list[int]:
    """mctx's get_sequence_of_considered_visits(m, n), continued past n to `length` entries."""
    if m <= 1:
        return list(range(length))
    log2max = int(math.ceil(math.log2(m)))
    sequence: list[int] = []
    visits = [0] * m
    considered = m
    while len(sequence) < length:
        extra = max(1, int(n / (log2max * considered)))
        for _ in range(extra):
            sequence.extend(visits[:considered])
            for i in range(considered):
                visits[i] += 1
        considered = max(2, considered // 2)
    return sequence[:length]


def _floored(prior: float) -> float:
    return max(float(prior), FLT_MIN)


def _counts(node: Node, with_in_flight: bool) -> list[int]:
    return [node.edge_visits[j] + (node.edge_vl[j] if with_in_flight else 0) for j in range(len(node.actions))]


def sigma(node: Node, with_in_flight: bool, virtual_loss: float, value_scale: float, maxvisit_init: float):
    """(σ per edge, C): the completed, rescaled, scaled Q of the node's edges."""
    vl = virtual_loss if with_in_flight else 0.0
    counts = _counts(node, with_in_flight)
    out = [0.0] * len(counts)
    total, most, sum_p, sum_pq = 0, 0, 0.0, 0.0
    for j, c in enumerate(counts):
        if c == 0:
            continue
        inflight = node.edge_vl[j] if with_in_flight else 0
        q = (node.edge_value[j] - vl * inflight) / c
        p = _floored(node.priors[j])
        out[j] = q
        sum_p += p
        sum_pq += p * q
        total += c
        most = max(most, c)
    weighted = sum_pq / sum_p if sum_p > 0 else 0.0
    mixed = (getattr(node, "raw", 0.0) + float(total) * weighted) / float(total + 1)
    for j, c in enumerate(counts):
        if c == 0:
            out[j] = mixed
    lo, hi = min(out), max(out)
    scale = (maxvisit_init + most) * value_scale
    span = max(hi - lo, 1e-8)
    return [scale * ((x - lo) / span) for x in out], total


def improved_policy(node: Node, sig: list[float]) -> list[float]:
    """softmax(log max(prior, FLT_MIN) + σ), as p · exp(σ - max σ) normalised."""
    top = max(sig)
    weights = [_floored(node.priors[j]) * math.exp(s - top) for j, s in enumerate(sig)]
    total = 0.0
    for w in weights:
        total += w
    return [w / total for w in weights]


class ReferenceGumbel(ReferencePuct):
    """The Gumbel search: sequential halving with Gumbel at the root, the matching rule below it."""

    def __init__(self, root_actor: int, players: int, virtual_loss: float, num_simulations: int,
                 max_considered: int = 16, value_scale: float = 0.1, maxvisit_init: float = 50.0):
        super().__init__(root_actor, players, c_puct=0.0, virtual_loss=virtual_loss)
        self.num_simulations = num_simulations
        self.max_considered = max_considered
        self.value_scale = value_scale
        self.maxvisit_init = maxvisit_init
        self.gumbel = None

    # ---- the root
    def start(self, draws) -> None:
        """The root is expanded: its Gumbel draws (float32 per row, from the pool) and the base visits."""
        root = self.root
        n = len(root.actions)
        assert len(draws) == n
        self.gumbel = [float(np.float32(g)) for g in draws]
        self.m = min(self.max_considered, n)
        self.log_prior = [math.log(_floored(p)) for p in root.priors]
        self.base = list(root.edge_visits)

    def advance(self, action: int) -> None:
        """Subtree reuse: the child reached by `action` becomes the root (call start() again once expanded)."""
        self.root = self.root.children[action]
        self.gumbel = None

    def _search_visits(self, with_in_flight: bool) -> list[int]:
        root = self.root
        return [root.edge_visits[j] - self.base[j] + (root.edge_vl[j] if with_in_flight else 0)
                for j in range(len(root.actions))]

    def _root_row(self, with_in_flight: bool) -> int:
        root = self.root
        sig, _ = sigma(root, with_in_flight, self.virtual_loss, self.value_scale, self.maxvisit_init)
        h = self._search_visits(with_in_flight)
        k = max(h)
        if with_in_flight:
            s = sum(h)
            k = considered_visits(self.m, self.num_simulations, s + 1)[s]
            if k not in h:
                k = max(h)
        top_log = max(self.log_prior)
        best, best_score = -1, -math.inf
        for j in range(len(root.actions)):
            if h[j] != k:
                continue
            score = max(-1e9, self.gumbel[j] + (self.log_prior[j] - top_log) + sig[j])
            if best < 0 or score > best_score:
                best, best_score = j, score
        return best

    def final_row(self) -> int:
        """The row the search plays: the best score among the most visited actions of this search."""
        return self._root_row(False)

    def root_improved_policy(self) -> list[float]:
        sig, _ = sigma(self.root, False, 0.0, self.value_scale, self.maxvisit_init)
        return improved_policy(self.root, sig)

    # ---- selection and backup
    def _select_edge(self, node: Node) -> int:
        if node is self.root:
            assert self.gumbel is not None, "start() the root with the pool's draws first"
            return self._root_row(True)
        sig, total = sigma(node, True, self.virtual_loss, self.value_scale, self.maxvisit_init)
        pi = improved_policy(node, sig)
        counts = _counts(node, True)
        best, best_score = 0, -math.inf
        for j in range(len(node.actions)):
            score = pi[j] - float(counts[j]) / float(1 + total)
            if j == 0 or score > best_score:
                best, best_score = j, score
        return best

    def backup(self, trail, node: Node, actor: int, value):
        if node.visits == 0:
            node.raw = float(value) if self.players == 2 else float(value[actor])
        super().backup(trail, node, actor, value)
