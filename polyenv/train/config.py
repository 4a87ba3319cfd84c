"""The settings of an AlphaZero training run (no torch needed: the CLI builds its flags from them)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

__all__ = ["AlphaZeroConfig"]


@dataclass
class AlphaZeroConfig:
    """Everything a run needs (the flags of `polyenv train az`; :mod:`polyenv.train.alphazero` explains them)."""

    out_dir: str = "runs/az"
    minutes: float = 60.0              # wall-clock budget of the whole run (expert phase included)
    seed: int = 0
    map_size: int = 11
    # expert warm start
    expert_games: int = 0
    expert_simulations: int = 800
    expert_workers: int = 2
    expert_temperature: float = 0.5    # the expert's policy targets: visits^(1/T), renormalised
    expert_minutes: float = 0.0        # > 0: the expert phase ends after this many minutes at the latest
    # self-play
    fog: float = 0.0                   # fraction of games under fog of war (the pool actor: 0 or 1)
    selfplay: str = "native"           # "native": az teacher games in worker processes; "pool": MctsPool / SelfPlayPool
    selfplay_games: int = 32           # native: games per published network
    gumbel_scale: float = 1.0          # native: the az teacher's root Gumbel noise
    leaf_value_mix: float = 1.0        # weight of the engine's heuristic in the az player's leaf values (0: value head)
    envs: int = 64
    simulations: int = 32
    max_actions: int = 512
    pending_leaves: int = 2
    root_selection: str = "gumbel"     # "gumbel" (train on the improved policy) or "puct" (on visit counts)
    max_considered: int = 16
    reuse_tree: bool = True            # MctsPool keeps the chosen subtree across real moves
    c_puct: float = 1.5
    dirichlet_alpha: float = 0.3
    dirichlet_fraction: float = 0.25
    temperature_moves: int = 16
    # learning
    buffer: int = 200_000
    batch: int = 256
    lr: float = 1e-3
    lr_final: float = 0.1              # the learning rate falls linearly to lr * this by the end of the budget
    weight_decay: float = 1e-4
    value_weight: float = 1.0
    replay_ratio: float = 8.0
    publish_every: int = 50
    # network
    net: dict = field(default_factory=lambda: dict(tile_dim=32, layers=3, global_dim=64, row_dim=64, value_hidden=64))
    init_weights: str | None = None    # start from this .paz instead of random weights
    # bookkeeping
    checkpoint_minutes: float = 10.0
    save_replay: bool = True
    progress: bool = True

    def check(self) -> "AlphaZeroConfig":
        """Validates the fields (ValueError on the first bad one); returns self."""
        positive = ("minutes", "envs", "simulations", "max_actions", "pending_leaves", "buffer", "batch", "lr",
                    "replay_ratio", "publish_every", "checkpoint_minutes", "expert_simulations", "expert_workers",
                    "expert_temperature", "selfplay_games")
        for name in positive:
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be > 0, got {getattr(self, name)!r}")
        for name in ("expert_games", "expert_minutes", "temperature_moves", "c_puct", "weight_decay", "value_weight",
                     "dirichlet_fraction", "gumbel_scale"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)!r}")
        for name in ("fog", "leaf_value_mix", "lr_final"):
            if not 0.0 <= float(getattr(self, name)) <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {getattr(self, name)!r}")
        if self.selfplay not in ("native", "pool"):
            raise ValueError(f"selfplay must be 'native' or 'pool', got {self.selfplay!r}")
        if self.selfplay == "pool" and self.fog not in (0, 1):
            raise ValueError(f"the pool actor plays every game with or without fog: fog must be 0 or 1, got {self.fog!r}")
        if self.root_selection not in ("gumbel", "puct"):
            raise ValueError(f"root_selection must be 'gumbel' or 'puct', got {self.root_selection!r}")
        if not 1 <= self.pending_leaves <= 8:
            raise ValueError(f"pending_leaves must be in [1, 8], got {self.pending_leaves}")
        if self.init_weights is not None and not os.path.isfile(self.init_weights):
            raise ValueError(f"init_weights {self.init_weights!r} is not a file")
        return self


#: One line per field for ``polyenv train az --help``.
FIELD_HELP = {
    "minutes": "wall-clock budget of the whole run, expert phase included",
    "seed": "seed of the games (expert and self-play)",
    "map_size": "board side",
    "expert_games": "games of the native MCTS bot against itself for the warm start (0: none)",
    "expert_simulations": "the expert's simulations per decision (mcts:<this>)",
    "expert_workers": "processes playing the teacher games (expert and native self-play)",
    "expert_minutes": "the expert phase ends after this many minutes at the latest (0: when its games are done)",
    "expert_temperature": "the expert's policy targets are visits^(1/T) renormalised (T < 1 sharpens them)",
    "fog": "fraction of games under fog of war (the pool actor: 0, or 1 for SelfPlayPool with the baseline belief)",
    "selfplay": "native: the az player's own games in worker processes; pool: MctsPool / SelfPlayPool with torch leaves",
    "selfplay_games": "native self-play: games per published network",
    "gumbel_scale": "native self-play: the root's Gumbel noise (exploration)",
    "leaf_value_mix": "weight of the engine's heuristic in the az player's leaf values (0: the value head alone)",
    "envs": "pool self-play: games played at once (B)",
    "simulations": "search simulations per move (the az player's and the pool's)",
    "max_actions": "action rows per batch row (larger positions are truncated, End Turn kept)",
    "pending_leaves": "leaves in flight per tree and round (1..8)",
    "root_selection": "gumbel: sequential halving, improved-policy targets; puct: visit-count targets",
    "max_considered": "actions the Gumbel root samples",
    "reuse_tree": "keep the chosen subtree across real moves (full observability)",
    "c_puct": "PUCT exploration constant",
    "dirichlet_alpha": "PUCT root noise Dir(alpha) (full observability only)",
    "dirichlet_fraction": "root noise weight (0: none)",
    "temperature_moves": "PUCT: decisions per game sampled from the visit counts, the rest take the most visited",
    "buffer": "replay capacity in positions",
    "batch": "positions per learner step",
    "lr": "AdamW learning rate (at the start)",
    "lr_final": "the learning rate falls linearly to lr * this at the end of the budget",
    "weight_decay": "AdamW weight decay",
    "value_weight": "weight of the value loss",
    "replay_ratio": "at most this many sampled positions per position generated",
    "publish_every": "learner steps between weight updates of the actor",
    "init_weights": "start from this .paz file instead of random weights",
    "checkpoint_minutes": "minutes between checkpoints",
    "save_replay": "keep the replay buffer in the run directory (for --resume)",
}
