"""``from_bytes`` validates what it loads (issue 10): every range and invariant
is checked on load, a bad state is rejected with ValueError, and random byte
flips of real states never crash the loader or the games it accepts."""
import struct

import numpy as np
import pytest

from polyenv import GameEnv

# Layout of the version-5 state bytes (csrc/engine/serialize.cpp): a 62-byte header, then
# vectors (uint32 count + raw structs) of tiles (12 bytes), units (20), cities (24), players (68).
HEADER, TILE, UNIT, CITY, PLAYER = 62, 12, 20, 24, 68
NEXT_UID = 30


def sections(data):
    """Offsets of the first element of each vector: tiles, units, cities, players."""
    out, pos = {}, HEADER
    for name, size in (("tiles", TILE), ("units", UNIT), ("cities", CITY), ("players", PLAYER)):
        (count,) = struct.unpack_from("<I", data, pos)
        out[name] = (pos + 4, count)
        pos += 4 + count * size
    return out


def game_bytes():
    g = GameEnv(seed=1, map_size=10)
    g.playout(max_actions=60, seed=1)
    return g, bytearray(g.to_bytes())



def corrupt(edit, match=None):
    g, data = game_bytes()
    edit(data, sections(data), g)
    with pytest.raises(ValueError, match=match):
        GameEnv.from_bytes(bytes(data))


def test_city_centre_must_be_city_terrain():
    def edit(data, sec, g):
        start, _ = sec["cities"]
        (tile,) = struct.unpack_from("<h", data, start + 8)
        data[sec["tiles"][0] + tile * TILE] = 0  # plain
    corrupt(edit)


def test_territory_must_lie_within_its_city_bound():
    def edit(data, sec, g):
        tiles, count = sec["tiles"]
        start, _ = sec["cities"]
        (centre,) = struct.unpack_from("<h", data, start + 8)
        bound = struct.unpack_from("<b", data, start + 16)[0]
        n = g.map_size
        far = next(t for t in range(count) if max(abs(t // n - centre // n), abs(t % n - centre % n)) > bound
                   and struct.unpack_from("<h", data, tiles + t * TILE + 8)[0] == -1 and data[tiles + t * TILE] != 5)
        struct.pack_into("<h", data, tiles + far * TILE + 8, 0)  # claimed by city 0 from beyond its bound
    corrupt(edit, match="beyond its city's bound")


def test_negative_next_uid():
    corrupt(lambda data, sec, g: struct.pack_into("<i", data, NEXT_UID, -5))


def test_population_32767():
    corrupt(lambda data, sec, g: struct.pack_into("<h", data, sec["cities"][0] + 10, 32767))


def test_stars_2_31_minus_1():
    corrupt(lambda data, sec, g: struct.pack_into("<i", data, sec["players"][0] + 4, 2**31 - 1))


def test_negative_home_city_index():
    def edit(data, sec, g):
        start, count = sec["units"]
        assert count > 0
        struct.pack_into("<h", data, start + 14, -7)
    corrupt(edit)


def homed_units(data, sec):
    """(offset, uid, home_city, home_order) of every unit a city supports."""
    start, count = sec["units"]
    out = []
    for i in range(count):
        off = start + i * UNIT
        uid, home, order = struct.unpack_from("<i", data, off)[0], *struct.unpack_from("<h", data, off + 14), \
            struct.unpack_from("<H", data, off + 18)[0]
        if uid != 0 and home >= 0:
            out.append((off, uid, home, order))
    return out


def test_a_city_unit_list_with_a_repeated_place_is_refused():
    def edit(data, sec, g):
        units = homed_units(data, sec)
        first, second = next((a, b) for a in units for b in units if a[2] == b[2] and a[1] != b[1])
        struct.pack_into("<H", data, second[0] + 18, first[3])
    corrupt(edit, match="unit list order")


def test_version_4_bytes_list_each_citys_units_by_id():
    # Version 4 had zero padding where version 5 keeps Unit::home_order; such states load with each
    # city's units listed in id order (the order the engine used before version 5).
    g = GameEnv(seed=3, map_size=10)
    g.playout(max_actions=400, seed=3)
    data = bytearray(g.to_bytes())
    sec = sections(data)
    units = homed_units(data, sec)
    assert len(units) >= 2
    struct.pack_into("<I", data, 4, 4)
    for off, *_ in units:
        struct.pack_into("<H", data, off + 18, 0)
    old = GameEnv.from_bytes(bytes(data))
    reloaded = homed_units(bytearray(old.to_bytes()), sec)
    for (_, uid, home, order) in reloaded:
        assert order == sum(1 for (_, u, h, _) in reloaded if h == home and u < uid)


def test_unknown_tech_bits():
    corrupt(lambda data, sec, g: struct.pack_into("<I", data, sec["players"][0] + 12, 0xFFFFFFFF))


def test_random_byte_flips_never_crash():
    rng = np.random.default_rng(10)
    bases = []
    for s in range(3):
        g = GameEnv(seed=s, map_size=8 + s, players=("bardur", "imperius", "oumaji")[: 2 + s % 2])
        g.playout(max_actions=int(rng.integers(20, 300)), seed=s)
        bases.append(g.to_bytes())
    accepted = 0
    for i in range(1500):
        b = bytearray(bases[i % len(bases)])
        for _ in range(int(rng.integers(1, 4))):
            b[int(rng.integers(8, len(b)))] = int(rng.integers(256))
        try:
            g = GameEnv.from_bytes(bytes(b))
        except ValueError:
            continue
        accepted += 1
        g.check_invariants()
        for p in range(g.num_players):
            g.observe(p, include_combat_preview=True)
        g.render("text", player=0)
        if not g.game_over:
            g.playout(max_actions=30, seed=i)
            g.check_invariants()
        assert GameEnv.from_bytes(g.to_bytes()) == g
    assert accepted > 0


def test_round_trip_is_exact():
    g, data = game_bytes()
    assert GameEnv.from_bytes(bytes(data)) == g


def test_event_journal_kept_by_copies_not_by_state_bytes():
    """Decision (README, GameEnv section): to_bytes/from_bytes carry the game state only, so a
    restored game starts an empty journal; pickle, copy.deepcopy and clone() copy the whole object,
    journal included."""
    import copy
    import pickle

    g = GameEnv(seed=4, map_size=8)
    g.playout(max_actions=40, seed=4)
    journals = [g.visible_events_numpy(0, player=p) for p in range(g.num_players)]
    assert journals[0][1] > 0
    for other in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g), g.clone()):
        for p, (events, cursor) in enumerate(journals):
            got, got_cursor = other.visible_events_numpy(0, player=p)
            assert got_cursor == cursor
            for k in events:
                assert np.array_equal(got[k], events[k]), k
        # The copies go on independently and numbering continues.
        other.playout(max_actions=5, seed=1)
        seq = other.visible_events_numpy(0, player=0)[0]["sequence"]
        assert seq.tolist() == list(range(1, len(seq) + 1))
    restored = GameEnv.from_bytes(g.to_bytes())
    assert restored == g
    assert all(restored.visible_events_numpy(0, player=p)[1] == 0 for p in range(g.num_players))


def test_bad_journal_bytes_are_rejected_and_change_nothing():
    g = GameEnv(seed=4, map_size=8)
    g.playout(max_actions=40, seed=4)
    data = g._game.journal_bytes()
    before = g.visible_events_numpy(0, player=0)[1]
    for bad in (data[:-1], data + b"\0", b"\xff\xff\xff\x7f" + data[4:]):
        with pytest.raises(ValueError):
            g._game.load_journal(bad)
    assert g.visible_events_numpy(0, player=0)[1] == before
