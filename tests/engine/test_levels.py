"""Tribes CSV levels (RULES.md §1.3) and whole games through GameEnv.

* Our own small level files in the Tribes format, loaded from a path (str and
  pathlib.Path) and from text, checked tile by tile against an independent
  reading of the file (terrain, resources, capitals in reading order, starting
  units, techs, stars and score of RULES.md §1.3 / §2 / §12.3), format variants
  (trailing commas, CRLF, ``d: `` resources, unknown resource chars), then played
  to the end.
* The shipped levels (polyenv/levels/*.csv) load and play, with and without fog.
* 2- and 4-player games are played to the end through ``GameEnv.step`` with the
  full rule set (fog on, Capitals and Score modes), using a broad set of action kinds.
"""
import copy
import pickle
import random
from pathlib import Path

import pytest

import polyenv
from polyenv import GameEnv

LEVELS = sorted((Path(polyenv.__file__).parent / "levels").glob("*.csv"))

TERRAIN_OF = {".": "plain", "s": "shallow_water", "d": "deep_water", "m": "mountain", "v": "village", "c": "city",
              "f": "forest"}
RESOURCE_OF = {"h": "fish", "f": "fruit", "a": "animal", "w": "whales", "o": "ore", "c": "crops", "r": "ruins"}
# RULES.md §2: tribe key -> (starting tech or None, its tier, starting unit)
TRIBE_START = {
    0: ("climbing", 1, "warrior"), 1: ("organization", 1, "warrior"), 2: ("hunting", 1, "warrior"),
    3: ("riding", 1, "rider"), 4: ("fishing", 1, "warrior"), 5: ("archery", 2, "archer"),
    6: (None, 0, "warrior"), 7: ("smithery", 3, "swordsman"), 8: ("farming", 2, "warrior"),
    9: ("meditation", 2, "warrior"), 10: ("shields", 2, "defender"), 11: ("roads", 2, "warrior"),
}

# 6x6, two tribes: Hoodrick (key 5) at (1,1) is read first, so it is player 0; Xin-Xi (key 0) at (4,3).
# Every terrain and every resource appears; ruins on plain and deep water; a village at (2,3).
TINY = """\
d:w,s:h,.:,.:,f:a,.:
s:,c:5,.:,.:,.:r,m:o
.:c,.:f,.:,v:,.:,.:
.:,.:,.:,.:,.:,.:
m:,.:,.:,c:0,.:,.:
f:,.:,.:,.:,.:,d:r
"""

# 4x4, the smallest board: two capitals in opposite corners (their radius-1 areas clip to 2x2).
CORNERS = """\
c:2,.:,.:,.:
.:,.:,.:,.:
.:,.:,.:,.:
.:,.:,.:,c:1
"""

# 7x7 with three capitals, two of them 2 apart (their areas overlap in column 2), and a lake.
CROWDED = """\
.:,.:,.:,.:,.:,.:,.:
.:,c:3,.:,c:10,s:h,s:,.:
.:,.:,.:,.:,s:,d:w,.:
.:,f:a,.:,v:,s:,s:,.:
.:,.:,m:o,.:,.:,.:,.:
.:,.:,.:,.:,.:,c:7,.:
.:,.:,.:,.:,.:,.:,.:
"""


def every_tribe_level():
    """12x12 with every tribe key once, capitals 3+ tiles apart (no overlapping areas)."""
    rows, key = [], 0
    for x in range(12):
        tokens = []
        for y in range(12):
            if x in (1, 4, 7, 10) and y in (1, 5, 9):
                tokens.append(f"c:{key}")
                key += 1
            else:
                tokens.append(".:")
        rows.append(",".join(tokens))
    return "\n".join(rows) + "\n"


def read_level(text):
    """An independent reading of a level: (n, [(terrain, resource)] per tile, [(tile, tribe key)] capitals)."""
    lines = [line for line in text.replace("\r\n", "\n").split("\n") if line.strip()]
    n = len(lines)
    cells, capitals = [], []
    for x, line in enumerate(lines):
        tokens = line.split(",")
        while tokens and tokens[-1] == "":
            tokens.pop()
        assert len(tokens) == n
        for y, token in enumerate(tokens):
            t, r = token[0], token[2:]
            if t == "c":
                capitals.append((x * n + y, int(r)))
                cells.append(("city", None))
            else:
                cells.append((TERRAIN_OF[t], RESOURCE_OF.get(r)))
    return n, cells, capitals


