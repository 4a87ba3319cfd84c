// belief_fit.cpp — fit_to_legal_actions (belief_fit.hpp).
#include "belief_fit.hpp"

#include <algorithm>
#include <cstring>

#include "../encode/layout.hpp"

namespace polyenv {

namespace {

constexpr int F = kMapTokenFeatures;
// Bounds the work on a hypothesis that cannot be fitted (each trial builds a world).
constexpr int kMaxTrials = 4096;

// The candidate terrains and resources of a hidden tile of the observer's own territory.
constexpr int8_t kTileTerrains[] = {kPlain, kForest, kMountain, kShallow, kDeep};
constexpr int8_t kTileResources[] = {kNoResource, kFish, kFruit, kAnimal, kWhales, kOre, kCrops};

struct Score {
  bool built = false;
  int extra = 0, missing = 0;  // ids only in the hypothesis / only in the live list
  bool keeps_shared = false;   // every live id the reference world had is still legal
  int total() const { return extra + missing; }
};

struct Fitter {
  const PlayerKnowledge& k;
  const int32_t* live;
  int n;
  BeliefFitScratch& sc;
  int tiles, trials = 0;
  ActionSpace space;

  Fitter(const PlayerKnowledge& know, const int32_t* ids, int count, BeliefFitScratch& scratch)
      : k(know), live(ids), n(count), sc(scratch), tiles(know.header.num_tiles),
        space(action_space(know.header)) {
    sc.ids.resize(size_t(space.size()));
  }

  bool is_live(int32_t id) const { return std::binary_search(live, live + n, id); }

  // Builds `tokens` and compares its legal list with the live one; `missing_before` (sorted) are
  // the live ids the reference lacked: any other missing id means a shared action was lost.
  Score score(const int32_t* tokens, const std::vector<int32_t>* missing_before) {
    ++trials;
    Score s;
    if (!world_from_tokens(k, tokens, 0, sc.world).empty()) return s;
    s.built = true;
    s.keeps_shared = true;
    const int m = legal_actions(sc.world, sc.ids.data(), int(sc.ids.size()));
    int i = 0, j = 0;
    while (i < n || j < m) {
      if (j >= m || (i < n && live[i] < sc.ids[size_t(j)])) {
        ++s.missing;
        if (missing_before && !std::binary_search(missing_before->begin(), missing_before->end(), live[i])) {
          s.keeps_shared = false;
        }
        ++i;
      } else if (i >= n || sc.ids[size_t(j)] < live[i]) {
        ++s.extra, ++j;
      } else {
        ++i, ++j;
      }
    }
    return s;
  }

  // The legal ids of the world of `tokens` (which builds), and the live ids it lacks.
  void differences(const int32_t* tokens, std::vector<int32_t>& ids, std::vector<int32_t>& missing) {
    world_from_tokens(k, tokens, 0, sc.world);
    ids.assign(sc.ids.begin(), sc.ids.begin() + legal_actions(sc.world, sc.ids.data(), int(sc.ids.size())));
    missing.clear();
    std::set_difference(live, live + n, ids.begin(), ids.end(), std::back_inserter(missing));
  }

  int32_t* row(int32_t* tokens, int t) const { return tokens + size_t(t) * F; }
  bool hidden(const int32_t* tokens, int t) const { return tokens[size_t(t) * F + kColExplored] == 0; }

  // The owner code of another tribe's stand-in unit on hidden row `o`: the city's or else the
  // territory's owner when that is a living opponent, else the first living opponent in turn order
  // (0: none).
  int32_t stand_in_owner(const int32_t* o) const {
    const int P = k.header.num_players, me = k.observer;
    auto alive = [&](int32_t code) { return code >= 2 && code <= P && k.public_players[size_t((me + code - 1) % P)].alive; };
    if (o[kColCityOwner] != 0) return alive(o[kColCityOwner]) ? o[kColCityOwner] : 0;
    if (alive(o[kColTerritoryOwner])) return o[kColTerritoryOwner];
    for (int32_t code = 2; code <= P; ++code) {
      if (alive(code)) return code;
    }
    return 0;
  }

