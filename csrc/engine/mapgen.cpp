// mapgen.cpp — the level generator of RULES.md §1.4 (Tribes' LevelGenerator,
// itself a port of QuasiStellar's Polytopia generator). Each numbered step of
// §1.4 is one member function of Generator below. The algorithm is Tribes'; the
// random stream is polyenv's own (Rng, seeded from `seed` only).
//
// Deliberate differences from Tribes (which fails or misbehaves here):
//  * too few plain cells for the capitals (or only cells next to a capital):
//    other cells of the candidate square are used; such a capital gets its
//    deep-water neighbours turned into plain, so it is not a one-tile island;
//  * capitals end up pairwise >= 2 apart whenever the candidate square allows;
//  * ruins are placed on distinct cells (Tribes may draw a cell twice), so
//    there are always round(N^2/40) of them when enough candidates exist;
//  * the Imperius/Bardur fix-up never overwrites a city, a village or the
//    cells another capital's fix-up counted.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "game.hpp"

namespace polyenv {
namespace {

// The §1.4 parameters (smoothing, land, capital margin and spacing, ruins, ...) are in rules.hpp.
constexpr uint64_t kMapgenStream = 0x6d617067656eull;  // "mapgen": not the game's stream

// §1.4 step 7 marks.
constexpr int8_t kMarkBlocked = -1, kMarkFree = 0, kMarkBorder = 1, kMarkTerritory = 2, kMarkSite = 3;

int java_round(double v) { return int(std::floor(v + 0.5)); }  // Math.round, v >= 0

class Generator {
 public:
  Generator(int n, const std::vector<int8_t>& tribes, uint64_t seed)
      : n_(n), tribes_(tribes), terrain_(size_t(n * n), kDeep), resource_(size_t(n * n), kNoResource),
        owner_(size_t(n * n), -1), mark_(size_t(n * n), kMarkFree) {
    rng_.seed(seed, kMapgenStream);
  }

  Level run() {
    random_land();         // step 1
    smooth();              // step 2
    place_capitals();      // step 3
    grow_territories();    // step 4
    forests_mountains();   // step 5
    init_marks();          // step 7 marks use the terrain before step 6 (as Tribes)
    flood_coasts();        // step 6
    place_villages();      // step 7
    place_resources();     // step 8
    place_ruins();         // step 9
    fix_up_capitals();     // step 10
    Level level;
    level.size = n_;
    level.terrain = terrain_;
    level.resource = resource_;
    for (size_t i = 0; i < capitals_.size(); ++i) {
      level.capital_tiles.push_back(int16_t(capitals_[i]));
      level.capital_tribes.push_back(tribes_[i]);
    }
    return level;
  }

 private:
  int n_;
  const std::vector<int8_t>& tribes_;
  Rng rng_;
  std::vector<int8_t> terrain_, resource_;
  std::vector<int8_t> owner_;  // §1.4 step 4: tribe key of the territory, -1 none
  std::vector<int8_t> mark_;   // §1.4 step 7 village marks
  std::vector<int> capitals_;  // placement (turn) order
  std::vector<uint8_t> kept_;  // §1.4 step 10 cells kept for a capital

  int cells() const { return n_ * n_; }
  int row(int c) const { return c / n_; }
  int col(int c) const { return c % n_; }
  int cheb(int a, int b) const { return std::max(std::abs(row(a) - row(b)), std::abs(col(a) - col(b))); }
  bool is_land(int c) const {
    return terrain_[c] == kPlain || terrain_[c] == kForest || terrain_[c] == kMountain;
  }
  // Calls f(cell) for every board cell at Chebyshev distance exactly r of c, in row-major
  // order: the first and last rows whole, the rows between at both ends.
  template <class F>
  void for_ring(int c, int r, F&& f) const {
    const int cx = row(c), cy = col(c);
    const int y0 = std::max(cy - r, 0), y1 = std::min(cy + r, n_ - 1);
    for (int x = std::max(cx - r, 0); x <= std::min(cx + r, n_ - 1); ++x) {
      if (x == cx - r || x == cx + r) {
        for (int y = y0; y <= y1; ++y) f(x * n_ + y);
      } else {
        if (cy - r >= 0) f(x * n_ + cy - r);
        if (cy + r < n_) f(x * n_ + cy + r);
      }
    }
  }
  // 4-neighbours in Tribes' order: left, right, up, down.
  template <class F>
  void for_cross(int c, F&& f) const {
    if (col(c) > 0) f(c - 1);
    if (col(c) < n_ - 1) f(c + 1);
    if (row(c) > 0) f(c - n_);
    if (row(c) < n_ - 1) f(c + n_);
  }
  double multiplier(int key, int cell) const {
    return owner_[cell] < 0 ? 1.0 : kGenMultiplier[key][owner_[cell]];
  }
  double prob(int key, int cell) const { return kGenBase[key] * multiplier(key, cell); }
  int pick(const std::vector<int>& v) { return v[rng_.below(uint32_t(v.size()))]; }

