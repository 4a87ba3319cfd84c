"""Every counter of a loaded state is bounded so that the rest of the game can never overflow it.

For each counter a state holding its type's maximum is rejected by ``from_bytes`` with an error
naming the field, and a state holding the largest value accepted plays to its end with the
invariants checked after every action (csrc/engine/counter_limits.hpp derives each bound from the
turn limit and the map capacity; under the ASan/UBSan stage an overflow would stop the run).
"""
import struct

import numpy as np
import pytest

from polyenv import GameEnv, _core
from polyenv._core import _testing

PLAYER, TILE, UNIT, CITY = 68, 12, 20, 24
INT16, INT32, INT64 = 2**15 - 1, 2**31 - 1, 2**63 - 1
# Header fields of the state bytes (csrc/engine/serialize.cpp): name -> (struct format, offset).
# Version 4 widened actions_applied to 64 bits (version 3: int32, a 58-byte header).
HEADER = {"turn_limit": ("<h", 13), "tick": ("<i", 17), "turns_played": ("<i", 21), "current_player": ("<b", 25),
          "next_uid": ("<i", 30)}
# Player fields: name -> (format, offset in the 68-byte Player record).
PLAYER_FIELDS = {"kills": ("<h", 20), "pacifist_turns": ("<h", 26), "stars_sent_this_turn": ("<h", 28),
                 "wars_declared": ("<h", 30), "stars_sent": ("<i", 32), "units_sighted": ("<i", 44),
                 "declared_war_this_turn": ("<B", 3)}
STARS_PER_TURN = 30 + 14 - 1  # a send is legal while fewer than 30 were sent this turn, at most 14 at once


def layout(data):
    version = struct.unpack_from("<I", data, 4)[0]
    actions = ("<q", 34) if version >= 4 else ("<i", 34)
    header = 62 if version >= 4 else 58
    out, pos = {}, header
    for name, size in (("tiles", TILE), ("units", UNIT), ("cities", CITY), ("players", PLAYER)):
        (count,) = struct.unpack_from("<I", data, pos)
        out[name] = pos + 4
        pos += 4 + count * size
    return actions, out


def get(data, field, player=None):
    actions, sec = layout(data)
    if field == "actions_applied":
        return struct.unpack_from(actions[0], data, actions[1])[0]
    if player is None:
        fmt, off = HEADER[field]
        return struct.unpack_from(fmt, data, off)[0]
    fmt, off = PLAYER_FIELDS[field]
    return struct.unpack_from(fmt, data, sec["players"] + player * PLAYER + off)[0]


def put(data, field, value, player=None):
    actions, sec = layout(data)
    if field == "actions_applied":
        struct.pack_into(actions[0], data, actions[1], value)
    elif field == "temple_turns":
        struct.pack_into("<b", data, sec["tiles"] + player * TILE + 4, value)  # `player`: the tile here
    elif player is None:
        fmt, off = HEADER[field]
        struct.pack_into(fmt, data, off, value)
    else:
        fmt, off = PLAYER_FIELDS[field]
        struct.pack_into(fmt, data, sec["players"] + player * PLAYER + off, value)


def midgame(seed=3, players=("bardur", "imperius", "oumaji")):
    g = GameEnv(seed=seed, map_size=8, players=players, max_turns=6)
    g.playout(max_actions=70, seed=seed)
    assert not g.game_over
    return g, bytearray(g.to_bytes())


# (field, player or tile (None: a header field), type maximum)
TYPE_MAXIMA = [("tick", None, INT32), ("turns_played", None, INT32), ("next_uid", None, INT32),
               ("actions_applied", None, INT64), ("units_sighted", 1, INT32), ("stars_sent", 2, INT32),
               ("wars_declared", 0, INT16), ("pacifist_turns", 1, INT16), ("temple_turns", 5, 127)]


@pytest.mark.parametrize("field,who,value", TYPE_MAXIMA, ids=[f[0] for f in TYPE_MAXIMA])
def test_a_counter_at_its_type_maximum_is_rejected_naming_the_field(field, who, value):
    g, data = midgame()
    before = bytes(data)
    if field == "actions_applied" and layout(data)[0][0] == "<i":
        value = INT32  # a version-3 state holds it in 32 bits
    put(data, field, value, who)
    with pytest.raises(ValueError, match=field):
        GameEnv.from_bytes(bytes(data))
    assert g.to_bytes() == before  # nothing changed


def largest_accepted(data, field, p):
    """The load bounds (docs/gameenv_api.md): per-round counts up to the rounds begun (tick + 1)."""
    if field in ("next_uid", "actions_applied", "units_sighted"):
        return _core.LOADABLE_COUNTER_LIMITS[field]
    rounds = get(data, "tick") + 1
    if field == "tick":
        return get(data, "turn_limit") + 1
    if field == "turns_played":
        return 3 * rounds
    if field in ("pacifist_turns", "wars_declared"):
        return rounds
    if field == "stars_sent":
        return STARS_PER_TURN * rounds
    if field == "temple_turns":
        return 2
    raise AssertionError(field)


