"""Legal actions per decision, by kind, in random games — next to the Java Tribes framework.

polyenv: seeded games (11x11 2p and 16x16 4p, Capitals, full observability and fog), each
decision uniform over the full legal list; every legal id is counted by its kind (the
ActionKind names). With ``--java DIR`` the Java harness's ``AnchorBench info`` mode runs too
(20 random forward-model games per player count, full observability) and its per-type
counts (``TYPE ... legal/decision``) are printed beside ours, mapped onto our kind names.

``--by-building`` also prints the legal Build ids per decision by building type (full observability),
the breakdown that located the Build / Destroy difference (docs/performance.md).

Usage: ``python benchmarks/legal_kinds.py [--games 20] [--by-building] [--java PATH | --java-info saved.txt]``
"""

from __future__ import annotations

import argparse
import re
import subprocess
from pathlib import Path

import numpy as np

import polyenv
from polyenv import GameEnv

KINDS = ["end_turn", "research", "level_up", "declare_war", "send_stars", "build_road", "spawn", "build",
         "gather", "clear_forest", "burn_forest", "grow_forest", "destroy", "capture", "recover", "disband",
         "examine", "heal_others", "make_veteran", "upgrade", "attack", "convert", "move"]
TILE_ACTIONS = ["gather", "clear_forest", "burn_forest", "grow_forest", "destroy"]
UNIT_SELF = ["capture", "recover", "disband", "examine", "heal_others", "make_veteran", "upgrade"]
# Java Types.ACTION -> our kind (Java splits upgrades by boat kind and has no separate climb action in use).
JAVA_KIND = {"BUILD": "build", "BURN_FOREST": "burn_forest", "CLEAR_FOREST": "clear_forest", "DESTROY": "destroy",
             "GROW_FOREST": "grow_forest", "LEVEL_UP": "level_up", "RESOURCE_GATHERING": "gather", "SPAWN": "spawn",
             "BUILD_ROAD": "build_road", "END_TURN": "end_turn", "RESEARCH_TECH": "research",
             "DECLARE_WAR": "declare_war", "SEND_STARS": "send_stars", "ATTACK": "attack", "CAPTURE": "capture",
             "CONVERT": "convert", "DISBAND": "disband", "EXAMINE": "examine", "HEAL_OTHERS": "heal_others",
             "MAKE_VETERAN": "make_veteran", "MOVE": "move", "RECOVER": "recover", "CLIMB_MOUNTAIN": "move",
             "UPGRADE_BOAT": "upgrade", "UPGRADE_SHIP": "upgrade"}
BUILDINGS = ["farm", "windmill", "lumber_hut", "sawmill", "mine", "forge", "port", "customs_house", "temple",
             "water_temple", "forest_temple", "mountain_temple", "altar_of_peace", "emperors_tomb", "eye_of_god",
             "gate_of_power", "grand_bazaar", "park_of_fortune", "tower_of_wisdom"]
SCENARIOS = {
    2: dict(map_size=11, players=(polyenv.Bardur, polyenv.Imperius)),
    4: dict(map_size=16, players=(polyenv.Bardur, polyenv.Imperius, polyenv.XinXi, polyenv.Oumaji)),
}


def block_offsets(map_size: int, players: int) -> np.ndarray:
    """Start id of each action block (actions.hpp's layout) and the end of the space."""
    t = map_size * map_size
    sizes = [1, 24, 2, players - 1, (players - 1) * 14, t, t * 8, t * 19, t * 5, t * 7, t * 49, t * t]
    return np.concatenate([[0], np.cumsum(sizes)])


