// observer_world.cpp — the baseline-belief world of one player (observer_world.hpp).
#include "observer_world.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "../encode/encode.hpp"
#include "../encode/layout.hpp"

namespace polyenv {

namespace {

constexpr int kCols = kMapTokenFeatures;

int32_t* row(int32_t* tokens, int tile) { return tokens + size_t(tile) * kCols; }

int chebyshev(int a, int b, int n) { return std::max(std::abs(a / n - b / n), std::abs(a % n - b % n)); }

// An empty hidden tile: deep water, nothing on it; -1 ("none") in every column but the
// counts, owners and flags, which are 0.
void empty_hidden_row(int32_t* r) {
  std::fill(r, r + kCols, -1);
  for (int c : {kColExplored, kColBuildingLevel, kColRoad, kColTerritoryOwner, kColCityOwner, kColCityFlags,
                kColUnitOwner, kColUnitFlags}) {
    r[c] = 0;
  }
  r[kColTerrain] = kDeep;
}

// A level-1 city of relative owner `owner` on `tile`, centre of its own territory.
void put_city(int32_t* r, int tile, int owner) {
  r[kColTerrain] = kCity;
  r[kColTerritoryOwner] = owner;
  r[kColTerritoryCityTile] = tile;
  r[kColCityOwner] = owner;
  r[kColCityLevel] = 1;
}

bool owns_a_city(const int32_t* tokens, int tiles, int owner) {
  for (int t = 0; t < tiles; ++t) {
    if (tokens[size_t(t) * kCols + kColCityOwner] == owner) return true;
  }
  return false;
}

// A visible territory whose centre the observer never saw (centre -1) needs a city of its
// owner: when there is none, one goes on the hidden tile nearest to the territory's first
// tile (first in tile order on a tie). Owners in ascending order.
void guess_unseen_centres(int32_t* tokens, int n, const std::vector<uint8_t>& hidden) {
  const int tiles = n * n;
  for (int owner = 1; owner <= kMaxPlayers; ++owner) {
    int first = -1;
    for (int t = 0; t < tiles && first < 0; ++t) {
      const int32_t* r = row(tokens, t);
      if (!hidden[size_t(t)] && r[kColTerritoryOwner] == owner && r[kColTerritoryCityTile] == -1) first = t;
    }
    if (first < 0 || owns_a_city(tokens, tiles, owner)) continue;
    int best = -1, best_d = std::numeric_limits<int>::max();
    for (int t = 0; t < tiles; ++t) {
      if (!hidden[size_t(t)] || row(tokens, t)[kColCityOwner] != 0) continue;
      const int d = chebyshev(first, t, n);
      if (d < best_d) best = t, best_d = d;
    }
    if (best >= 0) put_city(row(tokens, best), best, owner);
  }
}

// Every opponent (relative owners 2..players) needs its capital: its first hidden guessed
// city becomes one, or else a level-1 capital goes on the free hidden tile farthest from
// every visible or city tile (first in tile order on a tie), if that is at least 2 away, so
// no move of the observer can lead there.
void guess_capitals(int32_t* tokens, int n, int players, const std::vector<uint8_t>& hidden) {
  const int tiles = n * n;
  if (std::all_of(hidden.begin(), hidden.begin() + tiles, [](uint8_t h) { return h != 0; })) return;
  for (int owner = 2; owner <= players; ++owner) {
    int guessed = -1;
    bool has_capital = false;
    for (int t = 0; t < tiles; ++t) {
      const int32_t* r = row(tokens, t);
      if (r[kColCityOwner] != owner) continue;
      has_capital |= (r[kColCityFlags] & kTokCapital) != 0;
      if (hidden[size_t(t)] && guessed < 0) guessed = t;
    }
    if (has_capital) continue;
    if (guessed >= 0) {
      row(tokens, guessed)[kColCityFlags] |= kTokCapital;
      continue;
    }
    int best = -1, best_score = -1;
    for (int t = 0; t < tiles; ++t) {
      const int32_t* r = row(tokens, t);
      if (!hidden[size_t(t)] || r[kColCityOwner] != 0 || r[kColTerritoryOwner] != 0 || r[kColUnitOwner] != 0) continue;
      int score = std::numeric_limits<int>::max();
      for (int u = 0; u < tiles; ++u) {
        if (!hidden[size_t(u)] || row(tokens, u)[kColCityOwner] != 0) score = std::min(score, chebyshev(t, u, n));
      }
      if (score > best_score) best = t, best_score = score;
    }
    if (best < 0 || best_score < 2) continue;
    int32_t* r = row(tokens, best);
    put_city(r, best, owner);
    r[kColResource] = -1;
    r[kColBuilding] = -1;
    r[kColCityFlags] = kTokCapital;
  }
}

}  // namespace

void complete_hidden_rows(int32_t* tokens, int map_size, int players, std::vector<uint8_t>& hidden) {
  const int tiles = map_size * map_size;
  hidden.assign(size_t(tiles), 0);
  for (int t = 0; t < tiles; ++t) {
    int32_t* r = row(tokens, t);
    if (r[kColExplored] == 0) {
      hidden[size_t(t)] = 1;
      empty_hidden_row(r);
    }
  }
  // A visible territory whose centre is hidden: that centre holds the owner's level-1 city.
  for (int t = 0; t < tiles; ++t) {
    const int32_t* r = row(tokens, t);
    const int centre = r[kColTerritoryCityTile];
    if (hidden[size_t(t)] || centre < 0 || centre >= tiles || !hidden[size_t(centre)]) continue;
    put_city(row(tokens, centre), centre, r[kColTerritoryOwner]);
  }
  guess_unseen_centres(tokens, map_size, hidden);
  guess_capitals(tokens, map_size, players, hidden);
}

bool observer_world(const GameState& live, uint64_t seed, ObserverWorldScratch& sc, GameState& out) {
  if (live.game_over) return false;
  const int observer = live.current_player, tiles = live.num_tiles;
  sc.tokens.resize(size_t(tiles) * kCols);
  encode_map_tokens(live, observer, sc.tokens.data());
  complete_hidden_rows(sc.tokens.data(), live.map_size, live.num_players, sc.hidden);
  extract_knowledge(live, observer, sc.know);
  if (sc.live_ids.size() < 1024) sc.live_ids.resize(1024);
  int n = legal_actions(live, sc.live_ids.data(), int(sc.live_ids.size()));
  if (n > int(sc.live_ids.size())) {
    sc.live_ids.resize(size_t(n));
    n = legal_actions(live, sc.live_ids.data(), n);
  }
  if (!fit_to_legal_actions(sc.know, sc.tokens.data(), sc.live_ids.data(), n, sc.fit).exact) return false;
  return world_from_tokens(sc.know, sc.tokens.data(), seed, out).empty();
}

}  // namespace polyenv
