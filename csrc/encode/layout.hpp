// layout.hpp — the column tables of the encoder's layouts (seed 000): map tokens, state,
// action features and the action arg mask, plus the flag bits of the bit columns.
//
// Each layout is ONE table, an X-macro list X(column id, "exported name") in column order.
// It generates the column enum every writer and reader indexes with, the column count, and
// the name array the bindings export (MAP_TOKEN_FEATURE_NAMES, ...), so a column's index
// and its exported name cannot disagree. The event and history rows have their tables in
// event_rows.hpp and history_rows.hpp, the flat layout in flat.hpp.
#pragma once
#include <array>
#include <cstdint>

namespace polyenv {

// Expanders of a column table: the enum entry, the exported name.
#define POLYENV_COLUMN_ID(id, name) id,
#define POLYENV_COLUMN_NAME(id, name) name,

// Map token columns (meanings in map_tokens.cpp).
#define POLYENV_MAP_TOKEN_COLUMNS(X)                                                                            \
  X(kColExplored, "explored") X(kColTerrain, "terrain") X(kColResource, "resource")                             \
  X(kColBuilding, "building") X(kColBuildingLevel, "building_level") X(kColRoad, "road")                        \
  X(kColTerritoryOwner, "territory_owner") X(kColTerritoryCityTile, "territory_city_tile")                      \
  X(kColCityOwner, "city_owner") X(kColCityLevel, "city_level") X(kColCityPopulation, "city_population")         \
  X(kColCityFlags, "city_flags") X(kColCityProduction, "city_production") X(kColUnitOwner, "unit_owner")        \
  X(kColUnitType, "unit_type") X(kColUnitHp, "unit_hp") X(kColUnitMaxHp, "unit_max_hp")                         \
  X(kColUnitStatus, "unit_status") X(kColUnitFlags, "unit_flags") X(kColUnitKills, "unit_kills")                \
  X(kColUnitCarriedType, "unit_carried_type") X(kColObservedUnitId, "observed_unit_id")                         \
  X(kColUnitHomeCityTile, "unit_home_city_tile")

// State columns (meanings in map_tokens.cpp's encode_state).
#define POLYENV_STATE_COLUMNS(X)                                                                                 \
  X(kStTurn, "turn") X(kStCurrentPlayer, "current_player") X(kStGameOver, "game_over") X(kStWinner, "winner")   \
  X(kStStars, "player_stars") X(kStOwnsUnits, "owns_units") X(kStOwnCities, "own_cities")                       \
  X(kStIncome, "next_turn_star_income") X(kStPendingCity, "pending_city_id")                                     \
  X(kStPendingUpgradeA, "pending_upgrade_a") X(kStPendingUpgradeB, "pending_upgrade_b")

// action_features columns (meanings in action_rows.cpp).
#define POLYENV_ACTION_FEATURE_COLUMNS(X)                                                                        \
  X(kFType, "type_id") X(kFSource, "source_index") X(kFTarget, "target_index") X(kFCity, "city")                 \
  X(kFTech, "tech") X(kFBuilding, "building") X(kFSpawnType, "spawn_type") X(kFUpgrade, "upgrade")              \
  X(kFTileAction, "tile_action") X(kFUnitUpgrade, "unit_upgrade") X(kFUnitId, "unit_id")                        \
  X(kFPopulation, "population_gain") X(kFCost, "cost_stars") X(kFStarsBefore, "stars_before")                  \
  X(kFAffordable, "affordable") X(kFDamageDealt, "damage_dealt") X(kFDamageReceived, "damage_received")

// action_arg_mask columns: X(column id, the action_features column it flags). A column is
// named after the feature column it flags (meanings in action_rows.cpp).
#define POLYENV_ACTION_ARG_MASK_COLUMNS(X)                                                                      \
  X(kMSource, kFSource) X(kMTarget, kFTarget) X(kMCity, kFCity) X(kMTech, kFTech) X(kMBuilding, kFBuilding)     \
  X(kMSpawnType, kFSpawnType) X(kMUpgrade, kFUpgrade) X(kMTileAction, kFTileAction)                            \
  X(kMUnitUpgrade, kFUnitUpgrade) X(kMUnitId, kFUnitId) X(kMPopulation, kFPopulation) X(kMCost, kFCost)

enum MapCol : int { POLYENV_MAP_TOKEN_COLUMNS(POLYENV_COLUMN_ID) kNumMapCols };
enum StateCol : int { POLYENV_STATE_COLUMNS(POLYENV_COLUMN_ID) kNumStateCols };
enum FeatCol : int { POLYENV_ACTION_FEATURE_COLUMNS(POLYENV_COLUMN_ID) kNumFeatCols };
enum ArgMaskCol : int { POLYENV_ACTION_ARG_MASK_COLUMNS(POLYENV_COLUMN_ID) kNumArgMaskCols };

inline constexpr int kMapTokenFeatures = kNumMapCols;
inline constexpr int kStateFeatures = kNumStateCols;
inline constexpr int kActionFeatures = kNumFeatCols;
inline constexpr int kActionArgFeatures = kNumArgMaskCols;
// The widths the observation contract fixes.
static_assert(kMapTokenFeatures == 23 && kStateFeatures == 11 && kActionFeatures == 17 && kActionArgFeatures == 12);

// The exported names (MAP_TOKEN_FEATURE_NAMES, STATE_FEATURE_NAMES, ACTION_FEATURE_NAMES).
inline constexpr std::array<const char*, kMapTokenFeatures> kMapTokenFeatureNames = {
    POLYENV_MAP_TOKEN_COLUMNS(POLYENV_COLUMN_NAME)};
inline constexpr std::array<const char*, kStateFeatures> kStateFeatureNames = {
    POLYENV_STATE_COLUMNS(POLYENV_COLUMN_NAME)};
inline constexpr std::array<const char*, kActionFeatures> kActionFeatureNames = {
    POLYENV_ACTION_FEATURE_COLUMNS(POLYENV_COLUMN_NAME)};

// The action_features column each action_arg_mask column flags, and its exported name
// (ACTION_ARG_MASK_NAMES): the name of that feature column.
#define POLYENV_ARG_MASK_FEATURE(id, feature) feature,
#define POLYENV_ARG_MASK_NAME(id, feature) kActionFeatureNames[feature],
inline constexpr std::array<int, kActionArgFeatures> kArgMaskFeature = {
    POLYENV_ACTION_ARG_MASK_COLUMNS(POLYENV_ARG_MASK_FEATURE)};
inline constexpr std::array<const char*, kActionArgFeatures> kActionArgMaskNames = {
    POLYENV_ACTION_ARG_MASK_COLUMNS(POLYENV_ARG_MASK_NAME)};
#undef POLYENV_ARG_MASK_FEATURE
#undef POLYENV_ARG_MASK_NAME

// Bits of the city_flags and unit_flags columns.
enum CityTokenFlag : int32_t { kTokCapital = 1, kTokWalls = 2, kTokWorkshop = 4, kTokPark = 8, kTokConnected = 16 };
inline constexpr int32_t kTokVeteran = 1;
inline constexpr int32_t kCityFlagsMax = kTokCapital | kTokWalls | kTokWorkshop | kTokPark | kTokConnected;

// A named flag bit of a bit column: the game description's city_flags / unit_flags and the
// flat layout's flag columns (city_<name>, unit_<name>), in this order.
struct TokenFlag {
  const char* name;
  int32_t bit;
};
inline constexpr std::array<TokenFlag, 5> kCityTokenFlags = {
    {{"capital", kTokCapital}, {"walls", kTokWalls}, {"workshop", kTokWorkshop}, {"park", kTokPark},
     {"connected", kTokConnected}}};
inline constexpr std::array<TokenFlag, 1> kUnitTokenFlags = {{{"veteran", kTokVeteran}}};

// Observed unit ids are 1..2^24 (a 24-bit keyed bijection of unit slots).
inline constexpr int32_t kObservedUnitIdMax = 1 << 24;

}  // namespace polyenv
