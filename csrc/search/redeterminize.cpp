// redeterminize.cpp — Redeterminizer (redeterminize.hpp): replay, token merge
// and rebuild of the next actor's own world. Columns are named in
// encode/layout.hpp (meanings in encode/map_tokens.cpp).
#include "redeterminize.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include "../encode/encode.hpp"
#include "../encode/layout.hpp"

namespace polyenv {

namespace {

constexpr int F = kMapTokenFeatures;
constexpr int32_t kSelf = 1;  // relative owner code of the observer itself
// The unit columns (kColUnitOwner..kColUnitHomeCityTile) of a tile without a unit: the owner
// and the flags 0, the others -1 (as the token writer leaves them).
constexpr int kUnitCols = kColUnitHomeCityTile - kColUnitOwner + 1;
constexpr std::array<int32_t, kUnitCols> kNoUnitCols = [] {
  std::array<int32_t, kUnitCols> c{};
  for (int col : {kColUnitType, kColUnitHp, kColUnitMaxHp, kColUnitStatus, kColUnitKills, kColUnitCarriedType,
                  kColObservedUnitId, kColUnitHomeCityTile}) {
    c[size_t(col - kColUnitOwner)] = -1;
  }
  return c;
}();
static_assert(kColUnitOwner < kColUnitFlags && kColUnitFlags < kColUnitHomeCityTile);

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t x = a ^ (b * 0x9E3779B97F4A7C15ull);
  return splitmix64(x);
}

// Per-thread scratch (a tree is searched by one thread at a time).
struct Scratch {
  GameState world, built;
  PlayerKnowledge know;
  std::vector<int32_t> own_tokens, sim_tokens, tokens;
};

// Every tile of `s` as `observer` would see it with nothing fogged (column 0
// rewritten by the caller); crops/ore/whales follow `techs` (the observer's own).
void encode_unfogged(GameState& s, int observer, uint32_t techs, int32_t* out) {
  const uint8_t full = s.full_observability;
  const uint32_t own = s.players[size_t(observer)].techs;
  s.full_observability = 1;
  s.players[size_t(observer)].techs = techs;
  encode_map_tokens(s, observer, out);
  s.full_observability = full;
  s.players[size_t(observer)].techs = own;
}

// Replays q's own actions and every turn transition of `path` in `w`. False
// when w cannot reach the child's turn with q to move.
bool replay(const SearchTree& tree, const LeafPath& path, const GameState& child, int q, GameState& w,
            RedeterminizeStats& stats) {
  const size_t m = path.edges.size();
  const ActionSpace space = action_space(w);
  const int32_t end_turn = space.end_turn();
  for (size_t i = 0; i < m; ++i) {
    const int32_t a = tree.edge_action(path.edges[i]);
    const int actor = tree.node_actor(path.nodes[i]);
    if (actor == q && a != end_turn && w.current_player == q && !w.game_over) {
      if (is_legal(w, a)) {
        apply_action(w, a);
      } else {
        stats.skipped_actions++;
      }
    } else if (actor != q && a >= space.block_offset(kBlockSendStars) && a < space.block_offset(kBlockBuildRoad)) {
      // Stars another player sends q are q's knowledge and no tile shows them: credit them.
      const Action send = space.decode(a);
      if ((actor + send.arg) % w.num_players == q) credit_stars(w, q, send.amount);
    }
    // Turn transitions are public: follow the simulated world's turn count.
    const GameState& after = i + 1 < m ? tree.node_state(path.nodes[i + 1]) : child;
    while (!w.game_over && w.turns_played < after.turns_played) {
      if (!is_legal(w, end_turn)) return false;  // e.g. a level-up reward is pending in w only
      apply_action(w, end_turn);
    }
  }
  return !w.game_over && w.current_player == q && w.turns_played == child.turns_played && w.tick == child.tick;
}

bool is_city_of(const int32_t* row, int32_t owner_code) {
  return row[kColCityOwner] != 0 && row[kColCityOwner] == owner_code;
}

// The merged tokens of q: tiles seen by q and by the simulated world's owner
// `a` in `sim` from sim, others from w; column 0 is q's new explored mask.
// Then the fix-ups that keep rows from two worlds consistent.
void merge_tokens(GameState& w, GameState& sim, int q, int a, Scratch& sc) {
  const int n = sim.num_tiles;
  const uint32_t techs = w.players[size_t(q)].techs;
  encode_unfogged(w, q, techs, sc.own_tokens.data());
  encode_unfogged(sim, q, techs, sc.sim_tokens.data());
  int32_t* out = sc.tokens.data();
  for (int t = 0; t < n; ++t) {
    const bool grounded = sim.explored_by(q, t) && sim.explored_by(a, t);
    const int32_t* own = &sc.own_tokens[size_t(t) * F];
    int32_t* o = out + size_t(t) * F;
    std::copy_n(grounded ? &sc.sim_tokens[size_t(t) * F] : own, F, o);
    o[kColExplored] = (sim.explored_by(q, t) || w.explored_by(q, t)) ? 1 : 0;
    if (grounded && o[kColUnitOwner] == kSelf) {
      // q's own unit as the simulated world shows it: kills and home from q's own records.
      const bool same = own[kColUnitOwner] == kSelf && own[kColUnitType] == o[kColUnitType];
      o[kColUnitKills] = same ? own[kColUnitKills] : 0;
      o[kColUnitHomeCityTile] = same ? own[kColUnitHomeCityTile] : -1;
    }
  }
  for (int t = 0; t < n; ++t) {
    int32_t* o = out + size_t(t) * F;
    // Units of players eliminated in the simulation leave q's hypothesis too.
    if (o[kColUnitOwner] != 0 && !sim.players[size_t((q + o[kColUnitOwner] - 1) % sim.num_players)].alive) {
      std::copy_n(kNoUnitCols.begin(), kUnitCols, o + kColUnitOwner);
    }
    const int32_t home = o[kColUnitHomeCityTile];
    if (o[kColUnitOwner] == kSelf && home >= 0 && !is_city_of(out + size_t(home) * F, kSelf)) {
      o[kColUnitHomeCityTile] = -1;
    }
    // Territory whose centre now holds no city of that owner: attach it to the
    // owner's nearest city (column 7 = -1), or drop it when the owner has none.
    const int32_t owner = o[kColTerritoryOwner];
    if (owner == 0) continue;
    const int32_t ct = o[kColTerritoryCityTile];
    if (ct >= 0 && ct < n && is_city_of(out + size_t(ct) * F, owner)) continue;
    o[kColTerritoryCityTile] = -1;
    bool any = false;
    for (int c = 0; c < n && !any; ++c) any = is_city_of(out + size_t(c) * F, owner);
    if (!any) o[kColTerritoryOwner] = 0;
  }
}

// q's knowledge for the rebuilt world: its own records from w (the replay),
// public facts and every explored mask from the simulation (united with w's).
void merged_knowledge(const GameState& w, const GameState& sim, int q, const int32_t* tokens, PlayerKnowledge& k) {
  extract_knowledge(w, q, k);
  const int P = sim.num_players, n = sim.num_tiles;
  for (int p = 0; p < P; ++p) {
    Player& dst = k.public_players[size_t(p)];
    const Player& src = sim.players[size_t(p)];
    // Public facts (results, meetings, diplomacy) as simulated; they must stay symmetric.
    dst.result = src.result;
    dst.alive = src.alive;
    dst.met = src.met;
    dst.allegiance = src.allegiance;
    dst.declared_war_this_turn = src.declared_war_this_turn;
    if (p == q) dst.units_sighted = std::max(dst.units_sighted, src.units_sighted);
  }
  for (size_t i = 0; i < k.explored.size(); ++i) k.explored[i] |= sim.explored[i];
  const int words = sim.explored_words();
  for (int p = 0; p < P; ++p) {
    int count = 0;
    for (int i = 0; i < words; ++i) count += std::popcount(k.explored[size_t(p * words + i)]);
    k.explored_count[size_t(p)] = int16_t(count);
  }
  // q's cities: those the merged tokens show as q's, with q's own records when it has them.
  std::erase_if(k.own_cities, [&](const City& c) { return !is_city_of(tokens + size_t(c.tile) * F, kSelf); });
  for (int t = 0; t < n; ++t) {
    if (!is_city_of(tokens + size_t(t) * F, kSelf)) continue;
    if (std::any_of(k.own_cities.begin(), k.own_cities.end(), [&](const City& c) { return c.tile == t; })) continue;
    const int16_t c = sim.tiles[size_t(t)].city;
    if (c < 0 || sim.cities[size_t(c)].tile != t) continue;  // the builder names the problem
    City city = sim.cities[size_t(c)];
    city.owner = int8_t(q);
    k.own_cities.push_back(city);
  }
  if (k.own_capital_tile >= 0 && !is_city_of(tokens + size_t(k.own_capital_tile) * F, kSelf)) {
    k.own_capital_tile = -1;
  }
}

}  // namespace