def radius1(n, tile):
    x, y = divmod(tile, n)
    return {(i * n + j) for i in range(x - 1, x + 2) for j in range(y - 1, y + 2) if 0 <= i < n and 0 <= j < n}


def check_loaded(env, text, fog):
    """The game matches the file: board, tribes in capital order, capitals, units, techs, stars, score."""
    n, cells, capitals = read_level(text)
    assert env.map_size == n and env.num_tiles == n * n
    assert env.num_players == len(capitals)
    assert env.turn == 0 and env.current_player == 0 and not env.game_over
    for t, (terrain, resource) in enumerate(cells):
        info = env.tile(t)
        assert info["terrain"] == terrain, f"tile {divmod(t, n)}"
        if terrain != "city":
            assert info["resource"] == resource, f"tile {divmod(t, n)}"
    claimed = set()
    for p, (tile, key) in enumerate(capitals):
        player = env.player(p)
        tech, tier, unit = TRIBE_START[key]
        assert player["tribe_key"] == key and player["tribe"] == polyenv.TRIBES[key]
        assert player["capital"] == tile
        techs = set(player["techs"])
        assert techs >= ({tech} if tech else set())
        if fog:
            # §6: meeting a tribe (seeing its units or land at the start) grants one of its techs, no score.
            extra = techs - {tech}
            assert len(extra) <= len(player["met"])
            for t in extra:
                assert any(t in env.player(q)["techs"] for q in player["met"])
        else:
            assert techs == ({tech} if tech else set()) and player["met"] == []
        assert player["stars"] == 5 and player["num_cities"] == 1 and player["alive"]
        city = env.city_at(tile)
        assert city["owner"] == p and city["capital"]
        assert (city["level"], city["walls"]) == ((3, True) if key == polyenv.Luxidoor else (1, False))
        start_unit = env.unit_at(tile)
        assert start_unit["type"] == unit and start_unit["owner"] == p
        # Territory: the radius-1 area, except tiles an earlier capital already claimed.
        area = radius1(n, tile) - claimed
        owned = {t for t in range(n * n) if env.tile(t)["owner"] == p}
        assert owned == area, f"player {p} territory"
        assert city["worth"] == 20 * len(area), f"player {p} capital worth"
        claimed |= area
        # §1.3 / §12.3: tier x 100 + 100 centre + 20 per claimed tile + unit points (+5 per revealed tile in fog).
        revealed = sum(env.tile(t)["explored"][p] for t in range(n * n)) if fog else 0
        expected = tier * 100 + 100 + 20 * len(area) + polyenv.UNIT_STATS[unit]["points"] + 5 * revealed
        assert player["score"] == expected, f"player {p} score"
        if fog:
            x, y = divmod(tile, n)
            assert revealed == sum(1 for i in range(x - 2, x + 3) for j in range(y - 2, y + 3)
                                   if 0 <= i < n and 0 <= j < n)


def play_to_end(env, seed, step_checks=False):
    """Plays to the end (seeded random), then checks the end state. Returns the action count."""
    if step_checks:
        rng = random.Random(seed)
        n = 0
        while not env.game_over:
            legal = env.legal_actions()
            env.step(int(legal[rng.randrange(len(legal))]))
            n += 1
            if n % 25 == 0:
                env.check_invariants()
    else:
        n = env.playout(seed=seed)
    env.check_invariants()
    assert env.game_over and 0 <= env.winner < env.num_players
    results = [env.player(p)["result"] for p in range(env.num_players)]
    assert results[env.winner] == "win" and results.count("win") == 1
    assert env.turn <= env.turn_limit + 1
    return n


# ---------------------------------------------------------------------------------------------- own levels

OWN_LEVELS = {"tiny": TINY, "corners": CORNERS, "crowded": CROWDED, "every_tribe": every_tribe_level()}


@pytest.mark.parametrize("name", OWN_LEVELS)
@pytest.mark.parametrize("fog", [False, True], ids=["full", "fog"])
def test_own_level_loads_from_text_and_path(tmp_path, name, fog):
    text = OWN_LEVELS[name]
    path = tmp_path / f"{name}.csv"
    path.write_text(text)
    envs = [GameEnv(seed=3, level=text, players=None, full_observability=not fog),
            GameEnv(seed=3, level=str(path), players=None, full_observability=not fog),
            GameEnv(seed=3, level=path, players=None, full_observability=not fog)]
    for env in envs:
        env.check_invariants()
        check_loaded(env, text, fog)
    assert envs[0].to_bytes() == envs[1].to_bytes() == envs[2].to_bytes()


