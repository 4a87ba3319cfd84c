"""Bad input -> a clear ValueError, and nothing changes (GameEnv API contract, STYLE.md item 8).

Covers: action ids (illegal, out of range, not integers, after the game ended),
constructor arguments (map sizes, player counts, tribes, modes, turn limits,
seeds, level arguments), malformed level files and level text, ``from_bytes`` on
garbage / truncated / corrupted bytes, ``action_id`` and the other play methods,
and every scenario-edit method. Every rejected call on a live game is checked to
leave ``to_bytes()`` and ``state_id`` unchanged.
"""
import random

import numpy as np
import pytest

import polyenv
from polyenv import Bardur, GameEnv, Imperius

# A valid 8x8 two-player level (RULES.md §1.3 format); the malformed levels below are edits of it.
GOOD_LEVEL = [
    ".:,.:,.:,.:,.:,.:,.:,.:",
    ".:,c:2,.:,.:,f:a,.:,.:,.:",
    ".:,.:,.:,.:,.:,.:,.:,.:",
    ".:,.:,.:,v:,.:,.:,s:h,.:",
    ".:,.:,.:,.:,.:,.:,d:w,.:",
    ".:,.:,.:,.:,.:,.:,.:,.:",
    ".:,.:,.:,.:,.:,.:,c:1,.:",
    ".:,.:,.:,m:o,.:,.:,.:,.:",
]


def level_text(lines):
    return "\n".join(lines) + "\n"


def edited_level(row, token, new):
    lines = list(GOOD_LEVEL)
    tokens = lines[row].split(",")
    tokens[token] = new
    lines[row] = ",".join(tokens)
    return lines


def assert_rejected(env, fn, *args, exc=ValueError, match=None, **kwargs):
    """`fn(*args, **kwargs)` raises `exc` (matching `match`) and leaves the game untouched."""
    before, state_id = env.to_bytes(), env.state_id
    with pytest.raises(exc, match=match):
        fn(*args, **kwargs)
    assert env.to_bytes() == before, "a rejected call changed the state"
    assert env.state_id == state_id, "a rejected call changed state_id"


@pytest.fixture
def midgame():
    """An 11x11 two-player game some way in (units, cities, stars on the board)."""
    env = GameEnv(seed=3, map_size=11)
    env.playout(max_actions=120, seed=1)
    assert not env.game_over
    return env


@pytest.fixture
def scenario():
    """A blank 8x8 board: capitals at (1,1) and (6,6), a warrior at (2,2), water at (4,4)."""
    env = GameEnv.blank(8, (Bardur, Imperius))
    env.set_terrain((4, 4), "shallow_water")
    env.set_terrain((4, 5), "deep_water")
    env.place_city(0, (1, 1), capital=True)
    env.place_city(1, (6, 6), capital=True)
    env.place_unit(0, "warrior", (2, 2))
    return env


# ---------------------------------------------------------------------------------------------- actions

def test_illegal_in_range_ids_rejected(midgame):
    env, size = midgame, midgame.action_space_size
    legal = set(env.legal_actions().tolist())
    rng = random.Random(0)
    illegal = [a for a in (rng.randrange(size) for _ in range(400)) if a not in legal][:200]
    assert len(illegal) >= 100
    for a in illegal:
        assert not env.is_legal(a)
        assert_rejected(env, env.step, a, match="not legal")
        assert_rejected(env, env.step, np.int64(a), match="not legal")


@pytest.mark.parametrize("action", [-1, -(2 ** 31), -(2 ** 63), "size", "size+1", 2 ** 31, 2 ** 40])
def test_out_of_range_ids_rejected(midgame, action):
    size = midgame.action_space_size
    action = {"size": size, "size+1": size + 1}.get(action, action)
    assert not midgame.is_legal(action)
    assert_rejected(midgame, midgame.step, action, match="outside")


@pytest.mark.parametrize("action", [2 ** 63, 2 ** 64, -(2 ** 63) - 1])
def test_ids_beyond_int64_rejected_with_value_error(midgame, action):
    assert_rejected(midgame, midgame.step, action)


@pytest.mark.parametrize("action", [1.0, 0.0, "0", b"0", None, True, False, np.float32(0), [0], (0,), np.array([0]),
                                    complex(0, 0)], ids=repr)
