"""A stand-in for the Java driver (polyenv/evaluation/java/src/core/game/DiffDriver.java) that speaks its protocol with
polyenv itself as the "Java" engine, so the lockstep and cross-play code runs in CI without a JDK.

    python tests/helpers/java_stand_in.py [--fog] [--diverge-at K]

It loads the level in a polyenv GameEnv (same seed, hence the same draws as the lockstep game's polyenv, so it
records none: "draws" false),
reports states and actions in the driver's JSON format, and plays agents: "Random" (uniform) and
"SimpleAgent" (polyenv's greedy bot). ``--diverge-at K`` adds a star to tribe 0 after the K-th step, so the
comparison must stop the game there; ``--refuse N`` answers the first N ``act`` commands with a refused
action (index -1), as the driver does when a Tribes agent chooses an action the state does not allow.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from polyenv import (BUILDINGS, LEVEL_UP_REWARDS, RESOURCES, TECHS, TERRAINS, UNIT_STATUSES,  # noqa: E402
                     UNIT_TYPES, GameEnv, bots)
from polyenv.evaluation.java import canon  # noqa: E402

_KIND = {v: k for k, v in canon.JAVA_KINDS.items() if k != "UPGRADE_SHIP"}  # polyenv kind -> driver kind
_RESULT = {"playing": "INCOMPLETE", "win": "WIN", "loss": "LOSS"}


def java_action(a: tuple, env: GameEnv) -> list:
    """The driver's form of a neutral action (the inverse of canon.java_action)."""
    kind, src, tgt, arg, amount = a
    name = _KIND[kind]
    if kind == "research":
        return [name, -1, -1, TECHS.index(arg), 0]
    if kind in ("declare_war", "send_stars"):
        return [name, -1, -1, arg, amount]
    if kind == "level_up":
        return [name, src, -1, LEVEL_UP_REWARDS.index(arg), 0]
    if kind == "spawn":
        return [name, src, -1, UNIT_TYPES.index(arg), 0]
    if kind == "build":
        return [name, env.tile(tgt)["city"], tgt, "GRAND_BAZAR" if arg == "grand_bazaar" else arg.upper(), 0]
    return [name, src, tgt, -1, amount]


def report(env: GameEnv, fog: bool) -> dict:
    s = canon.polyenv_state(env)
    n = env.num_players
    tribes = []
    for p in range(n):
        pre = f"player[{p}]."
        others = iter(s[pre + "allegiance"])
        d = env.player(p)
        tribes.append({
            "stars": s[pre + "stars"], "score": s[pre + "score"], "techs": sum(1 << TECHS.index(t) for t in s[pre + "techs"]),
            "kills": s[pre + "kills"], "cities": s[pre + "num_cities"], "result": _RESULT[s[pre + "result"]],
            "wars": s[pre + "wars_declared"], "sent": s[pre + "stars_sent"], "capital": d["capital"],
            "allegiance": [0 if q == p else next(others) for q in range(n)],
            "monuments": ["GRAND_BAZAR" if m == "grand_bazaar" else m.upper() for m in s[pre + "monuments_available"]],
            "met": list(d["met"]),
            "explored": "".join("1" if env.tile(t)["explored"][p] else "0" for t in range(env.map_size ** 2)),
        })
    tiles = range(env.map_size ** 2)
    units, cities = [], []
    for t in tiles:
        if f"unit@{t}.owner" in s:
            u = lambda k: s[f"unit@{t}.{k}"]  # noqa: E731
            units.append([t, u("owner"), UNIT_TYPES.index(u("type")), u("hp"), u("max_hp"),
                          UNIT_STATUSES.index(u("status")), u("kills"), int(u("veteran")), u("home_city"),
                          -1 if u("carried") is None else UNIT_TYPES.index(u("carried"))])
        if f"city@{t}.owner" in s:
            c = lambda k: s[f"city@{t}.{k}"]  # noqa: E731
            cities.append([t, c("owner"), c("level"), c("population"), c("production"), int(c("capital")),
                           int(c("walls")), c("bound"), c("worth"), c("supported")])
    acts = [] if env.game_over else [java_action(a, env) for a in sorted(canon.polyenv_actions(env))]
    return {"tick": s["turn"], "active": s["current_player"], "over": s["game_over"], "winner": s["winner"],
            "tribes": tribes, "units": units, "cities": cities,
            "terrain": [TERRAINS.index(s[f"tile@{t}.terrain"]) for t in tiles],
            "resource": [-1 if s[f"tile@{t}.resource"] is None else RESOURCES.index(s[f"tile@{t}.resource"]) for t in tiles],
            "building": ["" if s[f"tile@{t}.building"] is None else
                         ("GRAND_BAZAR" if s[f"tile@{t}.building"] == "grand_bazaar" else s[f"tile@{t}.building"].upper())
                         for t in tiles],
            "road": [int(s[f"tile@{t}.road"]) for t in tiles],
            "territory": [s[f"tile@{t}.territory"] for t in tiles],
            "fog": fog, "draws": False, "meetings": [], "explorer": [], "actions": acts}


def main() -> None:
    fog = "--fog" in sys.argv
    diverge = int(sys.argv[sys.argv.index("--diverge-at") + 1]) if "--diverge-at" in sys.argv else -1
    refuse = int(sys.argv[sys.argv.index("--refuse") + 1]) if "--refuse" in sys.argv else 0
    env, agents, steps = None, {}, 0
    assert BUILDINGS  # the driver's names are polyenv's upper-cased
    for line in sys.stdin:
        words = line.split()
        try:
            if words[0] == "quit":
                return
            if words[0] == "load":
                env = GameEnv(level=Path(words[1]).read_text(), players=None, mode=words[2].lower(),
                              full_observability=not fog, auto_end_turn=False, seed=int(words[3]))
                agents, steps = {}, 0
                reply = report(env, fog)
            elif words[0] == "step":
                acts = sorted(canon.polyenv_actions(env).items())
                env.step(acts[int(words[1])][1])
                steps += 1
                if steps == diverge:
                    env.set_stars(0, env.stars(0) + 1)
                reply = report(env, fog)
            elif words[0] == "agent":
                if words[3] not in ("Random", "SimpleAgent"):
                    raise ValueError(f"unknown Tribes agent {words[3]}")
                agents[int(words[1])] = words[3]
                reply = {"agent": words[3], "settings": {}}
            elif words[0] == "act" and refuse > 0:
                refuse -= 1
                reply = {"index": -1, "cpu_ms": 0.5, "refused": "[\"CAPTURE\",71,-1,-1,0]"}
            elif words[0] == "act":
                t0 = time.thread_time()
                acts = sorted(canon.polyenv_actions(env).items())
                ids = [i for _, i in acts]
                bot = "greedy" if agents[env.current_player] == "SimpleAgent" else "random"
                choice = bots.choose(env, bot, seed=steps)
                reply = {"index": ids.index(choice), "cpu_ms": 1000 * (time.thread_time() - t0)}
            elif words[0] == "warmup":
                reply = {"cpu_ms": 0.0}
            else:
                reply = {"error": "unknown command"}
        except Exception as e:  # noqa: BLE001  (the driver answers every failure with an error line)
            reply = {"error": f"{type(e).__name__}: {e}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