uint64_t branch_hash(uint64_t salt, const SearchTree& tree, const LeafPath& path) {
  uint64_t h = mix(salt, 0x5EDE7E5ull);
  for (int32_t e : path.edges) h = mix(h, uint64_t(uint32_t(tree.edge_action(e))));
  return h;
}

int branch_particle(uint64_t branch, int player, int particles) {
  return int(mix(branch, uint64_t(player) + 1) % uint64_t(particles));
}

void Redeterminizer::set(const GameState* worlds, int players, int particles, uint64_t salt) {
  worlds_ = worlds;
  players_ = players;
  particles_ = particles;
  salt_ = salt;
  stats_ = {};
}

void Redeterminizer::on_actor_change(const SearchTree& tree, const LeafPath& path, GameState& child) {
  thread_local Scratch sc;
  const int q = child.current_player;
  const int a = tree.node_actor(path.nodes.back());  // owner of the simulated world
  const uint64_t branch = branch_hash(salt_, tree, path);
  GameState& w = sc.world;
  const GameState& own = worlds_[size_t(q) * size_t(particles_) + size_t(branch_particle(branch, q, particles_))];
  // Room for the replay without reallocation on later uses of this scratch.
  if (w.units.capacity() < child.units.capacity()) w.units.reserve(child.units.capacity());
  if (w.cities.capacity() < child.cities.capacity()) w.cities.reserve(child.cities.capacity());
  w = own;
  if (!replay(tree, path, child, q, w, stats_)) {
    stats_.fallbacks++;
    return;
  }
  const size_t cells = size_t(child.num_tiles) * F;
  sc.own_tokens.resize(cells);
  sc.sim_tokens.resize(cells);
  sc.tokens.resize(cells);
  merge_tokens(w, child, q, a, sc);
  merged_knowledge(w, child, q, sc.tokens.data(), sc.know);
  const std::string problem = world_from_tokens(sc.know, sc.tokens.data(), mix(branch, 0xB1D5EEDull + uint64_t(q)), sc.built);
  if (!problem.empty() || sc.built.current_player != child.current_player) {
    stats_.fallbacks++;
    return;
  }
  child = sc.built;
  stats_.rebuilt++;
}

}  // namespace polyenv