def test_non_integer_ids_rejected(midgame, action):
    assert_rejected(midgame, midgame.step, action, match="integer")


def test_step_after_game_over_rejected():
    env = GameEnv(seed=4, map_size=8)
    env.playout(seed=4)
    assert env.game_over
    for a in (0, 1, env.action_space_size - 1):
        assert_rejected(env, env.step, a)
    assert env.playout(seed=1) == 0


def test_describe_and_decode_out_of_range(midgame):
    size = midgame.action_space_size
    for a in (-1, size, size + 7):
        # Inspection of a bad id: a clear error (IndexError or ValueError), no change.
        assert_rejected(midgame, midgame.describe_action, a, exc=(IndexError, ValueError))
        assert_rejected(midgame, midgame.decode_action, a, exc=(IndexError, ValueError))
        assert midgame.is_legal(a) is False


# ---------------------------------------------------------------------------------------------- action_id

@pytest.mark.parametrize("kind,kwargs,match", [
    ("fly", {}, "unknown action kind"),
    ("", {}, "unknown action kind"),
    ("move", dict(source=0), "needs target"),
    ("move", dict(target=0), "needs source"),
    ("attack", dict(source=(0, 0), target=(10, 10)), "window"),
    ("spawn", dict(arg="warrior"), "needs source"),
    ("spawn", dict(source=0, arg="boat"), "unit type"),
    ("spawn", dict(source=0, arg="dragon"), "unit type"),
    ("build", dict(target=0, arg="castle"), "building"),
    ("build", dict(target=0, arg=19), "building"),
    ("research", dict(arg="alchemy"), "tech"),
    ("research", dict(arg=24), "tech"),
    ("research", dict(arg=-1), "tech"),
    ("build_road", dict(target=121), "outside"),
    ("build_road", dict(target=-1), "outside"),
    ("build_road", dict(target=(11, 0)), "outside"),
    ("build_road", dict(target=(0, 0, 0)), "pair"),
    ("build_road", dict(target="a"), "tile"),
    ("declare_war", dict(target=0), "relative player"),
    ("declare_war", dict(target=2), "relative player"),
    ("send_stars", dict(target=1, arg=0), "1..14"),
    ("send_stars", dict(target=1, arg=15), "1..14"),
    ("level_up", dict(arg=2), "level_up"),
    ("level_up", dict(arg="park"), "pending"),
])
def test_action_id_bad_arguments(midgame, kind, kwargs, match):
    assert_rejected(midgame, midgame.action_id, kind, match=match, **kwargs)


# ---------------------------------------------------------------------------------------------- constructor

@pytest.mark.parametrize("map_size", [0, 3, -1, 41, 1000, 11.0, "11", True, None], ids=repr)
def test_bad_map_size(map_size):
    with pytest.raises(ValueError, match="map_size"):
        GameEnv(map_size=map_size)


@pytest.mark.parametrize("map_size,players", [(4, 2), (5, 2), (6, 8), (7, 16)])
def test_map_too_small_for_players(map_size, players):
    with pytest.raises(ValueError, match="too small"):
        GameEnv(map_size=map_size, players=[0] * players)


@pytest.mark.parametrize("players", [(), (Bardur,), tuple(range(12)) + (0, 1, 2, 3, 4)], ids=["0", "1", "17"])
def test_bad_player_count(players):
    with pytest.raises(ValueError, match="2 to 16"):
        GameEnv(map_size=30, players=players)


def test_players_none_on_a_generated_map_is_the_default_pair():
    env = GameEnv(players=None)
    assert [env.player(p)["tribe_key"] for p in range(env.num_players)] == [Bardur, Imperius]


def test_players_as_int_rejected():
    with pytest.raises(ValueError):
        GameEnv(players=3)


@pytest.mark.parametrize("tribe", ["Foo", "", "bardurr", 12, -1, 1.5, None, object()], ids=repr)
def test_unknown_tribe(tribe):
    with pytest.raises(ValueError, match="tribe"):
        GameEnv(players=(Bardur, tribe))
    with pytest.raises(ValueError, match="tribe"):
        GameEnv.blank(8, (Bardur, tribe))


