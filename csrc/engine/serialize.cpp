// One versioned binary format for to_bytes, pickle, deepcopy and replays.
// Structs have no padding bytes (state.hpp asserts it), so vectors are
// written raw; the header is written field by field. Version 4 holds
// actions_applied in 64 bits; version 3 (32 bits) is still read. Version 5
// adds Unit::home_order (in bytes that were zero padding before): older states
// get their cities' unit lists in id order, the order the engine used then.
#include <cstring>
#include <string>

#include "mechanics.hpp"

namespace polyenv {

namespace {

constexpr uint32_t kMagic = 0x31594C50;  // "PLY1"
constexpr uint32_t kVersion = 5;
constexpr uint32_t kOldestVersion = 3;  // actions_applied in 32 bits

struct Writer {
  std::string out;
  template <class T> void put(const T& v) { out.append(reinterpret_cast<const char*>(&v), sizeof(T)); }
  template <class T> void put_vector(const std::vector<T>& v) {
    put(uint32_t(v.size()));
    out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
};

struct Reader {
  std::string_view in;
  size_t pos = 0;
  void need(size_t n) {
    if (in.size() - pos < n) throw InvalidArgument("state bytes are truncated");
  }
  template <class T> T get() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, in.data() + pos, sizeof(T));
    pos += sizeof(T);
    return v;
  }
  template <class T> void get_vector(std::vector<T>& v, size_t max_size) {
    uint32_t n = get<uint32_t>();
    if (n > max_size) throw InvalidArgument("state bytes hold an impossible array size");
    need(size_t(n) * sizeof(T));
    v.resize(n);
    if (n > 0) std::memcpy(v.data(), in.data() + pos, size_t(n) * sizeof(T));
    pos += size_t(n) * sizeof(T);
  }
};

// Versions before 5: every unit's home_order is 0; list each city's units by id.
void order_unit_lists_by_id(GameState& s) {
  for (Unit& u : s.units) {
    if (!u.alive() || u.home_city < 0) continue;
    int before = 0;
    for (const Unit& other : s.units) before += other.alive() && other.home_city == u.home_city && other.uid < u.uid;
    u.home_order = uint16_t(before);
  }
}

}  // namespace

std::string serialize(const GameState& s) {
  Writer w;
  w.put(kMagic); w.put(kVersion);
  w.put(s.map_size); w.put(s.num_players); w.put(s.mode); w.put(s.full_observability); w.put(s.auto_end_turn);
  w.put(s.turn_limit); w.put(s.num_tiles);
  w.put(s.tick); w.put(s.turns_played); w.put(s.current_player); w.put(s.game_over); w.put(s.winner);
  w.put(s.pending_city); w.put(s.next_uid); w.put(s.actions_applied); w.put(s.road_links);
  w.put(s.rng.state); w.put(s.rng.inc);
  w.put_vector(s.tiles); w.put_vector(s.units); w.put_vector(s.cities); w.put_vector(s.players);
  w.put_vector(s.explored);
  w.put_vector(s.unit_alias);
  return std::move(w.out);
}

void deserialize(GameState& out, std::string_view bytes) {
  Reader r{bytes};
  if (r.get<uint32_t>() != kMagic) throw InvalidArgument("not a polyenv game state");
  const uint32_t version = r.get<uint32_t>();
  if (version < kOldestVersion || version > kVersion) {
    throw InvalidArgument("state format version " + std::to_string(version) + " is not supported (expected " +
                          std::to_string(kOldestVersion) + " to " + std::to_string(kVersion) + ")");
  }
  GameState s;
  s.map_size = r.get<int8_t>(); s.num_players = r.get<int8_t>(); s.mode = r.get<int8_t>();
  s.full_observability = r.get<uint8_t>(); s.auto_end_turn = r.get<uint8_t>();
  s.turn_limit = r.get<int16_t>(); s.num_tiles = r.get<int16_t>();
  s.tick = r.get<int32_t>(); s.turns_played = r.get<int32_t>(); s.current_player = r.get<int8_t>();
  s.game_over = r.get<int8_t>(); s.winner = r.get<int8_t>(); s.pending_city = r.get<int16_t>();
  s.next_uid = r.get<int32_t>();
  s.actions_applied = version >= 4 ? r.get<int64_t>() : r.get<int32_t>();
  s.road_links = r.get<int32_t>();
  s.rng.state = r.get<uint64_t>(); s.rng.inc = r.get<uint64_t>();
  if (s.map_size < kMinMapSize || s.map_size > kMaxMapSize || s.num_tiles != s.map_size * s.map_size ||
      s.num_players < 1 || s.num_players > kMaxPlayers) {
    throw InvalidArgument("state bytes hold an invalid board size or player count");
  }
  const size_t tiles = size_t(s.num_tiles);
  r.get_vector(s.tiles, tiles);
  r.get_vector(s.units, tiles);
  r.get_vector(s.cities, tiles);
  r.get_vector(s.players, kMaxPlayers);
  r.get_vector(s.explored, size_t(s.num_players) * s.explored_words());
  r.get_vector(s.unit_alias, tiles * size_t(s.num_players));
  if (r.pos != bytes.size()) throw InvalidArgument("state bytes have trailing data");
  if (version < 5) order_unit_lists_by_id(s);
  s.units.reserve(tiles);
  s.unit_alias.reserve(tiles * size_t(s.num_players));
  s.cities.reserve(tiles);
  rebuild_tile_bits(s);
  if (std::string problem = check_invariants(s); !problem.empty()) {
    throw InvalidArgument("state bytes are inconsistent: " + problem);
  }
  if (std::string problem = check_loadable_counters(s); !problem.empty()) {
    throw InvalidArgument("state bytes hold a counter too close to its limit: " + problem);
  }
  touch_territory(s);
  out = std::move(s);
}

}  // namespace polyenv