def count_kinds(players: int, full_obs: bool, games: int, by_building: dict | None = None) -> tuple[dict, int]:
    """Total legal ids per kind over every decision of `games` random games, and the decision count
    (`by_building`, when given, receives the legal Build ids per building name)."""
    cfg = SCENARIOS[players]
    env = GameEnv(seed=0, full_observability=full_obs, **cfg)
    offsets = block_offsets(cfg["map_size"], players)
    block_kind = ["end_turn", "research", "level_up", "declare_war", "send_stars", "build_road", "spawn", "build",
                  None, None, None, "move"]
    totals = dict.fromkeys(KINDS, 0)
    decisions = 0
    for g in range(games):
        env.reset(seed=g)
        rng = np.random.default_rng(g)
        while not env.game_over:
            legal = env.legal_actions()
            decisions += 1
            blocks = np.searchsorted(offsets, legal, side="right") - 1
            for b, kind in enumerate(block_kind):
                if kind is not None:
                    totals[kind] += int(np.count_nonzero(blocks == b))
            for sub in np.bincount((legal[blocks == 8] - offsets[8]) % 5, minlength=5).nonzero()[0]:
                totals[TILE_ACTIONS[sub]] += int(np.count_nonzero((legal[blocks == 8] - offsets[8]) % 5 == sub))
            for sub in np.bincount((legal[blocks == 9] - offsets[9]) % 7, minlength=7).nonzero()[0]:
                totals[UNIT_SELF[sub]] += int(np.count_nonzero((legal[blocks == 9] - offsets[9]) % 7 == sub))
            if by_building is not None:
                for a in legal[blocks == 7]:
                    name = BUILDINGS[env._game.decode_action(int(a))[3]]
                    by_building[name] = by_building.get(name, 0) + 1
            for a in legal[blocks == 10]:  # attack block: a Mind Bender's entry is a conversion
                source = env._game.decode_action(int(a))[1]
                totals["convert" if env._game.unit_at(source)["type"] == "mind_bender" else "attack"] += 1
            env.step(int(legal[rng.integers(len(legal))]))
    return totals, decisions


def java_kinds(java_dir: Path | None, saved: Path | None) -> dict:
    """{players: {kind: legal per decision}} from AnchorBench info (20 games per player count),
    run now in `java_dir` or read from a saved output."""
    if saved is not None:
        out = saved.read_text()
    else:
        out = subprocess.run(["java", "-Djava.awt.headless=true", "-Xms1g", "-Xmx1g", "-cp",
                              "../build/harness:../build/tribes:lib/json.jar", "core.game.AnchorBench", "info"],
                             cwd=java_dir / "src", capture_output=True, text=True, check=True).stdout
    result: dict = {}
    for m in re.finditer(r"TYPE np=(\d+) (\S+)\s+legal/decision=\s*([0-9.]+)", out):
        kinds = result.setdefault(int(m.group(1)), dict.fromkeys(KINDS, 0.0))
        kinds[JAVA_KIND[m.group(2)]] += float(m.group(3))
    for m in re.finditer(r"FM np=(\d+) over \d+ games: mean legal actions per decision ([0-9.]+)", out):
        result[int(m.group(1))]["total"] = float(m.group(2))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per configuration (default 20)")
    parser.add_argument("--java", type=Path, default=None, help="built tribes-speed harness directory")
    parser.add_argument("--by-building", action="store_true", help="also print Build ids by building type")
    parser.add_argument("--java-info", type=Path, default=None, help="saved output of AnchorBench info instead")
    args = parser.parse_args()
    java = java_kinds(args.java, args.java_info) if (args.java or args.java_info) else {}
    for players in SCENARIOS:
        columns = {}
        buildings: dict = {}
        for full_obs in (True, False):
            want = buildings if (args.by_building and full_obs) else None
            totals, decisions = count_kinds(players, full_obs, args.games, want)
            if want is not None:
                by_building = {k: v / decisions for k, v in want.items()}
            columns["full" if full_obs else "fog"] = {k: v / decisions for k, v in totals.items()}
            columns["full" if full_obs else "fog"]["total"] = sum(totals.values()) / decisions
        if players in java:
            columns["Java"] = java[players]
        size = SCENARIOS[players]["map_size"]
        print(f"\n{size}x{size} {players}p, legal actions per decision ({args.games} random games each)")
        print(f"{'kind':<14}" + "".join(f"{name:>10}" for name in columns))
        for kind in KINDS + ["total"]:
            values = [columns[name].get(kind, 0.0) for name in columns]
            if any(v > 0 for v in values):
                print(f"{kind:<14}" + "".join(f"{v:>10.3f}" for v in values))
        if args.by_building:
            print("legal Build ids per decision by building (full observability)")
            for name in BUILDINGS:
                if by_building.get(name, 0) > 0:
                    print(f"  {name:<16}{by_building[name]:>8.3f}")


if __name__ == "__main__":
    main()