def test_tribe_names_accepted():
    env = GameEnv(players=("bardur", "Xin-Xi", "ai_mo"), map_size=12)
    assert [env.player(p)["tribe_key"] for p in range(3)] == [polyenv.Bardur, polyenv.XinXi, polyenv.AiMo]


@pytest.mark.parametrize("mode", ["foo", "", 0, 1, None, "capital"], ids=repr)
def test_bad_mode(mode):
    with pytest.raises(ValueError, match="mode"):
        GameEnv(mode=mode)
    with pytest.raises(ValueError, match="mode"):
        GameEnv.blank(8, (0, 1), mode=mode)


@pytest.mark.parametrize("max_turns", [-1, -5, 1.5, "10", True], ids=repr)
def test_bad_max_turns(max_turns):
    with pytest.raises(ValueError, match="max_turns"):
        GameEnv(max_turns=max_turns)
    with pytest.raises(ValueError, match="max_turns"):
        GameEnv.blank(8, (0, 1), max_turns=max_turns)


@pytest.mark.parametrize("max_turns", [10_001, 40000, 65536, 10 ** 6])
def test_max_turns_above_the_limit_rejected(max_turns):
    with pytest.raises(ValueError, match="max_turns"):
        GameEnv(max_turns=max_turns)
    with pytest.raises(ValueError, match="max_turns"):
        GameEnv.blank(8, (0, 1), max_turns=max_turns)


def test_max_turns_at_the_limit_kept():
    assert GameEnv(max_turns=10_000).turn_limit == 10_000


@pytest.mark.parametrize("seed", [-1, 2 ** 64, 1.0, "1", None], ids=repr)
def test_bad_seed(seed):
    with pytest.raises(ValueError, match="seed"):
        GameEnv(seed=seed)


@pytest.mark.parametrize("map_size", [3, 41, 11.5, "8"],
                         ids=repr)
def test_blank_bad_map_size(map_size):
    with pytest.raises(ValueError, match="map_size"):
        GameEnv.blank(map_size, (0, 1))


@pytest.mark.parametrize("terrain", ["city", "village", "lava", 7, None], ids=repr)
def test_blank_bad_terrain(terrain):
    with pytest.raises(ValueError, match="terrain"):
        GameEnv.blank(8, (0, 1), terrain=terrain)


@pytest.mark.parametrize("players", [(), [0] * 17, 2], ids=["0", "17", "int"])
def test_blank_bad_players(players):
    with pytest.raises(ValueError):
        GameEnv.blank(8, players)


# ---------------------------------------------------------------------------------------------- levels

@pytest.mark.parametrize("lines,match", [
    (GOOD_LEVEL[:3], "lines"),                                           # 3 lines: board too small
    ([",".join([".:"] * 41)] * 41, "lines"),                             # 41 x 41: too large
    ([",".join(line.split(",")[:7]) for line in GOOD_LEVEL], "tokens"),  # 8 lines of 7 tokens
    (GOOD_LEVEL[:7], "tokens"),                                          # 7 lines of 8 tokens
    (edited_level(2, 3, ".:,.:"), "tokens"),                             # one line with 9 tokens
    (edited_level(2, 3, "x:"), "terrain"),                               # unknown terrain char
    (edited_level(2, 3, ".."), "T:R"),                                   # no ':'
    (edited_level(2, 3, "."), "T:R"),                                    # terrain only
    (edited_level(2, 3, ""), "empty token"),                             # ",,"
    (edited_level(2, 3, "f:aa"), "single char"),                         # two-char resource
    (edited_level(2, 3, "c:"), "tribe key"),                             # city without a key
    (edited_level(2, 3, "c:12"), "tribe key"),                           # key out of range
    (edited_level(2, 3, "c:-1"), "tribe key"),
    (edited_level(2, 3, "c:ab"), "tribe key"),
    (edited_level(2, 3, "c:123"), "tribe key"),
    (edited_level(2, 3, "c:2"), "already has a capital"),                # repeated key
    ([line.replace("c:2", ".:").replace("c:1", ".:") for line in GOOD_LEVEL], "no capital"),
])
def test_malformed_level(tmp_path, lines, match):
    text = level_text(lines)
    with pytest.raises(ValueError, match=match):
        GameEnv(level=text, players=None)
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=match):
        GameEnv(level=str(path), players=None)
    with pytest.raises(ValueError, match=match):
        GameEnv(level=path, players=None)


