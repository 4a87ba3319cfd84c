"""Golden playthroughs: the text of a few seeded random games (tests/golden/*.txt).

Each file lists, for one fixed configuration and seed, every action of a seeded
uniform-random game (round, player, id, ``describe_action``), the scores at the
start of every round, and a summary of every player at the end. tests/engine/test_golden.py
replays the games and compares the text, so any change of the rules, the action
ids or the descriptions shows up as a reviewed diff of these files.

Regenerate after an intended change and review the diff:

    PYTHONPATH=. python tests/regen_golden.py            # rewrite tests/golden/*.txt
    PYTHONPATH=. python tests/regen_golden.py --check    # exit 1 if any file is stale
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from polyenv import GameEnv

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"

# name -> GameEnv keyword arguments. The policy seed is the game seed.
SPECS: dict[str, dict] = {
    "seed11_8x8_2p_full": dict(seed=11, map_size=8, players=("Bardur", "Imperius"), full_observability=True),
    "seed22_11x11_2p_fog": dict(seed=22, map_size=11, players=("Oumaji", "Hoodrick"), max_turns=20),
    "seed33_12x12_3p_score_fog": dict(seed=33, map_size=12, players=("Xin-Xi", "Vengir", "Luxidoor"), mode="score",
                                      max_turns=12),
}

_MASK = (1 << 64) - 1


class SplitMix64:
    """A tiny PRNG written out here, so the golden games do not depend on Python's `random`."""

    def __init__(self, seed: int):
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n


def _config_text(spec: dict) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in spec.items())


def playthrough(name: str) -> str:
    """The golden text of game `name` (a key of SPECS), played now."""
    spec = SPECS[name]
    env = GameEnv(**spec)
    rng = SplitMix64(spec["seed"])
    lines = [
        f"# polyenv golden playthrough {name}",
        f"# GameEnv({_config_text(spec)}); policy: uniform over legal_actions() with SplitMix64({spec['seed']})",
        "# regenerate: PYTHONPATH=. python tests/regen_golden.py (then review the diff)",
        f"# action_space_size {env.action_space_size}",
    ]
    round_shown = None
    while not env.game_over:
        if env.turn != round_shown:
            round_shown = env.turn
            lines.append(f"round {env.turn} scores {' '.join(map(str, env.scores()))}")
        legal = env.legal_actions()
        action = int(legal[rng.below(len(legal))])
        lines.append(f"p{env.current_player} {action} {env.describe_action(action)}  [{len(legal)}]")
        env.step(action)
    lines.append(f"end round {env.turn} winner p{env.winner} scores {' '.join(map(str, env.scores()))}")
    for p in range(env.num_players):
        info = env.player(p)
        lines.append(f"p{p} {info['tribe']} {info['result']} score={info['score']} stars={info['stars']} "
                     f"cities={info['num_cities']} kills={info['kills']} alive={info['alive']} "
                     f"techs={','.join(info['techs'])}")
    return "\n".join(lines) + "\n"


def golden_path(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.txt"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale files (exit 1 if any)")
    args = parser.parse_args(argv)
    GOLDEN_DIR.mkdir(exist_ok=True)
    stale = 0
    for name in SPECS:
        text, path = playthrough(name), golden_path(name)
        current = path.read_text() if path.exists() else None
        if current == text:
            print(f"unchanged {path}")
            continue
        stale += 1
        if args.check:
            print(f"stale     {path}")
        else:
            path.write_text(text)
            print(f"wrote     {path} ({text.count(chr(10))} lines)")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