  // A Warrior of another tribe (a Boat carrying one on water) on hidden tile t.
  bool put_unit(int32_t* tokens, int t) const {
    int32_t* o = row(tokens, t);
    const int32_t owner = stand_in_owner(o);
    if (owner == 0) return false;
    const bool water = is_water(o[kColTerrain]);
    const int hp = kUnits[kWarrior].max_hp;  // a boat has its passenger's hit points
    o[kColUnitOwner] = owner;
    o[kColUnitType] = water ? kBoat : kWarrior;
    o[kColUnitHp] = o[kColUnitMaxHp] = hp;
    o[kColUnitStatus] = kFinished;
    o[kColUnitFlags] = 0;
    o[kColUnitKills] = -1;
    o[kColUnitCarriedType] = water ? kWarrior : -1;
    o[kColObservedUnitId] = -1;
    o[kColUnitHomeCityTile] = -1;
    return true;
  }

  // Hidden tile t as part of own city `centre`'s territory with this terrain, resource and building.
  static void own_tile(int32_t* o, int centre, int terrain, int resource, int building) {
    o[kColTerrain] = terrain;
    o[kColResource] = resource;
    o[kColBuilding] = building;
    o[kColBuildingLevel] = is_temple(building) ? 1 : 0;
    o[kColRoad] = 0;
    o[kColTerritoryOwner] = 1;
    o[kColTerritoryCityTile] = centre;
  }