def test_malformed_level_names_the_line_and_token():
    with pytest.raises(ValueError, match=r"line 3, token 4 'x:'"):
        GameEnv(level=level_text(edited_level(2, 3, "x:")), players=None)


def test_level_player_count_mismatch():
    text = level_text(GOOD_LEVEL)
    with pytest.raises(ValueError, match="2 to 16 players, got 1"):
        GameEnv(level=text, players=(0,))
    with pytest.raises(ValueError, match="capitals"):
        GameEnv(level=text, players=(0, 1, 2))
    with pytest.raises(ValueError, match="tribe"):
        GameEnv(level=text, players=(0, "Foo"))


@pytest.mark.parametrize("level", [5, 1.5, b".:,.:", ["a"], "", "/nonexistent/level.csv"], ids=repr)
def test_bad_level_argument(level):
    with pytest.raises(ValueError, match="level"):
        GameEnv(level=level, players=None)


def test_level_path_is_a_directory(tmp_path):
    with pytest.raises(ValueError):
        GameEnv(level=str(tmp_path), players=None)


def test_binary_level_file(tmp_path):
    path = tmp_path / "garbage.csv"
    path.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(ValueError):
        GameEnv(level=str(path), players=None)


# ---------------------------------------------------------------------------------------------- from_bytes

def test_from_bytes_wrong_types():
    for data in ("abc", None, 5, [1, 2, 3]):
        with pytest.raises(ValueError, match="bytes"):
            GameEnv.from_bytes(data)


def test_from_bytes_garbage():
    rng = random.Random(1)
    with pytest.raises(ValueError):
        GameEnv.from_bytes(b"")
    for n in (1, 7, 8, 64, 1000, 5000):
        with pytest.raises(ValueError):
            GameEnv.from_bytes(bytes(rng.randrange(256) for _ in range(n)))


def test_from_bytes_every_truncation(midgame):
    data = midgame.to_bytes()
    for n in range(len(data)):
        with pytest.raises(ValueError):
            GameEnv.from_bytes(data[:n])
    with pytest.raises(ValueError, match="trailing"):
        GameEnv.from_bytes(data + b"\0")
    assert GameEnv.from_bytes(data) == midgame  # the source game is untouched


def test_from_bytes_bad_magic_and_version(midgame):
    data = bytearray(midgame.to_bytes())
    magic = bytearray(data)
    magic[0] ^= 0xFF
    with pytest.raises(ValueError, match="not a polyenv"):
        GameEnv.from_bytes(bytes(magic))
    version = bytearray(data)
    version[4] = (version[4] + 1) % 256
    with pytest.raises(ValueError, match="version"):
        GameEnv.from_bytes(bytes(version))


def test_from_bytes_random_corruption_rejected_or_consistent(midgame):
    # Random 1-3 byte corruptions: either a clear ValueError, or a state that passes its own
    # invariant check and survives a bytes round trip. (Only from_bytes and checks run here.)
    data = midgame.to_bytes()
    rng = random.Random(7)
    rejected = 0
    for _ in range(600):
        bad = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            bad[rng.randrange(len(bad))] = rng.randrange(256)
        try:
            env = GameEnv.from_bytes(bytes(bad))
        except ValueError:
            rejected += 1
            continue
        env.check_invariants()
        assert GameEnv.from_bytes(env.to_bytes()) == env
    assert rejected > 0


def _corrupt_one_field(a: GameEnv, b: GameEnv, old: int, new: int, value: int, hits_expected: int = 1) -> bytes:
    """Bytes of `a` with the byte that holds a field's value changed to `value`; the byte is found
    by diffing two states that differ only in that field (old in a, new in b). For a 2-byte
    field (hits_expected=2) the last matching byte - the high byte, little-endian - is changed."""
    x, y = a.to_bytes(), b.to_bytes()
    assert len(x) == len(y)
    hits = [i for i in range(len(x)) if x[i] != y[i] and x[i] == old & 0xFF and y[i] == new & 0xFF]
    assert len(hits) == hits_expected, hits
    bad = bytearray(x)
    bad[hits[-1]] = value
    return bytes(bad)