  // Step 1: random deep cells become plain until ceil(N^2 * kMapgenInitialLand) are land.
  void random_land() {
    const int target = int(std::ceil(cells() * kMapgenInitialLand));
    for (int land = 0; land < target;) {
      int c = int(rng_.below(uint32_t(cells())));
      if (terrain_[c] == kDeep) { terrain_[c] = kPlain; ++land; }
    }
  }

  // Step 2: a cell is land if at most half of its (clipped) 3x3 block is water.
  // [quirk 11] the to-ground list is never cleared, so land only grows.
  void smooth() {
    std::vector<uint8_t> to_ground(size_t(cells()), 0);
    for (int pass = 0; pass < kMapgenSmoothingPasses; ++pass) {
      for (int c = 0; c < cells(); ++c) {
        int water = terrain_[c] == kDeep, total = 1;
        for_ring(c, 1, [&](int m) { water += terrain_[m] == kDeep; ++total; });
        if (water / double(total) <= kMapgenLandCoefficient) to_ground[c] = 1;
      }
      for (int c = 0; c < cells(); ++c) terrain_[c] = to_ground[c] ? kPlain : kDeep;
    }
  }

  // Step 3: each tribe in turn picks uniformly among the candidate cells whose
  // distance to the nearest placed capital (N when none) is largest.
  void place_capitals() {
    const int lo = kCapitalMargin, hi = n_ - 1 - kCapitalMargin;
    const int side = hi - lo + 1;
    const int players = int(tribes_.size());
    if (side <= 0 || side * side < players)
      throw InvalidArgument("map_size " + std::to_string(n_) + " is too small for " + std::to_string(players) +
                            " players (capitals need " + std::to_string(players) +
                            " cells with row and column in [" + std::to_string(kCapitalMargin) + ", N-" +
                            std::to_string(kCapitalMargin + 1) + "])");
    std::vector<int> square;
    for (int x = lo; x <= hi; ++x)
      for (int y = lo; y <= hi; ++y) square.push_back(x * n_ + y);

    // The greedy pick can pack capitals badly; retry a few times, then fall
    // back to a lattice of cells 2 apart, when a spaced layout exists.
    const int half = (side + 1) / 2;
    const bool spacing_possible = players <= half * half;
    constexpr int kAttempts = 16;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
      capitals_ = greedy_capitals(square, /*any_terrain=*/false);
      if (!spacing_possible || min_capital_spacing() >= kCapitalSpacing) break;
    }
    if (spacing_possible && min_capital_spacing() < kCapitalSpacing) {
      std::vector<int> lattice;
      for (int c : square)
        if ((row(c) - lo) % 2 == 0 && (col(c) - lo) % 2 == 0) lattice.push_back(c);
      capitals_ = greedy_capitals(lattice, /*any_terrain=*/true);
    }

    for (int c : capitals_) {
      // A capital on a non-plain cell (extension) gets land around it, so the
      // tribe is not stranded on a one-tile island.
      if (terrain_[c] != kPlain)
        for_ring(c, 1, [&](int m) { if (terrain_[m] == kDeep) terrain_[m] = kPlain; });
      terrain_[c] = kCity;
    }
  }

  // Max-min placement over `cand`. Plain cells are preferred (Tribes); any
  // cell is taken when no plain cell is available or a non-plain one avoids
  // placing a capital next to another. `any_terrain` allows all cells.
  std::vector<int> greedy_capitals(const std::vector<int>& cand, bool any_terrain) {
    std::vector<int> placed;
    std::vector<int> dist(cand.size());
    std::vector<int> best;
    for (size_t t = 0; t < tribes_.size(); ++t) {
      int best_plain = -1, best_any = -1;
      for (size_t i = 0; i < cand.size(); ++i) {
        int d = n_;
        for (int p : placed) d = std::min(d, cheb(cand[i], p));
        dist[i] = d;
        if (d == 0) continue;  // already a capital
        best_any = std::max(best_any, d);
        if (terrain_[cand[i]] == kPlain) best_plain = std::max(best_plain, d);
      }
      const bool plain_only = !any_terrain && (best_plain >= kCapitalSpacing || best_plain == best_any);
      const int target = plain_only ? best_plain : best_any;
      best.clear();
      for (size_t i = 0; i < cand.size(); ++i)
        if (dist[i] == target && (!plain_only || terrain_[cand[i]] == kPlain)) best.push_back(cand[i]);
      placed.push_back(pick(best));
    }
    return placed;
  }