@pytest.mark.parametrize("name", OWN_LEVELS)
@pytest.mark.parametrize("fog", [False, True], ids=["full", "fog"])
def test_own_level_plays_to_the_end(name, fog):
    for seed in range(3):
        env = GameEnv(seed=seed, level=OWN_LEVELS[name], players=None, full_observability=not fog)
        assert play_to_end(env, seed, step_checks=(seed == 0)) > 0


@pytest.mark.parametrize("mode", ["capitals", "score"])
def test_single_tribe_level_ends_at_the_first_end_turn(mode):
    # RULES §1.3's MinimalLevel has one tribe. §12.2: it holds every original capital (Capitals) and
    # at most one tribe is left (Score), so the game-over check of its first End Turn ends the game.
    env = GameEnv(seed=0, level=LEVELS[0].parent / "minimal.csv", players=None, mode=mode)
    assert env.num_players == 1 and not env.game_over
    n = play_to_end(env, 0)
    assert env.winner == 0 and env.turn == 0
    assert env.describe_action(0).startswith("end_turn") and n >= 1


def test_adjacent_capitals_score_only_owned_tiles():
    text = "\n".join([".:,.:,.:,.:,.:", ".:,c:3,c:10,.:,.:"] + [".:,.:,.:,.:,.:"] * 3) + "\n"
    env = GameEnv(seed=0, level=text, players=None, full_observability=True)
    env.check_invariants()
    # Oumaji (key 3): Riding (tier 1) and a Rider; Quetzali (key 10): Shields (tier 2) and a Defender.
    for p, tech_points, unit_points in ((0, 100, 15), (1, 200, 15)):
        capital = env.player(p)["capital"]
        owned = sum(env.tile(t)["owner"] == p for t in range(env.num_tiles))
        assert env.city_at(capital)["worth"] == 20 * owned
        assert env.player(p)["score"] == tech_points + 100 + 20 * owned + unit_points


def test_format_variants_load_identically(tmp_path):
    # §1.3: trailing empty tokens are ignored, R may be missing, a space or an unknown char (= no
    # resource); CRLF line ends and blank trailing lines are accepted.
    canonical = GameEnv(seed=1, level=TINY, players=None).to_bytes()
    lines = TINY.strip().split("\n")
    variants = {
        "trailing_comma": "\n".join(line + "," for line in lines) + "\n",
        "crlf": "\r\n".join(lines) + "\r\n",
        "blank_tail": TINY + "\n\n",
        "no_final_newline": TINY.rstrip("\n"),
        "space_resource": TINY.replace("s:,", "s: ,").replace(".:,", ".: ,"),
        "unknown_resource": TINY.replace("s:,", "s:z,").replace(".:,", ".:?,"),
    }
    for name, text in variants.items():
        assert GameEnv(seed=1, level=text, players=None).to_bytes() == canonical, name
        path = tmp_path / f"{name}.csv"
        path.write_bytes(text.encode())
        assert GameEnv(seed=1, level=path, players=None).to_bytes() == canonical, name


def test_players_override_the_level_tribes():
    # A given `players` replaces the tribes in capital order; the same tribe may appear twice.
    env = GameEnv(seed=2, level=TINY, players=(polyenv.Vengir, polyenv.Vengir))
    assert [env.player(p)["tribe_key"] for p in range(2)] == [polyenv.Vengir, polyenv.Vengir]
    n, _, capitals = read_level(TINY)
    for p, (tile, _) in enumerate(capitals):
        assert env.unit_at(tile)["type"] == "swordsman" and env.player(p)["capital"] == tile
    play_to_end(env, 2)


def test_level_game_reset_and_copies_keep_the_board():
    env = GameEnv(seed=5, level=CROWDED, players=None)
    board = [env.tile(t)["terrain"] for t in range(env.num_tiles)]
    env.playout(seed=5)
    twin = copy.deepcopy(env)
    env.reset(seed=6)
    assert [env.tile(t)["terrain"] for t in range(env.num_tiles)] == board
    assert env.turn == 0 and not env.game_over
    twin.reset(seed=6)
    assert twin.to_bytes() == env.to_bytes()


def test_unpickled_level_game_resets_to_the_level():
    env = GameEnv(seed=5, level=CROWDED, players=None)
    env.playout(seed=5)
    restored = pickle.loads(pickle.dumps(env))
    assert restored == env
    env.reset(seed=6)
    restored.reset(seed=6)
    assert restored.to_bytes() == env.to_bytes()


