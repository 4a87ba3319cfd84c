// flat.cpp — encode_flat (flat.hpp): the flat float32 features of one batch row,
// reading the seed-000 columns by their names in layout.hpp; and flat_*_columns, the
// name and range of every output column, written at the same offsets from the same
// tables as the encoder.
#include "flat.hpp"

#include <algorithm>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>

#include "layout.hpp"

namespace polyenv {

namespace {

static_assert(flat_tile::kCount == 89 && flat_state::kCount == 27 && flat_row::kCount == 42,
              "tests/helpers/flat_reference.py has these lengths");

// Scalings of the flat format: value / divisor, clipped. The rule-bound
// ones come from rules.hpp; the others are magnitudes chosen to keep typical values in [0, 1].
constexpr int kCityLevelScale = 10;
constexpr int kOwnCityScale = 10;  // population and production, clipped to [-1, 1]
constexpr int kStarsScale = 100, kUnitsScale = 20, kCitiesScale = 10, kIncomeScale = 50;
constexpr int kPopulationGainScale = 16, kCostScale = 20;

// The scaled columns: (source column, divisor). A scaled token column is named after it.
struct Scaled {
  int column;
  int divisor;
};
constexpr std::array<Scaled, flat_tile::kNumScaled> kTileScaled = {{{kColBuildingLevel, kMaxTempleLevel},
                                                                     {kColCityLevel, kCityLevelScale},
                                                                     {kColUnitHp, kMaxUnitHp},
                                                                     {kColUnitMaxHp, kMaxUnitHp},
                                                                     {kColUnitKills, kVeteranKills}}};
// Own cities only, clipped to [-1, 1]; named after their token column.
constexpr std::array<int, 2> kTileOwnCity = {kColCityPopulation, kColCityProduction};
static_assert(flat_tile::kCityProduction == flat_tile::kCityPopulation + 1);
// The city centres given as (dx, dy) at kRelative: the territory's city, the unit's home city.
constexpr std::array<int, 2> kTileRelative = {kColTerritoryCityTile, kColUnitHomeCityTile};
constexpr std::array<const char*, 2> kTileRelativeNames = {"territory_city", "home_city"};
static_assert(flat_tile::kPendingCity == flat_tile::kRelative + 2 * int(kTileRelative.size()));

struct NamedScaled {
  const char* name;
  int column;
  int divisor;
};
constexpr std::array<NamedScaled, 4> kStateScaled = {{{"stars", kStStars, kStarsScale},
                                                      {"units", kStOwnsUnits, kUnitsScale},
                                                      {"cities", kStOwnCities, kCitiesScale},
                                                      {"income", kStIncome, kIncomeScale}}};
static_assert(flat_state::kPendingLevelUp == flat_state::kScaled + int(kStateScaled.size()));

// The tile columns of an action row given as (x, y, present): source, target, city.
constexpr std::array<int, 3> kRowTiles = {kFSource, kFTarget, kFCity};
constexpr std::array<const char*, 3> kRowTileNames = {"source", "target", "city"};
static_assert(flat_row::kTargetPlayer == flat_row::kTiles + 3 * int(kRowTiles.size()));
// Category arguments as (code + 1) / count: (feature column, count); named after the column.
constexpr std::array<Scaled, 6> kRowArguments = {{{kFTech, kNumTechs},
                                                  {kFBuilding, kNumBuildings},
                                                  {kFSpawnType, kNumUnitTypes},
                                                  {kFUpgrade, kNumRewards},
                                                  {kFTileAction, kNumTileActions},
                                                  {kFUnitUpgrade, kNumUnitTypes}}};
static_assert(flat_row::kPopulationGain == flat_row::kArguments + int(kRowArguments.size()));

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
  for (int k = 0; k < kNumCityBits; ++k) o[kCityBits + k] = (t[kColCityFlags] & kCityTokenFlags[size_t(k)].bit) != 0;
  for (int k = 0; k < kNumUnitBits; ++k) o[kVeteran + k] = (t[kColUnitFlags] & kUnitTokenFlags[size_t(k)].bit) != 0;
  for (int k = 0; k < kNumScaled; ++k) {
    const Scaled& c = kTileScaled[size_t(k)];
    o[kScaled + k] = clipf(static_cast<float>(t[c.column]) * static_cast<float>(1.0 / c.divisor), 0.f, 1.f);
  }
  if (t[kColCityOwner] == 1) {  // the observer's city: population and production
    for (int k = 0; k < int(kTileOwnCity.size()); ++k) {
      const float v = static_cast<float>(t[kTileOwnCity[size_t(k)]]);
      o[kCityPopulation + k] = clipf(v * (1.f / kOwnCityScale), -1.f, 1.f);
    }
  }
  const double scale = inverse(std::max(s.map_size - 1, 1));
  const int x = tile / s.map_size, y = tile % s.map_size;
  for (int k = 0; k < int(kTileRelative.size()); ++k) {
    const int32_t c = t[kTileRelative[size_t(k)]];
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
  for (int k = 0; k < int(kStateScaled.size()); ++k) {
    const NamedScaled& c = kStateScaled[size_t(k)];
    o[kScaled + k] = clip(st[c.column] * inverse(c.divisor), 0, 1);
  }
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
  for (int w = 0; w < int(kRowTiles.size()); ++w) {
    const int32_t tile = a[kRowTiles[size_t(w)]];
    if (tile < 0 || (kRowTiles[size_t(w)] == kFTarget && player_target)) continue;
    o[kTiles + 3 * w] = static_cast<float>((tile / s.map_size) * scale);
    o[kTiles + 3 * w + 1] = static_cast<float>((tile % s.map_size) * scale);
    o[kTiles + 3 * w + 2] = 1;
  }
  if (player_target) {
    o[kTargetPlayer] = static_cast<float>(a[kFTarget] / as_f32(std::max(s.num_players - 1, 1)));
  }
  // Category arguments as (code + 1) / count: 0 means none (-1).
  for (int k = 0; k < int(kRowArguments.size()); ++k) {
    const Scaled& c = kRowArguments[size_t(k)];
    o[kArguments + k] = static_cast<float>((a[c.column] + 1) * inverse(c.divisor));
  }
  o[kPopulationGain] = clip(a[kFPopulation] / as_f32(kPopulationGainScale), 0, 1);
  o[kCost] = clip(a[kFCost] / as_f32(kCostScale), -1, 1);
  o[kAffordable] = a[kFAffordable] != 0;
}

// Checks that every column of a block was named once.
template <size_t N>
std::array<FlatColumn, N> checked(std::array<FlatColumn, N> c, const char* block) {
  std::set<std::string> seen;
  for (const FlatColumn& col : c) {
    if (col.name.empty() || !seen.insert(col.name).second) {
      throw std::logic_error(std::string("flat layout: a ") + block + " column is unnamed or named twice");
    }
  }
  return c;
}

}  // namespace

std::array<FlatColumn, flat_tile::kCount> flat_tile_columns() {
  using namespace flat_tile;
  std::array<FlatColumn, kCount> c{};
  auto one_hot = [&](int first, const char* prefix, int code, const char* name) {
    c[size_t(first + code)] = {std::string(prefix) + "_" + name};
  };
  c[kExplored] = {"explored"};
  for (int k = 0; k < kNumTerrains; ++k) one_hot(kTerrain, "terrain", k, kTerrainNames[size_t(k)]);
  for (int code = 0; code < kNumResourceKeys; ++code) {
    const int col = resource_column(code);  // code 4 is unused: no column
    if (col >= 0) c[size_t(col)] = {std::string("resource_") + kResourceNames[size_t(code)]};
  }
  for (int k = 0; k < kNumBuildings; ++k) one_hot(kBuilding, "building", k, kBuildings[size_t(k)].name);
  c[kRoad] = {"road"};
  c[kTerritoryOwn] = {"territory_own"};
  c[kCityOwn] = {"city_own"};
  c[kUnitOwn] = {"unit_own"};
  for (int k = 0; k < kNumUnitTypes; ++k) one_hot(kUnitType, "unit", k, kUnits[size_t(k)].name);
  for (int k = 0; k < kNumStatuses; ++k) one_hot(kUnitStatus, "unit_status", k, kUnitStatusNames[size_t(k)]);
  for (int k = 0; k < kNumUnitTypes; ++k) one_hot(kCarried, "carried", k, kUnits[size_t(k)].name);
  c[kTerritoryOther] = {"territory_other"};
  c[kCityOther] = {"city_other"};
  c[kUnitOther] = {"unit_other"};
  for (int k = 0; k < kNumCityBits; ++k) one_hot(kCityBits, "city", k, kCityTokenFlags[size_t(k)].name);
  for (int k = 0; k < kNumUnitBits; ++k) one_hot(kVeteran, "unit", k, kUnitTokenFlags[size_t(k)].name);
  for (int k = 0; k < kNumScaled; ++k) {
    c[size_t(kScaled + k)] = {kMapTokenFeatureNames[size_t(kTileScaled[size_t(k)].column)]};
  }
  for (int k = 0; k < int(kTileOwnCity.size()); ++k) {
    c[size_t(kCityPopulation + k)] = {kMapTokenFeatureNames[size_t(kTileOwnCity[size_t(k)])], -1};
  }
  for (int k = 0; k < int(kTileRelative.size()); ++k) {
    c[size_t(kRelative + 2 * k)] = {std::string(kTileRelativeNames[size_t(k)]) + "_dx", -1};
    c[size_t(kRelative + 2 * k + 1)] = {std::string(kTileRelativeNames[size_t(k)]) + "_dy", -1};
  }
  c[kPendingCity] = {"pending_city"};
  return checked(std::move(c), "tile");
}

std::array<FlatColumn, flat_state::kCount> flat_state_columns() {
  using namespace flat_state;
  std::array<FlatColumn, kCount> c{};
  c[kTurnProgress] = {"turn_progress"};
  c[kMyTurn] = {"my_turn"};
  c[kCurrentRelative] = {"current_player_relative"};
  c[kGameOver] = {"game_over"};
  c[kWon] = {"won"};
  c[kLost] = {"lost"};
  for (int k = 0; k < int(kStateScaled.size()); ++k) c[size_t(kScaled + k)] = {kStateScaled[size_t(k)].name};
  c[kPendingLevelUp] = {"pending_level_up"};
  for (int k = 0; k < kNumRewards; ++k) {
    c[size_t(kUpgradeA + k)] = {std::string("upgrade_a_") + kRewardNames[size_t(k)]};
    c[size_t(kUpgradeB + k)] = {std::string("upgrade_b_") + kRewardNames[size_t(k)]};
  }
  return checked(std::move(c), "state");
}

std::array<FlatColumn, flat_row::kCount> flat_row_columns() {
  using namespace flat_row;
  std::array<FlatColumn, kCount> c{};
  for (int k = 0; k < kNumActionKinds; ++k) {
    c[size_t(kKind + k)] = {std::string("kind_") + kActionKindNames[size_t(k)]};
  }
  for (int w = 0; w < int(kRowTiles.size()); ++w) {
    const std::string tile = kRowTileNames[size_t(w)];
    c[size_t(kTiles + 3 * w)] = {tile + "_x"};
    c[size_t(kTiles + 3 * w + 1)] = {tile + "_y"};
    c[size_t(kTiles + 3 * w + 2)] = {tile + "_present"};
  }
  c[kTargetPlayer] = {"target_player_relative"};
  for (int k = 0; k < int(kRowArguments.size()); ++k) {
    c[size_t(kArguments + k)] = {kActionFeatureNames[size_t(kRowArguments[size_t(k)].column)]};
  }
  c[kPopulationGain] = {"population_gain"};
  c[kCost] = {"cost", -1};
  c[kAffordable] = {"affordable"};
  return checked(std::move(c), "action");
}

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

FlatShape flat_shape(int map_size, int num_players, int turn_limit, int rows) {
  if (map_size < 1 || map_size > kMaxMapSize) {
    throw InvalidArgument("encode_flat: map_size must be in 1.." + std::to_string(kMaxMapSize));
  }
  check_player_count(num_players, /*single_tribe_level=*/true);
  return FlatShape{map_size, num_players, turn_limit, rows};
}

void encode_flat_batch(int64_t batch, const int32_t* tokens, const int32_t* state, const int32_t* observer,
                       const int32_t* action_features, const int32_t* legal_counts, const FlatShape& shape,
                       float* out) {
  const int64_t size = shape.size();
  for (int64_t b = 0; b < batch; ++b) {
    encode_flat(tokens + b * shape.tiles() * kMapTokenFeatures, state + b * kStateFeatures, observer[b],
                action_features + b * shape.rows * kActionFeatures, legal_counts[b], shape, out + b * size);
  }
}

}  // namespace polyenv