def _field_cases():
    def base(tribes=(0, 1), mode="capitals", capital=True):
        env = GameEnv.blank(8, tribes, mode=mode)
        env.set_terrain((4, 4), "shallow_water")
        env.place_city(0, (1, 1), capital=capital)
        env.place_city(1, (6, 6), capital=True)
        return env

    def edited(fn, **kw):
        env = base(**kw)
        fn(env)
        return env

    return [
        pytest.param(lambda: (base(), edited(lambda e: e.set_terrain((3, 3), "shallow_water")), 0, 1), id="terrain"),
        pytest.param(lambda: (edited(lambda e: e.place_unit(0, "warrior", (2, 2))),
                              edited(lambda e: e.place_unit(0, "rider", (2, 2))), 0, 1), id="unit_type"),
        pytest.param(lambda: (base(), base(mode="score"), 0, 1), id="mode"),
        pytest.param(lambda: (base(), edited(lambda e: e.set_resource((3, 3), "fish")), -1, 0), id="resource"),
        pytest.param(lambda: (base(), edited(lambda e: e.set_building((1, 2), "farm")), -1, 0), id="building"),
        pytest.param(lambda: (edited(lambda e: e.place_unit(0, "warrior", (2, 2), status="fresh")),
                              edited(lambda e: e.place_unit(0, "warrior", (2, 2), status="moved")), 0, 1),
                     id="unit_status"),
        pytest.param(lambda: (edited(lambda e: e.place_unit(0, "boat", (4, 4), carried="warrior")),
                              edited(lambda e: e.place_unit(0, "boat", (4, 4), carried="rider")), 0, 1),
                     id="boat_carried_type"),
        pytest.param(lambda: (base((0, 1)), base((2, 1)), 0, 2), id="tribe"),
        # Player.capital_city (int16): city index 0 in `a`, -1 (no capital) in `b`; the high byte is corrupted.
        pytest.param(lambda: (base(), base(capital=False), 0, -1, 2), id="capital_city"),
    ]


@pytest.mark.parametrize("make", _field_cases())
@pytest.mark.parametrize("value", [0x40, 0x7F, 0x80], ids=hex)
def test_from_bytes_rejects_out_of_range_fields(make, value):
    a, b, old, new, *hits = make()
    with pytest.raises(ValueError, match="inconsistent|mode"):
        GameEnv.from_bytes(_corrupt_one_field(a, b, old, new, value, *hits))


# ---------------------------------------------------------------------------------------------- play methods

def test_bad_playout_reset_observe_arguments(midgame):
    env = midgame
    assert_rejected(env, env.playout, policy="greedy", match="policy")
    assert_rejected(env, env.playout, max_actions=-1, match="max_actions")
    assert_rejected(env, env.playout, seed=-1, match="seed")
    assert_rejected(env, env.playout, seed=2 ** 64, match="seed")
    assert_rejected(env, env.reset, seed=-1, match="seed")
    assert_rejected(env, env.reset, seed=1.5, match="seed")
    assert_rejected(env, env.observe, max_actions=0, match="max_actions")
    for p in (-1, 2, 17):
        assert_rejected(env, env.observe, player=p, exc=(ValueError, IndexError))
        assert_rejected(env, env.player, p, exc=(ValueError, IndexError))
        assert_rejected(env, env.income, p, exc=(ValueError, IndexError))
    for t in (-1, 121, (11, 0), (0, -1), "x"):
        assert_rejected(env, env.tile, t)
        assert_rejected(env, env.unit_at, t)
        assert_rejected(env, env.city_at, t)
    assert_rejected(env, env.tech_cost, 0, "alchemy", match="tech")


# ---------------------------------------------------------------------------------------------- scenario edits