LARGEST = [("tick", None), ("turns_played", None), ("next_uid", None), ("actions_applied", None),
           ("units_sighted", 0), ("units_sighted", 2), ("stars_sent", 0), ("stars_sent", 2),
           ("wars_declared", 0), ("wars_declared", 1), ("wars_declared", 2), ("pacifist_turns", 0),
           ("pacifist_turns", 2), ("temple_turns", 9)]


@pytest.mark.parametrize("field,who", LARGEST, ids=[f"{f}-{w}" for f, w in LARGEST])
@pytest.mark.parametrize("seed", [3, 4])
def test_the_largest_accepted_value_plays_to_the_end(field, who, seed):
    g, data = midgame(seed)
    value = largest_accepted(data, field, who)
    put(data, field, value, who)
    loaded = GameEnv.from_bytes(bytes(data))  # accepted
    put(data, field, value + 1, who)
    with pytest.raises(ValueError, match=field):
        GameEnv.from_bytes(bytes(data))
    # Random games to the end, the invariants checked after every action (raises on a violation).
    for s in range(3):
        game = loaded.clone()
        _testing.checked_playout(game._game, -1, seed * 10 + s)
        assert game.game_over
        game.check_invariants()
        if field == "actions_applied":
            assert game.actions_applied > value
        if field == "next_uid":
            uids = [game.unit_at(t)["uid"] for t in range(game.num_tiles) if game.unit_at(t)]
            assert all(u >= 1 for u in uids)


def test_kills_saturate_instead_of_wrapping():
    """A unit's kills (uint8) and a tribe's (int16) stop at their type's maximum: no count of a
    whole game is bounded below it (units can keep fighting for 10,000 rounds)."""
    env = GameEnv.blank(8, ("Bardur", "Imperius"))
    env.place_city(0, 0, capital=True)
    env.place_city(1, 63, capital=True)
    env.place_unit(0, "knight", 3 * 8 + 3, kills=255)
    env.place_unit(1, "warrior", 3 * 8 + 4, hp=1)
    data = bytearray(env.to_bytes())
    put(data, "kills", INT16, 0)
    env = GameEnv.from_bytes(bytes(data))
    env.step(env.action_id("attack", source=3 * 8 + 3, target=3 * 8 + 4))
    assert env.unit_at(3 * 8 + 3 if env.unit_at(3 * 8 + 3) else 3 * 8 + 4)["kills"] == 255
    assert env.player(0)["kills"] == INT16
    env.check_invariants()


def test_a_version_3_state_still_loads():
    g, data = midgame()
    # The same state in the previous format: a 32-bit actions_applied.
    old = bytearray(data[:4]) + struct.pack("<I", 3) + data[8:34] + struct.pack("<i", g.actions_applied) + data[42:]
    assert GameEnv.from_bytes(bytes(old)) == g


def test_limits_are_exported_and_leave_room_for_a_whole_game():
    limits = _core.LOADABLE_COUNTER_LIMITS
    assert set(limits) == {"next_uid", "units_sighted", "actions_applied"}
    assert 10**9 < limits["next_uid"] < INT32 and 10**9 < limits["units_sighted"] < limits["next_uid"]
    assert 2**62 < limits["actions_applied"] < INT64


def acquired_stamps(env):
    data = env.to_bytes()
    _, sec = layout(data)
    (count,) = struct.unpack_from("<I", data, sec["cities"] - 4)
    return [struct.unpack_from("<H", data, sec["cities"] + c * CITY + 22)[0] for c in range(count)]


def test_city_acquisition_stamps_are_renumbered_instead_of_wrapping():
    """A city's acquisition stamp (uint16: the order of a tribe's cities, RULES §8.1) grows with
    every capture; at the type's maximum the stamps are renumbered in the same order."""
    env = GameEnv.blank(8, ("Bardur", "Imperius"))
    env.place_city(0, 0, capital=True)
    env.place_city(1, 63, capital=True)
    env.place_city(1, 3 * 8 + 4)
    env.place_city(0, 6 * 8 + 1)
    env.place_unit(0, "warrior", 3 * 8 + 4)
    data = bytearray(env.to_bytes())
    _, sec = layout(data)
    for c, stamp in enumerate((65533, 65535, 2, 65534)):
        struct.pack_into("<H", data, sec["cities"] + c * CITY + 22, stamp)
    env = GameEnv.from_bytes(bytes(data))
    env.step(env.action_id("capture", source=3 * 8 + 4))
    assert env.city_at(3 * 8 + 4)["owner"] == 0
    env.check_invariants()
    # order kept (city 2 < city 0 < city 3 < city 1), the captured city last
    assert acquired_stamps(env) == [2, 4, 5, 3]
