// description.cpp — describe_config / describe_level: the static facts of a game
// configuration, from the rule tables alone (no GameState is built).
#include "description.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "../engine/game.hpp"
#include "layout.hpp"

namespace polyenv {

namespace {

constexpr int32_t kI32Max = std::numeric_limits<int32_t>::max();
// Storage types of values no rule caps (state.hpp).
constexpr int32_t kMaxCityLevel = std::numeric_limits<int8_t>::max();  // City::level
constexpr int32_t kMaxWorkshops = std::numeric_limits<int8_t>::max();  // City::workshops
constexpr int32_t kPopulationMin = std::numeric_limits<int16_t>::min();  // City::population may be negative
constexpr int32_t kPopulationMax = std::numeric_limits<int16_t>::max();
constexpr int32_t kMaxKills = std::numeric_limits<uint8_t>::max();  // Unit::kills
// The dearest action whose price is no tech's: buildings <= 20, units <= 15 (an upgrade), send_stars <= 14,
// roads and forest actions.
constexpr int32_t kMaxFixedActionCost = std::max({kMaxBuildingCost, kMaxUnitCost, kMaxSendStars, kRoadCost,
                                                  kGatherCost, kBurnForestCost, kGrowForestCost});

// Every column of a layout was given its range (a column added to a table without one fails here).
template <size_t N>
void check_every_column(const std::array<ColumnRange, N>& ranges, const char* layout) {
  for (const ColumnRange& r : ranges) {
    if (*r.why == '\0') throw std::logic_error(std::string("describe_config: a ") + layout + " column has no range");
  }
}

}  // namespace

ActionKindLayout action_kind_layout(int kind) {
  if (kind < 0 || kind >= kNumActionKinds) throw InvalidArgument("action kind " + std::to_string(kind) + " is unknown");
  switch (kind) {
    case kEndTurnKind: return {kBlockEndTurn, -1};
    case kResearchKind: return {kBlockResearch, -1};
    case kLevelUpKind: return {kBlockLevelUp, -1};
    case kDeclareWarKind: return {kBlockDeclareWar, -1};
    case kSendStarsKind: return {kBlockSendStars, -1};
    case kBuildRoadKind: return {kBlockBuildRoad, -1};
    case kSpawnKind: return {kBlockSpawn, -1};
    case kBuildKind: return {kBlockBuild, -1};
    case kAttackKind:
    case kConvertKind: return {kBlockAttack, -1};
    case kMoveKind: return {kBlockMove, -1};
    default: break;
  }
  if (kind >= kGatherKind && kind <= kDestroyKind) return {kBlockTileAction, kind - kGatherKind};
  return {kBlockUnitSelf, kind - kCaptureKind};
}

GameDescription describe_config(int map_size, int num_players, int mode, int max_turns, bool full_observability,
                              int max_actions, bool single_tribe_level) {
  if (map_size < kMinMapSize || map_size > kMaxMapSize) {
    throw InvalidArgument("map_size " + std::to_string(map_size) + " is outside [" + std::to_string(kMinMapSize) +
                          ", " + std::to_string(kMaxMapSize) + "]");
  }
  check_player_count(num_players, single_tribe_level);
  check_game_rules(mode, max_turns);
  if (max_turns > kMaxTurnLimit) {
    throw InvalidArgument("max_turns " + std::to_string(max_turns) + " is above " + std::to_string(kMaxTurnLimit));
  }
  if (max_actions < 1) throw InvalidArgument("max_actions must be >= 1, got " + std::to_string(max_actions));

  GameDescription d;
  const int T = map_size * map_size, P = num_players;
  d.map_size = map_size;
  d.num_players = P;
  d.num_tiles = T;
  d.mode = mode;
  d.turn_limit = max_turns >= 0 ? max_turns : mode == kScore ? kScoreTurnLimit : kCapitalsTurnLimit;  // §12.2
  d.full_observability = full_observability;
  d.max_actions = max_actions;

  const ActionSpace space(map_size, P);
  d.action_space_size = space.size();
  d.action_space_fingerprint = space.fingerprint();
  for (int b = 0; b < kNumBlocks; ++b) {
    const int end = b + 1 < kNumBlocks ? space.block_offset(b + 1) : space.size();
    const bool source = b == kBlockSpawn || b == kBlockUnitSelf || b == kBlockAttack || b == kBlockMove;
    const bool target = b == kBlockBuildRoad || b == kBlockBuild || b == kBlockTileAction || b == kBlockAttack ||
                        b == kBlockMove;
    d.blocks[b] = {kActionBlockNames[b], space.block_offset(b), end - space.block_offset(b), source, target};
  }

  // A customs house pays 2 per port next to it: at most 8 ports around each tile (§9.2).
  const int64_t production_max = int64_t(kMaxCityLevel) + kMaxWorkshops + 1 + int64_t(kCustomsHousePerPort) * kNeighbourTiles * T;
  const int32_t income_max = int32_t(std::min<int64_t>(kI32Max, int64_t(T) * production_max));
  const int32_t tech_cost_max = kTechBaseCost + kMaxTechTier * T;  // §4: 4 + tier * cities

  // Each column's range, by its name in layout.hpp. Unexplored tiles and padding rows are
  // zeros, inside every range.
  auto& tokens = d.map_token_ranges;
  tokens[kColExplored] = {0, 1, "0 unexplored, 1 explored (§6)"};
  tokens[kColTerrain] = {0, kNumTerrains - 1, "terrain (§1.1)"};
  tokens[kColResource] = {-1, kNumResourceKeys - 1,
                          "resource, -1 none or hidden: crops, ore, whales need a tech that reveals or acts on them "
                          "(§1.2, §4)"};
  tokens[kColBuilding] = {-1, kNumBuildings - 1, "building, -1 none (§9.2)"};
  tokens[kColBuildingLevel] = {0, kMaxTempleLevel, "temple level 1..5, else 0 (§9.2)"};
  tokens[kColRoad] = {0, 1, "road (§9.4)"};
  tokens[kColTerritoryOwner] = {0, P, "relative owner: 0 none, 1 self, 2.. others (§8.3)"};
  tokens[kColTerritoryCityTile] = {-1, T - 1, "tile of the owning city's centre, -1 none or hidden (§8.3)"};
  tokens[kColCityOwner] = {0, P, "relative owner of the city (§8)"};
  tokens[kColCityLevel] = {-1, kMaxCityLevel, "city level, -1 no city; no rule caps it (int8) (§8.1)"};
  tokens[kColCityPopulation] = {kPopulationMin, kPopulationMax,
                                "own city's population, may be negative (int16) (§8.1)"};
  tokens[kColCityFlags] = {0, kCityFlagsMax, "city flag bits (capital, walls, workshop, park, connected)"};
  tokens[kColCityProduction] = {kPopulationMin, int32_t(std::min<int64_t>(kI32Max, production_max)),
                                "own city's production: level + workshops + park + customs; a negative "
                                "population passes through (§3)"};
  tokens[kColUnitOwner] = {0, P, "relative owner of the unit (§5)"};
  tokens[kColUnitType] = {-1, kNumUnitTypes - 1, "unit type, -1 none (§5)"};
  tokens[kColUnitHp] = {-1, kMaxUnitHp, "unit hp <= max hp (§5, §7)"};
  tokens[kColUnitMaxHp] = {-1, kMaxUnitHp, "giant 40, +5 once for a veteran (§5)"};
  tokens[kColUnitStatus] = {-1, int32_t(kUnitStatusNames.size()) - 1, "unit status, -1 none (§11)"};
  tokens[kColUnitFlags] = {0, kTokVeteran, "unit flag bits (veteran) (§5)"};
  tokens[kColUnitKills] = {-1, kMaxKills, "own unit's kills (uint8) (§5)"};
  tokens[kColUnitCarriedType] = {-1, kNumUnitTypes - 1, "land unit carried by a boat (§5)"};
  tokens[kColObservedUnitId] = {-1, kObservedUnitIdMax,
                                "observed unit id 1..2^24 (a 24-bit keyed bijection)"};
  tokens[kColUnitHomeCityTile] = {-1, T - 1, "own unit's home city centre tile (§8)"};

  auto& state = d.state_ranges;
  state[kStTurn] = {0, d.turn_limit + 1, "round; the round after the last one ends the game (§12.2)"};
  state[kStCurrentPlayer] = {0, P - 1, "player to act (§12.1)"};
  state[kStGameOver] = {0, 1, "game over (§12.2)"};
  state[kStWinner] = {-1, P - 1, "winner, -1 none (§12.2)"};
  state[kStStars] = {0, kI32Max, "observer's stars; no cap (int32) (§3)"};
  state[kStOwnsUnits] = {0, T, "observer's live units, one unit per tile (§5)"};
  state[kStOwnCities] = {0, T, "observer's cities (§8)"};
  state[kStIncome] = {0, income_max, "next turn's star income, clamped at 0 (§3)"};
  state[kStPendingCity] = {-1, T - 1, "tile of the city whose level-up is pending (§8.2)"};
  state[kStPendingUpgradeA] = {-1, kNumRewards - 1, "level-up reward offered (§8.2)"};
  state[kStPendingUpgradeB] = {-1, kNumRewards - 1, "level-up reward offered (§8.2)"};

  auto& features = d.action_feature_ranges;
  features[kFType] = {0, kNumActionKinds - 1, "action kind (§13)"};
  features[kFSource] = {-1, T - 1, "source tile"};
  features[kFTarget] = {-1, T - 1, "target tile, or relative player 1..P-1 < T"};
  features[kFCity] = {-1, T - 1, "city centre tile"};
  features[kFTech] = {-1, kNumTechs - 1, "tech (§4)"};
  features[kFBuilding] = {-1, kNumBuildings - 1, "building (§9.2)"};
  features[kFSpawnType] = {-1, kNumSpawnable - 1, "spawnable unit type, warrior .. mind bender (§5)"};
  features[kFUpgrade] = {-1, kNumRewards - 1, "level-up reward (§8.2)"};
  features[kFTileAction] = {-1, kNumTileActions - 1, "tile action (§9.3)"};
  features[kFUnitUpgrade] = {-1, kNumUnitTypes - 1, "unit an upgrade produces (§11)"};
  features[kFUnitId] = {-1, kObservedUnitIdMax, "observed unit id"};
  features[kFPopulation] = {0, kMaxPopulationGain, "population gain (§9.2)"};
  features[kFCost] = {-kWhaleStars, std::max(kMaxFixedActionCost, tech_cost_max),
                      "stars: gathering whales pays 10; buildings <= 20, units <= 15, tech 4 + tier * cities "
                      "(§4, §9)"};
  features[kFStarsBefore] = {0, kI32Max, "actor's stars; no cap (int32) (§3)"};
  features[kFAffordable] = {0, 1, "affordable"};
  features[kFDamageDealt] = {-1, 0, "combat previews are off: -1, padding 0"};
  features[kFDamageReceived] = {-1, 0, "combat previews are off: -1, padding 0"};
  check_every_column(tokens, "map-token");
  check_every_column(state, "state");
  check_every_column(features, "action-feature");
  return d;
}

GameDescription describe_level(std::string_view csv, const std::vector<int8_t>& tribes, int mode, int max_turns,
                               bool full_observability, int max_actions) {
  const Level level = parse_level_csv(csv);
  const bool own = tribes.empty();
  check_level(level, own ? level.capital_tribes : tribes, own);
  const int players = int(level.capital_tiles.size());
  return describe_config(level.size, players, mode, max_turns, full_observability, max_actions,
                       own && players == 1);
}

}  // namespace polyenv