EDIT_CASES = [
    # (method, args, kwargs, match)
    ("set_terrain", (-1, "plain"), {}, "outside"),
    ("set_terrain", (64, "plain"), {}, "outside"),
    ("set_terrain", ((8, 0), "plain"), {}, "outside"),
    ("set_terrain", ((0, 0, 0), "plain"), {}, "pair"),
    ("set_terrain", ("a", "plain"), {}, "tile"),
    ("set_terrain", (0, "lava"), {}, "terrain"),
    ("set_terrain", (0, 7), {}, "terrain"),
    ("set_terrain", (0, None), {}, "terrain"),
    ("set_terrain", (0, "city"), {}, "place_city"),
    ("set_terrain", ((1, 1), "plain"), {}, "city"),                 # a city tile
    ("set_terrain", ((2, 2), "shallow_water"), {}, "cannot stand"),  # the warrior would be on water
    ("set_resource", (-1, "fish"), {}, "outside"),
    ("set_resource", (0, "gold"), {}, "resource"),
    ("set_resource", (0, 4), {}, "resource"),                        # key 4 is unused
    ("set_resource", (0, 8), {}, "resource"),
    ("set_resource", (0, ""), {}, "resource"),
    ("set_resource", ((1, 1), "fruit"), {}, "city"),
    ("place_unit", (2, "warrior", 0), {}, "player"),
    ("place_unit", (-1, "warrior", 0), {}, "player"),
    ("place_unit", (0, "dragon", 0), {}, "unit type"),
    ("place_unit", (0, 12, 0), {}, "unit type"),
    ("place_unit", (0, "warrior", 64), {}, "outside"),
    ("place_unit", (0, "warrior", (2, 2)), {}, "already holds a unit"),
    ("place_unit", (0, "warrior", (4, 4)), {}, "water"),
    ("place_unit", (0, "boat", 0), {}, "water"),
    ("place_unit", (0, "boat", (4, 4)), dict(carried="ship"), "land unit"),
    ("place_unit", (0, "warrior", 0), dict(hp=0), "hp"),
    ("place_unit", (0, "warrior", 0), dict(hp=11), "hp"),
    ("place_unit", (0, "warrior", 0), dict(kills=-1), "kills"),
    ("place_unit", (0, "warrior", 0), dict(kills=256), "kills"),
    ("place_unit", (0, "warrior", 0), dict(status="sleeping"), "status"),
    ("place_unit", (0, "giant", 0), dict(veteran=True), "veteran"),
    ("place_city", (2, 0), {}, "player"),
    ("place_city", (0, -1), {}, "outside"),
    ("place_city", (0, (1, 1)), {}, "already holds a city"),
    ("place_city", (0, (4, 4)), {}, "water"),
    ("place_city", (0, (6, 5)), {}, "territory"),
    ("place_city", (0, 0), dict(level=0), "level"),
    ("place_city", (0, 0), dict(level=101), "level"),
    ("place_city", (0, 0), dict(population=-2), "population"),
    ("place_city", (0, 0), dict(population=1001), "population"),
    ("set_building", ((1, 2), "castle"), {}, "building"),
    ("set_building", ((1, 2), 19), {}, "building"),
    ("set_building", ((1, 2), -1), {}, "building"),
    ("set_building", (-1, "farm"), {}, "outside"),
    ("set_building", ((4, 4), "farm"), {}, "cannot stand"),
    ("set_building", ((1, 2), "port"), {}, "cannot stand"),
    ("set_building", ((1, 2), "mine"), {}, "cannot stand"),
    ("set_building", ((3, 4), "farm"), {}, "territory"),             # no city owns (3,4)
    ("set_road", (-1,), {}, "outside"),
    ("set_road", ((4, 4),), {}, "roads go on"),
    ("set_road", ((1, 1),), {}, "roads go on"),
    ("grant_tech", (2, "climbing"), {}, "player"),
    ("grant_tech", (0, "alchemy"), {}, "tech"),
    ("grant_tech", (0, 24), {}, "tech"),
    ("grant_tech", (0, None), {}, "tech"),
    ("set_stars", (2, 5), {}, "player"),
    ("set_stars", (-1, 5), {}, "player"),
    ("set_stars", (0, -1), {}, "negative"),
    ("reveal", (2,), {}, "player"),
    ("reveal", (0, [64]), {}, "outside"),
    ("reveal", (0, [0, 5, -1]), {}, "outside"),                      # all validated before any change
    ("reveal", (0, [(8, 8)]), {}, "outside"),
    ("set_current_player", (2,), {}, "player"),
    ("set_current_player", (-1,), {}, "player"),
    ("remove_unit", (0,), {}, "no unit"),
    ("remove_unit", (-1,), {}, "outside"),
    ("remove_unit", ((0, 8),), {}, "outside"),
]