  int min_capital_spacing() const {
    int m = n_;
    for (size_t i = 0; i < capitals_.size(); ++i)
      for (size_t j = i + 1; j < capitals_.size(); ++j) m = std::min(m, cheb(capitals_[i], capitals_[j]));
    return m;
  }

  // Step 4: round-robin flood fill from the capitals. Each turn a tribe picks
  // one of its active cells and claims a free 8-neighbour, land first; cells
  // with no free neighbour are deactivated.
  void grow_territories() {
    std::vector<uint8_t> done(size_t(cells()), 0);
    std::vector<std::vector<int>> active(capitals_.size());
    int done_count = 0;
    for (size_t i = 0; i < capitals_.size(); ++i) {
      done[capitals_[i]] = 1;
      owner_[capitals_[i]] = tribes_[i];
      active[i].push_back(capitals_[i]);
      ++done_count;
    }
    std::vector<int> land, any;
    while (done_count < cells()) {
      for (size_t i = 0; i < capitals_.size(); ++i) {
        if (active[i].empty()) continue;
        const size_t k = rng_.below(uint32_t(active[i].size()));
        land.clear();
        any.clear();
        for_ring(active[i][k], 1, [&](int m) {
          if (done[m]) return;
          any.push_back(m);
          if (terrain_[m] != kDeep) land.push_back(m);
        });
        const std::vector<int>& free = land.empty() ? any : land;
        if (free.empty()) {
          active[i].erase(active[i].begin() + std::ptrdiff_t(k));
          continue;
        }
        const int m = pick(free);
        owner_[m] = tribes_[i];
        done[m] = 1;
        ++done_count;
        active[i].push_back(m);
      }
    }
  }

  // Step 5: u < 0.4 f(tribe) -> forest; else u > 1 - 0.15 m(tribe) -> mountain.
  void forests_mountains() {
    for (int c = 0; c < cells(); ++c) {
      if (terrain_[c] != kPlain) continue;
      const double u = rng_.uniform();
      if (u < prob(kGenForest, c)) terrain_[c] = kForest;
      else if (u > 1.0 - prob(kGenMountain, c)) terrain_[c] = kMountain;
    }
  }

  // Step 7 (first half): deep water, mountains and the map edge are blocked.
  // Tribes computes these marks before step 6 floods the coasts, so a flooded
  // cell keeps its land mark (a flooded mountain stays blocked).
  void init_marks() {
    for (int c = 0; c < cells(); ++c) {
      const bool edge = row(c) == 0 || col(c) == 0 || row(c) == n_ - 1 || col(c) == n_ - 1;
      mark_[c] = (terrain_[c] == kDeep || terrain_[c] == kMountain || edge) ? kMarkBlocked : kMarkFree;
    }
  }

  // Step 6 [quirk 11]: each deep cell turns its first land 4-neighbour into
  // shallow water (the original generator converted the ocean cell instead).
  void flood_coasts() {
    for (int c = 0; c < cells(); ++c) {
      if (terrain_[c] != kDeep) continue;
      bool flooded = false;
      for_cross(c, [&](int m) {
        if (!flooded && is_land(m)) { terrain_[m] = kShallow; flooded = true; }
      });
    }
  }

  void mark_site(int c) {
    mark_[c] = kMarkSite;
    for_ring(c, 1, [&](int m) { mark_[m] = std::max(mark_[m], kMarkTerritory); });
    for_ring(c, 2, [&](int m) { mark_[m] = std::max(mark_[m], kMarkBorder); });
  }

  // Step 7: capitals are sites; then the lowest-index free cell becomes a site
  // until none is left. Sites on plain or forest become villages.
  void place_villages() {
    for (int c : capitals_) mark_site(c);
    for (int c = 0; c < cells(); ++c)
      if (mark_[c] == kMarkFree) mark_site(c);  // marks only grow, so one scan suffices
    for (int c = 0; c < cells(); ++c)
      if (mark_[c] == kMarkSite && (terrain_[c] == kPlain || terrain_[c] == kForest)) {
        terrain_[c] = kVillage;
        resource_[c] = kNoResource;
      }
  }