  // Every candidate change of `cur` (whose world lists `ids` and lacks the live `missing`), each
  // passed to try_one(tokens); stops when try_one returns false.
  template <class Try>
  void candidates(const int32_t* cur, const std::vector<int32_t>& ids, const std::vector<int32_t>& missing,
                  Try&& try_one) {
    sc.trial.assign(cur, cur + size_t(tiles) * F);
    auto reset_row = [&](int t) { std::memcpy(row(sc.trial.data(), t), cur + size_t(t) * F, sizeof(int32_t) * F); };
    std::vector<uint8_t> tried(size_t(tiles), 0);
    // Zone of control: near a unit with a move only the hypothesis has, on hidden tiles next to
    // visible ones (a unit's path never leaves the tiles its owner has explored).
    for (const int32_t id : ids) {
      if (is_live(id)) continue;
      const Action a = space.decode(id);
      if (a.block != kBlockMove) continue;
      int reach = 0;
      for (const int32_t other : ids) {
        const Action b = space.decode(other);
        if (b.block == kBlockMove && b.source == a.source) reach = std::max(reach, k.header.distance(a.source, b.target));
      }
      for (int t = 0; t < tiles; ++t) {
        const int32_t* o = cur + size_t(t) * F;
        if (tried[size_t(t)] || !hidden(cur, t) || o[kColUnitOwner] != 0) continue;
        if (k.header.distance(a.source, t) > reach + 1) continue;
        bool next_to_visible = false;
        for_each_neighbour(k.header, t, [&](int nb) { next_to_visible = next_to_visible || !hidden(cur, nb); });
        if (!next_to_visible) continue;
        tried[size_t(t)] = 1;
        if (put_unit(sc.trial.data(), t) && !try_one(sc.trial.data())) return;
        reset_row(t);
      }
    }
    // Own territory: hidden tiles the live list builds on or acts on.
    std::fill(tried.begin(), tried.end(), 0);
    for (const int32_t id : missing) {
      const Action a = space.decode(id);
      if ((a.block != kBlockBuild && a.block != kBlockTileAction) || !hidden(cur, a.target) || tried[size_t(a.target)]) {
        continue;
      }
      const int t = a.target;
      tried[size_t(t)] = 1;
      if (cur[size_t(t) * F + kColCityOwner] != 0) continue;
      // Destroy needs a building there; a tile with one has no other build.
      bool destroy = false;
      for (const int32_t other : missing) {
        const Action b = space.decode(other);
        destroy = destroy || (b.block == kBlockTileAction && b.target == t && b.arg == kDestroy);
      }
      for (const City& c : k.own_cities) {
        if (k.header.distance(t, c.tile) > c.bound) continue;
        for (const int terrain : kTileTerrains) {
          for (const int resource : kTileResources) {
            for (int building = destroy ? 0 : kNoBuilding; building < (destroy ? kFirstMonument : kNoBuilding + 1);
                 ++building) {
              if (building != kNoBuilding && !(kBuildings[size_t(building)].terrain_mask & (1u << terrain))) continue;
              own_tile(row(sc.trial.data(), t), c.tile, terrain, resource, building);
              if (!try_one(sc.trial.data())) return;
            }
          }
        }
      }
      reset_row(t);
    }
    // A building on a hidden neighbour: the base building a listed bonus building needs next to it
    // (a Sawmill next to a Lumber Hut, §9.2; any owner's counts).
    std::fill(tried.begin(), tried.end(), 0);
    for (const int32_t id : missing) {
      const Action a = space.decode(id);
      if (a.block != kBlockBuild || kBuildings[size_t(a.arg)].adjacent_to < 0) continue;
      const int base = kBuildings[size_t(a.arg)].adjacent_to;
      bool stop = false;
      for_each_neighbour(k.header, a.target, [&](int t) {
        if (stop || tried[size_t(t)] || !hidden(cur, t) || cur[size_t(t) * F + kColCityOwner] != 0) return;
        tried[size_t(t)] = 1;
        int32_t* o = row(sc.trial.data(), t);
        for (const int terrain : kTileTerrains) {
          o[kColTerrain] = terrain;
          o[kColResource] = kNoResource;
          o[kColBuilding] = base;
          o[kColBuildingLevel] = is_temple(base) ? 1 : 0;
          if (!try_one(sc.trial.data())) {
            stop = true;
            return;
          }
        }
        reset_row(t);
      });
      if (stop) return;
    }
    // One of a kind per city: the hypothesis lists a building its city already has on a hidden tile.
    std::fill(tried.begin(), tried.end(), 0);
    for (const int32_t id : ids) {
      const Action a = space.decode(id);
      if (a.block != kBlockBuild || !kBuildings[size_t(a.arg)].one_per_city || is_live(id)) continue;
      const int32_t centre = cur[size_t(a.target) * F + kColTerritoryCityTile];
      for (const City& c : k.own_cities) {
        if (c.tile != centre) continue;
        for (int t = 0; t < tiles; ++t) {
          if (tried[size_t(t)] || !hidden(cur, t) || cur[size_t(t) * F + kColCityOwner] != 0 ||
              k.header.distance(t, c.tile) > c.bound) {
            continue;
          }
          tried[size_t(t)] = 1;
          for (const int terrain : kTileTerrains) {
            if (!(kBuildings[size_t(a.arg)].terrain_mask & (1u << terrain))) continue;
            own_tile(row(sc.trial.data(), t), c.tile, terrain, kNoResource, a.arg);
            if (!try_one(sc.trial.data())) return;
          }
          reset_row(t);
        }
      }
    }
    // No territory on hidden tiles where only the hypothesis acts.
    std::fill(tried.begin(), tried.end(), 0);
    for (const int32_t id : ids) {
      const Action a = space.decode(id);
      if ((a.block != kBlockBuild && a.block != kBlockTileAction) || is_live(id) || !hidden(cur, a.target) ||
          tried[size_t(a.target)] || cur[size_t(a.target) * F + kColTerritoryOwner] != 1 ||
          cur[size_t(a.target) * F + kColCityOwner] != 0) {
        continue;
      }
      tried[size_t(a.target)] = 1;
      int32_t* o = row(sc.trial.data(), a.target);
      o[kColTerritoryOwner] = 0;
      o[kColTerritoryCityTile] = -1;
      if (!try_one(sc.trial.data())) return;
      reset_row(a.target);
    }
  }
};

}  // namespace

BeliefFit fit_to_legal_actions(const PlayerKnowledge& k, int32_t* tokens, const int32_t* live, int n,
                               BeliefFitScratch& sc) {
  BeliefFit fit;
  Fitter f(k, live, n, sc);
  const size_t size = size_t(f.tiles) * F;
  Score current = f.score(tokens, nullptr);
  if (!current.built) return fit;
  fit.exact = current.total() == 0;
  if (fit.exact) return fit;  // the common case: one build, nothing to add
  const std::vector<int32_t> original(tokens, tokens + size);
  std::vector<int32_t> ids, missing;
  // Greedy: the candidate leaving the fewest differences, never one that loses a shared action.
  while (current.total() > 0 && f.trials < kMaxTrials) {
    f.differences(tokens, ids, missing);
    Score best;
    sc.best.clear();
    f.candidates(tokens, ids, missing, [&](const int32_t* trial) {
      const Score s = f.score(trial, &missing);
      if (s.built && s.keeps_shared && s.total() < current.total() && (sc.best.empty() || s.total() < best.total())) {
        best = s;
        sc.best.assign(trial, trial + size);
      }
      return (sc.best.empty() || best.total() > 0) && f.trials < kMaxTrials;  // an exact fit ends the search
    });
    if (sc.best.empty()) break;
    std::copy(sc.best.begin(), sc.best.end(), tokens);
    current = best;
  }
  for (int t = 0; t < f.tiles; ++t) {
    fit.stand_ins += std::memcmp(tokens + size_t(t) * F, original.data() + size_t(t) * F, sizeof(int32_t) * F) != 0;
  }
  fit.exact = current.total() == 0;
  return fit;
}

}  // namespace polyenv