@pytest.mark.parametrize("method,args,kwargs,match", EDIT_CASES,
                         ids=[f"{m}{a}{k or ''}" for m, a, k, _ in EDIT_CASES])
def test_edit_rejected_and_nothing_changed(scenario, method, args, kwargs, match):
    assert_rejected(scenario, getattr(scenario, method), *args, match=match, **kwargs)
    scenario.check_invariants()


def test_reveal_rejected_on_a_fog_game():
    env = GameEnv(seed=2, map_size=8)
    assert not env.full_observability
    explored = [env.tile(t)["explored"][0] for t in range(env.num_tiles)]
    assert not all(explored)
    assert_rejected(env, env.reveal, 0, [1, 2, 3, 999], match="outside")
    assert [env.tile(t)["explored"][0] for t in range(env.num_tiles)] == explored


def test_edit_rejected_after_game_over():
    env = GameEnv(seed=4, map_size=8)
    env.playout(seed=4)
    assert env.game_over
    assert_rejected(env, env.set_current_player, 0, match="over")


def _bad_edit(method, args, kwargs, reason):
    """A rejected edit; `reason` says what a too-lenient layer would do with it."""
    return pytest.param(method, args, kwargs, id=f"{method}{args}{kwargs or ''}")


@pytest.mark.parametrize("method,args,kwargs", [
    _bad_edit("place_unit", (0, "warrior", 0), dict(hp=-5), "a negative hp is taken as 'full hp' (the None sentinel)"),
    _bad_edit("place_unit", (0, "warrior", 0), dict(hp=1.5), "hp is converted with int(): 1.5 -> 1"),
    _bad_edit("set_stars", (0, 1.5), {}, "stars are converted with int(): 1.5 -> 1"),
    _bad_edit("set_stars", (0, "5"), {}, "stars are converted with int(): '5' -> 5"),
    _bad_edit("set_stars", (0, 2 ** 31), {}, "pybind11 TypeError instead of ValueError"),
    _bad_edit("place_city", (0, 0), dict(level=2 ** 40), "pybind11 TypeError instead of ValueError"),
    _bad_edit("reveal", (0, 5), {}, "TypeError ('int' object is not iterable)"),
    _bad_edit("set_current_player", (None,), {}, "TypeError from int(None)"),
])
def test_edit_argument_type_gaps(scenario, method, args, kwargs):
    assert_rejected(scenario, getattr(scenario, method), *args, **kwargs)


def test_update_id_mask_rejects_bad_ids_and_changes_nothing():
    """The native mask helper of TribesVectorEnv range-checks every id before writing."""
    from polyenv import _core

    mask = np.zeros((2, 10), np.int8)
    ids = np.array([[0, 3, -1], [9, -1, -1]], np.int32)
    counts = np.array([2, 1], np.int32)
    marked, marked_count = np.empty((2, 3), np.int32), np.zeros(2, np.int32)
    _core.update_id_mask(mask, ids, counts, marked, marked_count)
    assert np.array_equal(np.argwhere(mask), [[0, 0], [0, 3], [1, 9]])
    _core.update_id_mask(mask, np.array([[5, 0, 0], [1, 0, 0]], np.int32), np.array([1, 1], np.int32),
                         marked, marked_count)
    assert np.array_equal(np.argwhere(mask), [[0, 5], [1, 1]])  # the previous ids were cleared
    before = (mask.copy(), marked.copy(), marked_count.copy())
    for bad_ids, bad_counts in [(np.array([[10, 0, 0], [1, 0, 0]], np.int32), np.array([1, 1], np.int32)),
                                (ids, np.array([4, 1], np.int32)), (ids, np.array([2, -1], np.int32))]:
        with pytest.raises(ValueError):
            _core.update_id_mask(mask, bad_ids, bad_counts, marked, marked_count)
    with pytest.raises(ValueError, match="dtype"):
        _core.update_id_mask(mask.astype(np.int16), ids, counts, marked, marked_count)
    with pytest.raises(ValueError, match="contiguous"):
        _core.update_id_mask(np.zeros((2, 20), np.int8)[:, ::2], ids, counts, marked, marked_count)
    for a, b in zip(before, (mask, marked, marked_count)):
        np.testing.assert_array_equal(a, b)