  // Tribes' proc(): probability p on mark 2, p/3 on mark 1, never elsewhere
  // (no draw is made for other marks).
  bool proc(int c, double p) {
    if (mark_[c] == kMarkTerritory) return rng_.uniform() < p;
    if (mark_[c] == kMarkBorder) return rng_.uniform() < p * kResourceBorderFactor;
    return false;
  }

  // Step 8: resources by terrain on marked cells.
  void place_resources() {
    for (int c = 0; c < cells(); ++c) {
      switch (terrain_[c]) {
        case kPlain: {
          const double fruit = prob(kGenFruit, c), crops = prob(kGenCrops, c);
          if (proc(c, fruit * (1 - crops / 2))) resource_[c] = kFruit;
          else if (proc(c, crops * (1 - fruit / 2))) resource_[c] = kCrops;
          break;
        }
        case kForest: if (proc(c, prob(kGenAnimal, c))) resource_[c] = kAnimal; break;
        case kShallow: if (proc(c, prob(kGenFish, c))) resource_[c] = kFish; break;
        case kDeep: if (proc(c, prob(kGenWhales, c))) resource_[c] = kWhales; break;
        case kMountain: if (proc(c, prob(kGenOre, c))) resource_[c] = kOre; break;
        default: break;
      }
    }
  }

  // Step 9: round(N^2/40) ruins on non-shallow cells marked -1, 0 or 1, at
  // most round(count/3) of them on deep water. [quirk 11] Tribes' spacing code
  // does nothing, so none here either. A ruin replaces any resource.
  void place_ruins() {
    const int wanted = java_round(cells() * kRuinsPerTile);
    const int max_water = java_round(wanted / double(kWaterRuinsDivisor));
    std::vector<int> cand;
    for (int c = 0; c < cells(); ++c)
      if (mark_[c] <= kMarkBorder && terrain_[c] != kShallow) cand.push_back(c);
    int placed = 0, water = 0;
    while (placed < wanted && !cand.empty()) {
      const size_t k = rng_.below(uint32_t(cand.size()));
      const int c = cand[k];
      cand[k] = cand.back();  // each cell at most once
      cand.pop_back();
      if (terrain_[c] == kDeep) {
        if (water >= max_water) continue;
        ++water;
      }
      resource_[c] = kRuins;
      ++placed;
    }
  }

  // Step 10: Imperius gets >= 2 plain+fruit, Bardur >= 2 forest+animal around
  // the capital; deep water 4-next to a rewritten cell becomes shallow.
  void fix_up_capitals() {
    kept_.assign(size_t(cells()), 0);
    for (size_t i = 0; i < capitals_.size(); ++i) {
      if (tribes_[i] == kImperius) fix_up(capitals_[i], kPlain, kFruit);
      else if (tribes_[i] == kBardur) fix_up(capitals_[i], kForest, kAnimal);
    }
  }

  // Tribes rewrites a random ring cell until the count is reached; cells that
  // already hold the resource change nothing, so only the others are drawn.
  // Cells counted or written for one capital are kept for it: a neighbouring
  // capital's fix-up does not overwrite them.
  void fix_up(int capital, int8_t terrain, int8_t resource) {
    std::vector<int> ring;
    int have = 0;
    for_ring(capital, 1, [&](int m) {
      if (resource_[m] == resource) { ++have; kept_[m] = 1; }
      else if (terrain_[m] != kCity && terrain_[m] != kVillage && !kept_[m]) ring.push_back(m);
    });
    while (have < kCapitalFixupResources && !ring.empty()) {
      const size_t k = rng_.below(uint32_t(ring.size()));
      const int m = ring[k];
      ring.erase(ring.begin() + std::ptrdiff_t(k));
      terrain_[m] = terrain;
      resource_[m] = resource;
      kept_[m] = 1;
      ++have;
      for_cross(m, [&](int w) { if (terrain_[w] == kDeep) terrain_[w] = kShallow; });
    }
  }
};

}  // namespace

Level generate_level(int map_size, const std::vector<int8_t>& tribes, uint64_t seed) {
  if (map_size < kMinMapSize || map_size > kMaxMapSize)
    throw InvalidArgument("map_size " + std::to_string(map_size) + " is outside [" + std::to_string(kMinMapSize) +
                          ", " + std::to_string(kMaxMapSize) + "]");
  check_player_count(int(tribes.size()));
  for (int8_t t : tribes)
    if (t < 0 || t >= kNumTribes)
      throw InvalidArgument("tribe key " + std::to_string(int(t)) + " is outside [0, " +
                            std::to_string(kNumTribes - 1) + "]");
  return Generator(map_size, tribes, seed).run();
}

}  // namespace polyenv
