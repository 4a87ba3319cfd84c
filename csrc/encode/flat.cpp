// flat.cpp — encode_flat (flat.hpp): the flat float32 features of one batch row,
// reading the seed-000 columns by their names in layout.hpp.
#include "flat.hpp"

#include <algorithm>
#include <cstring>

#include "layout.hpp"

namespace polyenv {

namespace {

static_assert(flat_tile::kCount == 89 && flat_state::kCount == 27 && flat_row::kCount == 42,
              "polyenv.envs.flat's FLAT_*_FEATURE_NAMES and tests/helpers/flat_reference.py have these lengths");

// Scalings of the flat format (polyenv/envs/flat.py): value / divisor, clipped. The rule-bound
// ones come from rules.hpp; the others are magnitudes chosen to keep typical values in [0, 1].
constexpr int kCityLevelScale = 10;
constexpr int kOwnCityScale = 10;  // population and production, clipped to [-1, 1]
constexpr int kStarsScale = 100, kUnitsScale = 20, kCitiesScale = 10, kIncomeScale = 50;
constexpr int kPopulationGainScale = 16, kCostScale = 20;

inline float clip(double v, double lo, double hi) { return static_cast<float>(std::min(std::max(v, lo), hi)); }
inline float clipf(float v, float lo, float hi) { return std::min(std::max(v, lo), hi); }
// A value rounded to float32, as NumPy's float32 constants are, then used in double arithmetic.
inline double as_f32(double v) { return static_cast<float>(v); }
inline double inverse(double d) { return as_f32(1.0 / d); }

// Output column of a resource code, or -1 (code 4 is unused).
inline int resource_column(int32_t code) {
  if (code < 0 || code >= kNumResourceKeys || code == 4) return -1;
  return flat_tile::kResource + code - (code > 4 ? 1 : 0);
}

void encode_tile(const int32_t* t, int tile, const FlatShape& s, float* o) {
  using namespace flat_tile;
  std::memset(o, 0, sizeof(float) * kCount);
  if (t[kColExplored] != 1) return;  // unexplored: all zeros
  auto one_hot = [&](int32_t code, int count, int first) {
    if (code >= 0 && code < count) o[first + code] = 1;
  };
  o[kExplored] = 1;
  one_hot(t[kColTerrain], kNumTerrains, kTerrain);
  if (int c = resource_column(t[kColResource]); c >= 0) o[c] = 1;
  one_hot(t[kColBuilding], kNumBuildings, kBuilding);
  // Owner columns: 0 none, 1 the observer, 2.. the others.
  o[kRoad] = t[kColRoad] == 1;
  o[kTerritoryOwn] = t[kColTerritoryOwner] == 1;
  o[kCityOwn] = t[kColCityOwner] == 1;
  o[kUnitOwn] = t[kColUnitOwner] == 1;
  one_hot(t[kColUnitType], kNumUnitTypes, kUnitType);
  one_hot(t[kColUnitStatus], kNumStatuses, kUnitStatus);
  one_hot(t[kColUnitCarriedType], kNumUnitTypes, kCarried);
  o[kTerritoryOther] = t[kColTerritoryOwner] >= 2;
  o[kCityOther] = t[kColCityOwner] >= 2;
  o[kUnitOther] = t[kColUnitOwner] >= 2;
  const int32_t city_bits[kNumCityBits] = {kTokCapital, kTokWalls, kTokWorkshop, kTokPark, kTokConnected};
  for (int k = 0; k < kNumCityBits; ++k) o[kCityBits + k] = (t[kColCityFlags] & city_bits[k]) != 0;
  o[kVeteran] = (t[kColUnitFlags] & kTokVeteran) != 0;
  const int scaled[kNumScaled][2] = {{kColBuildingLevel, kMaxTempleLevel}, {kColCityLevel, kCityLevelScale},
                                     {kColUnitHp, kMaxUnitHp}, {kColUnitMaxHp, kMaxUnitHp},
                                     {kColUnitKills, kVeteranKills}};
  for (int k = 0; k < kNumScaled; ++k) {
    o[kScaled + k] = clipf(static_cast<float>(t[scaled[k][0]]) * static_cast<float>(1.0 / scaled[k][1]), 0.f, 1.f);
  }
  if (t[kColCityOwner] == 1) {  // the observer's city: population and production
    o[kCityPopulation] = clipf(static_cast<float>(t[kColCityPopulation]) * (1.f / kOwnCityScale), -1.f, 1.f);
    o[kCityProduction] = clipf(static_cast<float>(t[kColCityProduction]) * (1.f / kOwnCityScale), -1.f, 1.f);
  }
  const double scale = inverse(std::max(s.map_size - 1, 1));
  const int x = tile / s.map_size, y = tile % s.map_size;
  const int cities[2] = {kColTerritoryCityTile, kColUnitHomeCityTile};
  for (int k = 0; k < 2; ++k) {
    const int32_t c = t[cities[k]];
    if (c >= 0) {
      o[kRelative + 2 * k] = static_cast<float>((c / s.map_size - x) * scale);
      o[kRelative + 2 * k + 1] = static_cast<float>((c % s.map_size - y) * scale);
    }
  }
}

void encode_scalars(const int32_t* st, int32_t observer, const FlatShape& s, float* o) {
  using namespace flat_state;
  std::memset(o, 0, sizeof(float) * kCount);
  const int P = s.num_players;
  o[kTurnProgress] = std::min(static_cast<float>(st[kStTurn] / as_f32(s.turn_limit + 1)), 1.f);
  o[kMyTurn] = st[kStCurrentPlayer] == observer;
  const int relative = (((st[kStCurrentPlayer] - observer) % P) + P) % P;
  o[kCurrentRelative] = static_cast<float>(relative / as_f32(std::max(P - 1, 1)));
  o[kGameOver] = st[kStGameOver] != 0;
  o[kWon] = st[kStWinner] == observer;
  o[kLost] = st[kStWinner] >= 0 && st[kStWinner] != observer;
  const int scaled[4][2] = {{kStStars, kStarsScale}, {kStOwnsUnits, kUnitsScale}, {kStOwnCities, kCitiesScale},
                            {kStIncome, kIncomeScale}};
  for (int k = 0; k < 4; ++k) o[kScaled + k] = clip(st[scaled[k][0]] * inverse(scaled[k][1]), 0, 1);
  o[kPendingLevelUp] = st[kStPendingCity] >= 0;
  if (st[kStPendingUpgradeA] >= 0 && st[kStPendingUpgradeA] < kNumRewards) o[kUpgradeA + st[kStPendingUpgradeA]] = 1;
  if (st[kStPendingUpgradeB] >= 0 && st[kStPendingUpgradeB] < kNumRewards) o[kUpgradeB + st[kStPendingUpgradeB]] = 1;
}

void encode_row(const int32_t* a, const FlatShape& s, float* o) {
  using namespace flat_row;
  std::memset(o, 0, sizeof(float) * kCount);
  const int32_t kind = a[kFType];
  if (kind >= 0 && kind < kNumActionKinds) o[kKind + kind] = 1;
  const bool player_target = kind == kDeclareWarKind || kind == kSendStarsKind;  // target_index is a player
  const double scale = inverse(std::max(s.map_size - 1, 1));
  const int tiles[3] = {kFSource, kFTarget, kFCity};
  for (int w = 0; w < 3; ++w) {
    const int32_t tile = a[tiles[w]];
    if (tile < 0 || (tiles[w] == kFTarget && player_target)) continue;
    o[kTiles + 3 * w] = static_cast<float>((tile / s.map_size) * scale);
    o[kTiles + 3 * w + 1] = static_cast<float>((tile % s.map_size) * scale);
    o[kTiles + 3 * w + 2] = 1;
  }
  if (player_target) {
    o[kTargetPlayer] = static_cast<float>(a[kFTarget] / as_f32(std::max(s.num_players - 1, 1)));
  }
  // Category arguments as (code + 1) / count: 0 means none (-1).
  const int arguments[6][2] = {{kFTech, kNumTechs},         {kFBuilding, kNumBuildings},
                               {kFSpawnType, kNumUnitTypes},  {kFUpgrade, kNumRewards},
                               {kFTileAction, kNumTileActions}, {kFUnitUpgrade, kNumUnitTypes}};
  for (int k = 0; k < 6; ++k) {
    o[kArguments + k] = static_cast<float>((a[arguments[k][0]] + 1) * inverse(arguments[k][1]));
  }
  o[kPopulationGain] = clip(a[kFPopulation] / as_f32(kPopulationGainScale), 0, 1);
  o[kCost] = clip(a[kFCost] / as_f32(kCostScale), -1, 1);
  o[kAffordable] = a[kFAffordable] != 0;
}

}  // namespace

void encode_flat(const int32_t* tokens, const int32_t* state, int32_t observer, const int32_t* action_features,
                 int32_t legal_count, const FlatShape& s, float* out) {
  const int tiles = s.tiles();
  for (int tile = 0; tile < tiles; ++tile) {
    encode_tile(tokens + tile * kMapTokenFeatures, tile, s, out + tile * flat_tile::kCount);
  }
  const int32_t pending = state[kStPendingCity];
  if (pending >= 0 && pending < tiles) out[pending * flat_tile::kCount + flat_tile::kPendingCity] = 1;
  encode_scalars(state, observer, s, out + int64_t{tiles} * flat_tile::kCount);
  float* rows = out + int64_t{tiles} * flat_tile::kCount + flat_state::kCount;
  const int valid = std::clamp(legal_count, 0, s.rows);
  for (int k = 0; k < s.rows; ++k) {
    if (k < valid) {
      encode_row(action_features + k * kActionFeatures, s, rows + k * flat_row::kCount);
    } else {
      std::memset(rows + k * flat_row::kCount, 0, sizeof(float) * flat_row::kCount);
    }
  }
}

}  // namespace polyenv
