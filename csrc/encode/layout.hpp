// layout.hpp — the column indices and flag bits of the encoder's layouts
// (seed 000), shared by the encoders and the exported game description.
#pragma once
#include <cstdint>

#include "encode.hpp"

namespace polyenv {

// Map token columns (kMapTokenFeatureNames order; meanings in map_tokens.cpp).
enum MapCol : int {
  kColExplored, kColTerrain, kColResource, kColBuilding, kColBuildingLevel, kColRoad, kColTerritoryOwner,
  kColTerritoryCityTile, kColCityOwner, kColCityLevel, kColCityPopulation, kColCityFlags, kColCityProduction,
  kColUnitOwner, kColUnitType, kColUnitHp, kColUnitMaxHp, kColUnitStatus, kColUnitFlags, kColUnitKills,
  kColUnitCarriedType, kColObservedUnitId, kColUnitHomeCityTile, kNumMapCols,
};
static_assert(kNumMapCols == kMapTokenFeatures);

// State columns (kStateFeatureNames order; meanings in map_tokens.cpp's encode_state).
enum StateCol : int {
  kStTurn, kStCurrentPlayer, kStGameOver, kStWinner, kStStars, kStOwnsUnits, kStOwnCities, kStIncome,
  kStPendingCity, kStPendingUpgradeA, kStPendingUpgradeB, kNumStateCols,
};
static_assert(kNumStateCols == kStateFeatures);

// Bits of the city_flags and unit_flags columns.
enum CityTokenFlag : int32_t { kTokCapital = 1, kTokWalls = 2, kTokWorkshop = 4, kTokPark = 8, kTokConnected = 16 };
inline constexpr int32_t kTokVeteran = 1;
inline constexpr int32_t kCityFlagsMax = kTokCapital | kTokWalls | kTokWorkshop | kTokPark | kTokConnected;

// action_features columns (kActionFeatureNames order; meanings in action_rows.cpp).
enum FeatCol : int {
  kFType, kFSource, kFTarget, kFCity, kFTech, kFBuilding, kFSpawnType, kFUpgrade, kFTileAction,
  kFUnitUpgrade, kFUnitId, kFPopulation, kFCost, kFStarsBefore, kFAffordable, kFDamageDealt,
  kFDamageReceived, kNumFeatCols,
};
static_assert(kNumFeatCols == kActionFeatures);
static_assert(kFCost == kActionArgFeatures);  // arg mask covers columns 1..12

// Observed unit ids are 1..2^24 (a 24-bit keyed bijection of unit slots).
inline constexpr int32_t kObservedUnitIdMax = 1 << 24;

}  // namespace polyenv
