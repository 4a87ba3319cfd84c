"""A pure-Python PUCT search mirroring the documented MctsPool algorithm (docs/mcts_pool.md).

The reference keeps its own tree keyed by action paths. It learns a node's
action rows and actor from the pool's leaf batch (it has no game engine), and
gets logits and values from a deterministic function of the leaf's path, so
that both searches see the same evaluations. Tests compare the leaves each
selects, and the visit counts.
"""
from __future__ import annotations

import math
import zlib

import numpy as np


def evaluation(path: tuple, rows: int, max_actions: int, players: int):
    """Logits [max_actions] and a value ([] for 2 players, [P] otherwise) for a leaf path."""
    rng = np.random.default_rng(zlib.crc32(np.asarray(path, dtype=np.int64).tobytes()) + len(path))
    logits = np.full(max_actions, -np.inf, dtype=np.float32)
    logits[:rows] = rng.normal(0, 1.5, rows).astype(np.float32)
    if players == 2:
        value = np.float32(rng.uniform(-1, 1))
    else:
        value = rng.uniform(-1, 1, players).astype(np.float32)
    return logits, value


class Node:
    def __init__(self, actor: int):
        self.actor = actor
        self.expanded = False
        self.in_flight = False
        self.visits = 0
        self.vl = 0
        self.value = 0.0
        self.actions: list[int] = []
        self.priors: list[float] = []
        self.edge_visits: list[int] = []
        self.edge_vl: list[int] = []
        self.edge_value: list[float] = []
        self.children: dict[int, "Node"] = {}


class ReferencePuct:
    """PUCT with virtual loss and Maxⁿ backup over payoff vectors (2 players: (v, -v))."""

    def __init__(self, root_actor: int, players: int, c_puct: float, virtual_loss: float):
        self.root = Node(root_actor)
        self.players = players
        self.c_puct = c_puct
        self.virtual_loss = virtual_loss

    def _select_edge(self, node: Node) -> int:
        sqrt_total = math.sqrt(float(node.visits + node.vl))
        best, best_score = 0, 0.0
        for j in range(len(node.actions)):
            inflight = node.edge_vl[j]
            count = node.edge_visits[j] + inflight
            q = (node.edge_value[j] - self.virtual_loss * inflight) / count if count > 0 else 0.0
            u = self.c_puct * node.priors[j] * sqrt_total / (1 + count)
            score = q + u
            if j == 0 or score > best_score:
                best, best_score = j, score
        return best

    def descend(self):
        """Returns (path actions, [(node, edge)], leaf node or None) or None on a collision."""
        node, trail, actions = self.root, [], []
        while node.expanded:
            j = self._select_edge(node)
            trail.append((node, j))
            action = node.actions[j]
            actions.append(action)
            if action not in node.children:
                node.children[action] = Node(-1)  # actor learnt from the leaf row
            node = node.children[action]
        if node.in_flight:
            return None
        node.in_flight = True
        for n, j in trail:
            n.vl += 1
            n.edge_vl[j] += 1
        return tuple(actions), trail, node

    def expand(self, node: Node, actor: int, action_ids, logits):
        node.actor = actor
        node.expanded = True
        valid = [float(x) for x in logits[:len(action_ids)]]
        top = max(valid) if valid else 0.0
        total = 0.0
        for x in valid:
            total += math.exp(x - top)
        node.actions = [int(a) for a in action_ids]
        node.priors = [float(np.float32(math.exp(x - top) / total)) for x in valid]
        node.edge_visits = [0] * len(valid)
        node.edge_vl = [0] * len(valid)
        node.edge_value = [0.0] * len(valid)

    def backup(self, trail, node: Node, actor: int, value):
        if self.players == 2:
            payoff = [0.0, 0.0]
            payoff[actor] = float(value)
            payoff[1 - actor] = -float(value)
        else:
            payoff = [float(v) for v in value]
        for n, j in trail:
            v = payoff[n.actor]
            n.vl -= 1
            n.edge_vl[j] -= 1
            n.visits += 1
            n.value += v
            n.edge_visits[j] += 1
            n.edge_value[j] += v
        node.in_flight = False
        node.visits += 1
        node.value += payoff[actor]
