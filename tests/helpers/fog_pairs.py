"""Fog pairs: two games that differ only in what player 0 cannot see, and every channel
player 0 reads from a game (tests/encode/test_fog_pairs.py and the faces' fog tests)."""
from pathlib import Path

import numpy as np

import polyenv
from polyenv import Bardur, GameEnv, Imperius

OBSERVER = 0
LEVEL = Path(polyenv.__file__).parent / "levels" / "duel_11.csv"


def tile(x, y, n=11):
    return x * n + y


def channels(env, player=OBSERVER):
    """Everything ``player`` can read about ``env``, as a flat dict of arrays and strings."""
    out = {}
    for k, v in env.observe(player, include_combat_preview=True).items():
        out[f"observe.{k}"] = np.asarray(v)
    events, cursor = env.visible_events_numpy(0, player=player)
    out["events.cursor"] = np.asarray(cursor)
    for k, v in events.items():
        out[f"events.{k}"] = np.asarray(v)
    for mode in ("text", "ansi"):
        out[f"render.{mode}"] = env.render(mode, player=player)
    out["render.rgb_array"] = env.render("rgb_array", player=player)
    out["legal_actions"] = env.legal_actions() if env.current_player == player else np.zeros(0)
    return out


def assert_same_view(a, b, player=OBSERVER):
    ca, cb = channels(a, player), channels(b, player)
    assert ca.keys() == cb.keys()
    for k in ca:
        if isinstance(ca[k], str):
            assert ca[k] == cb[k], k
        else:
            assert np.array_equal(ca[k], cb[k]), k


def act(env, kind, **kw):
    a = env.action_id(kind, **kw)
    assert env.is_legal(a), (kind, kw)
    env.step(a)


def base():
    """11x11, player 0 sees rows/columns 0..4 only; capitals at (1,1) and (9,9); both players rich."""
    env = GameEnv.blank(11, (Bardur, Imperius), revealed=False)
    env.place_city(0, tile(1, 1), capital=True)
    env.place_city(1, tile(9, 9), capital=True)
    env.reveal(0, [tile(x, y) for x in range(5) for y in range(5)])
    env.reveal(1)
    for p in (0, 1):
        env.set_stars(p, 50)
    return env


def hidden_edit_pairs(seed):
    """A seeded random game, and at several points a clone whose tiles hidden from player 0 (outside
    its territory) change terrain and whose hidden enemy units far from player 0's units are removed."""
    rng = np.random.default_rng(seed)
    env = GameEnv(seed=seed, map_size=11)
    for _ in range(6):
        for _ in range(int(rng.integers(20, 60))):
            if env.game_over:
                return
            legal = env.legal_actions()
            env.step(int(legal[rng.integers(len(legal))]))
        other = env.clone()
        seen = env.observe(OBSERVER, max_actions=1)["map_tokens"][:, 0] == 1
        edited = 0
        for t in map(int, np.flatnonzero(~seen)):
            info = env.tile(t)
            if info["owner"] == OBSERVER or info["terrain"] not in ("plain", "forest"):
                continue
            other.set_terrain(t, "forest" if info["terrain"] == "plain" else "plain")
            other.set_resource(t, None)
            edited += 1
        # Hidden enemy units far from every unit of player 0 (beyond any reach and zone of control).
        n = env.map_size
        mine = [t for t in range(env.num_tiles) if (u := env.unit_at(t)) is not None and u["owner"] == OBSERVER]
        for t in map(int, np.flatnonzero(~seen)):
            u = env.unit_at(t)
            far = all(max(abs(t // n - m // n), abs(t % n - m % n)) > 5 for m in mine)
            if u is not None and u["owner"] != OBSERVER and far:
                other.remove_unit(t)
                edited += 1
        yield env, other, edited


def level_pair():
    """duel_11.csv and a copy differing on tiles player 0 does not see at the start."""
    text = LEVEL.read_text()
    rows = [r.split(",") for r in text.strip().splitlines()]
    rows[6][1] = "f:"     # (6,1) plain -> forest
    rows[8][9] = ".:"     # (8,9) drops its fruit, next to player 1's capital
    rows[10][6] = ".:"    # (10,6) drops its fruit
    return text, "\n".join(",".join(r) for r in rows) + "\n"
