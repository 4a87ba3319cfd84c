// flat.hpp — the flat observation (polyenv/envs/flat.py, observation_format="flat"): the
// seed-000 int32 layouts of one batch row (map tokens, state, action features) turned
// into small float32 features. This header and flat.cpp own the flat layout: the column
// offsets below, and the name and range of every column (flat_*_columns, exported as
// _core.FLAT_LAYOUT, which polyenv.envs.flat's FLAT_*_FEATURE_NAMES and bounds read).
// tests/helpers/flat_reference.py is a NumPy version of the same encoding that the tests
// compare against bit for bit, so the arithmetic follows NumPy's type promotion there:
// float32 products for map-token scalings, double elsewhere, rounded to float32 once.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "encode.hpp"

namespace polyenv {

// Output columns of one tile (FLAT_TILE_FEATURE_NAMES), each block after the previous.
namespace flat_tile {
inline constexpr int kResourceCodes = kNumResourceKeys - 1;  // code 4 is unused (RULES §3)
inline constexpr int kExplored = 0;
inline constexpr int kTerrain = kExplored + 1;              // one-hot, kNumTerrains
inline constexpr int kResource = kTerrain + kNumTerrains;   // one-hot, resource codes without 4
inline constexpr int kBuilding = kResource + kResourceCodes;  // one-hot, kNumBuildings
inline constexpr int kRoad = kBuilding + kNumBuildings;
inline constexpr int kTerritoryOwn = kRoad + 1;
inline constexpr int kCityOwn = kTerritoryOwn + 1;
inline constexpr int kUnitOwn = kCityOwn + 1;
inline constexpr int kUnitType = kUnitOwn + 1;              // one-hot, kNumUnitTypes
inline constexpr int kUnitStatus = kUnitType + kNumUnitTypes;  // one-hot, kUnitStatusNames
inline constexpr int kNumStatuses = int(kUnitStatusNames.size());
inline constexpr int kCarried = kUnitStatus + kNumStatuses;  // one-hot, kNumUnitTypes
inline constexpr int kTerritoryOther = kCarried + kNumUnitTypes;
inline constexpr int kCityOther = kTerritoryOther + 1;
inline constexpr int kUnitOther = kCityOther + 1;
inline constexpr int kCityBits = kUnitOther + 1;            // the city flags (kCityTokenFlags)
inline constexpr int kNumCityBits = int(kCityTokenFlags.size());
inline constexpr int kVeteran = kCityBits + kNumCityBits;   // the unit flags (kUnitTokenFlags: veteran)
inline constexpr int kNumUnitBits = int(kUnitTokenFlags.size());
inline constexpr int kScaled = kVeteran + kNumUnitBits;     // building level, city level, hp, max hp, kills
inline constexpr int kNumScaled = 5;
inline constexpr int kCityPopulation = kScaled + kNumScaled;  // own cities only
inline constexpr int kCityProduction = kCityPopulation + 1;
inline constexpr int kRelative = kCityProduction + 1;       // (dx, dy) of the territory city, then of the home city
inline constexpr int kPendingCity = kRelative + 4;
inline constexpr int kCount = kPendingCity + 1;
}  // namespace flat_tile

// Output columns of the scalars (FLAT_STATE_FEATURE_NAMES).
namespace flat_state {
inline constexpr int kTurnProgress = 0, kMyTurn = 1, kCurrentRelative = 2, kGameOver = 3, kWon = 4, kLost = 5;
inline constexpr int kScaled = 6;  // stars, units, cities, income
inline constexpr int kPendingLevelUp = kScaled + 4;
inline constexpr int kUpgradeA = kPendingLevelUp + 1;  // one-hot, kNumRewards
inline constexpr int kUpgradeB = kUpgradeA + kNumRewards;
inline constexpr int kCount = kUpgradeB + kNumRewards;
}  // namespace flat_state

// Output columns of one action row (FLAT_ACTION_FEATURE_NAMES).
namespace flat_row {
inline constexpr int kKind = 0;                          // one-hot, kNumActionKinds
inline constexpr int kTiles = kKind + kNumActionKinds;   // (x, y, present) of source, target, city
inline constexpr int kTargetPlayer = kTiles + 9;
// tech, building, spawn type, upgrade, tile action, unit upgrade
inline constexpr int kArguments = kTargetPlayer + 1;
inline constexpr int kPopulationGain = kArguments + 6;
inline constexpr int kCost = kPopulationGain + 1;
inline constexpr int kAffordable = kCost + 1;
inline constexpr int kCount = kAffordable + 1;
}  // namespace flat_row

// One output column: its name (FLAT_TILE_FEATURE_NAMES, FLAT_STATE_FEATURE_NAMES,
// FLAT_ACTION_FEATURE_NAMES) and its range [low, 1] (low 0, or -1 for a signed column).
struct FlatColumn {
  std::string name;
  int low = 0;
};
// The columns of one tile, of the scalars and of one action row, in column order.
std::array<FlatColumn, flat_tile::kCount> flat_tile_columns();
std::array<FlatColumn, flat_state::kCount> flat_state_columns();
std::array<FlatColumn, flat_row::kCount> flat_row_columns();

struct FlatShape {
  int map_size, num_players, turn_limit, rows;  // rows 0: global action mode
  int tiles() const { return map_size * map_size; }
  int64_t size() const {  // floats per batch row
    return int64_t{tiles()} * flat_tile::kCount + flat_state::kCount + int64_t{rows} * flat_row::kCount;
  }
};

// The shape of a batch's rows after the flat encoder's checks (InvalidArgument): map_size in
// 1..kMaxMapSize, num_players by the one player-count rule (1 allowed: a single-tribe level file,
// RULES §1.3's MinimalLevel, is a real 1-player game whose observations are encoded too).
FlatShape flat_shape(int map_size, int num_players, int turn_limit, int rows);

// One batch row: tokens [tiles, 23], state [11], action features [rows, 17] of which the
// first legal_count are encoded (the rest are zeros), into out [shape.size()].
void encode_flat(const int32_t* tokens, const int32_t* state, int32_t observer, const int32_t* action_features,
                 int32_t legal_count, const FlatShape& shape, float* out);

// `batch` rows, each as encode_flat: tokens [batch, tiles, 23], state [batch, 11], observer [batch],
// action features [batch, shape.rows, 17], legal counts [batch], into out [batch, shape.size()]
// (all C-contiguous).
void encode_flat_batch(int64_t batch, const int32_t* tokens, const int32_t* state, const int32_t* observer,
                       const int32_t* action_features, const int32_t* legal_counts, const FlatShape& shape,
                       float* out);

}  // namespace polyenv