@pytest.mark.parametrize("mode,limit", [("capitals", 50), ("score", 30)])
def test_level_modes_and_turn_limits(mode, limit):
    env = GameEnv(seed=0, level=TINY, players=None, mode=mode)
    assert env.turn_limit == limit
    play_to_end(env, 0)
    env = GameEnv(seed=0, level=TINY, players=None, mode=mode, max_turns=5)
    assert env.turn_limit == 5
    play_to_end(env, 0)
    assert env.turn <= 6


# ---------------------------------------------------------------------------------------------- shipped levels

def test_shipped_levels_present():
    names = {p.name for p in LEVELS}
    assert {"archipelago_14.csv", "duel_11.csv", "four_16.csv", "minimal.csv"} <= names


@pytest.mark.parametrize("level", LEVELS, ids=[p.stem for p in LEVELS])
@pytest.mark.parametrize("fog", [False, True], ids=["full", "fog"])
def test_shipped_level_loads_and_plays(level, fog):
    text = level.read_text()
    env = GameEnv(seed=0, level=level, players=None, full_observability=not fog)
    env.check_invariants()
    check_loaded(env, text, fog)
    assert GameEnv(seed=0, level=text, players=None, full_observability=not fog) == env
    for seed in range(4):
        env.reset(seed=seed)
        play_to_end(env, seed)


def test_archipelago_is_water_heavy_and_playable():
    level = next(p for p in LEVELS if p.name == "archipelago_14.csv")
    env = GameEnv(seed=0, level=level, players=None)
    water = sum(env.tile(t)["terrain"] in ("shallow_water", "deep_water") for t in range(env.num_tiles))
    assert water > env.num_tiles // 2
    play_to_end(env, 0, step_checks=True)


# ---------------------------------------------------------------------------------------------- full games

CORE_KINDS = {"end_turn", "research", "level_up", "declare_war", "send_stars", "build_road", "spawn", "build",
              "gather", "clear_forest", "destroy", "move", "attack", "capture", "disband", "recover"}


def play_recording_kinds(env, seed):
    rng = random.Random(seed)
    kinds = set()
    while not env.game_over:
        legal = env.legal_actions()
        a = int(legal[rng.randrange(len(legal))])
        kinds.add(env.describe_action(a).split()[0])
        env.step(a)
    return kinds


@pytest.mark.parametrize("map_size,players,level", [
    (11, (polyenv.Bardur, polyenv.Imperius), None),
    (16, (polyenv.XinXi, polyenv.Oumaji, polyenv.Hoodrick, polyenv.Vengir), None),
    (None, None, "duel_11.csv"),
    (None, None, "four_16.csv"),
], ids=["11x11-2p", "16x16-4p", "duel_11", "four_16"])
def test_two_and_four_player_games_play_to_the_end(map_size, players, level):
    """Whole games through GameEnv.step with every rule on (fog, default Capitals mode), in both
    generated maps and levels; across a few games random play uses the core action kinds."""
    kinds = set()
    for seed in range(3):
        if level is None:
            env = GameEnv(seed=seed, map_size=map_size, players=players)
        else:
            env = GameEnv(seed=seed, level=Path(LEVELS[0].parent) / level, players=None)
        assert not env.full_observability and env.turn_limit == 50
        kinds |= play_recording_kinds(env, seed)
        env.check_invariants()
        assert env.game_over and 0 <= env.winner < env.num_players
        assert env.player(env.winner)["result"] == "win"
        assert all(env.player(p)["result"] == "loss" for p in range(env.num_players) if p != env.winner)
        assert env.turn <= 51
    missing = CORE_KINDS - kinds
    assert not missing, f"action kinds never played: {sorted(missing)}"


def test_four_player_score_mode_plays_to_the_end():
    env = GameEnv(seed=9, map_size=16, players=(polyenv.Zebasi, polyenv.AiMo, polyenv.Quetzali, polyenv.Yadakk),
                  mode="score")
    assert env.turn_limit == 30
    play_recording_kinds(env, 9)
    env.check_invariants()
    assert env.game_over and env.turn <= 31
    # Score mode: the winner tops the ranking, which starts with the highest score.
    ranking = env.ranking()
    assert ranking[0] == env.winner
    scores = env.scores()
    assert scores[env.winner] == max(scores)
