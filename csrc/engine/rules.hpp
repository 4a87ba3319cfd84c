// rules.hpp — every number of RULES.md, once, as constexpr tables.
// Section references (§) point into shared/RULES.md.
#pragma once
#include <array>
#include <cstdint>

namespace polyenv {

// ---------------------------------------------------------------- limits
inline constexpr int kMinPlayers = 2;
inline constexpr int kMaxPlayers = 16;
inline constexpr int kMinMapSize = 4;
inline constexpr int kMaxMapSize = 40;
inline constexpr int kMaxTiles = kMaxMapSize * kMaxMapSize;

// ---------------------------------------------------------------- §1.1 terrain
enum Terrain : int8_t { kPlain = 0, kShallow = 1, kDeep = 2, kMountain = 3, kVillage = 4, kCity = 5, kForest = 6 };
inline constexpr int kNumTerrains = 7;
inline constexpr std::array<const char*, kNumTerrains> kTerrainNames = {
    "plain", "shallow_water", "deep_water", "mountain", "village", "city", "forest"};
inline constexpr std::array<char, kNumTerrains> kTerrainCsvChar = {'.', 's', 'd', 'm', 'v', 'c', 'f'};
constexpr bool is_water(int t) { return t == kShallow || t == kDeep; }

// ---------------------------------------------------------------- §1.2 resources (key 4 unused)
enum Resource : int8_t { kNoResource = -1, kFish = 0, kFruit = 1, kAnimal = 2, kWhales = 3, kOre = 5, kCrops = 6, kRuins = 7 };
inline constexpr int kNumResourceKeys = 8;
inline constexpr std::array<const char*, kNumResourceKeys> kResourceNames = {
    "fish", "fruit", "animal", "whales", "", "ore", "crops", "ruins"};
inline constexpr std::array<char, kNumResourceKeys> kResourceCsvChar = {'h', 'f', 'a', 'w', 0, 'o', 'c', 'r'};
inline constexpr int kUnusedResourceKey = 4;
// A resource code a tile may hold: kNoResource or a used key.
constexpr bool is_resource_code(int r) {
  return r == kNoResource || (r >= 0 && r < kNumResourceKeys && r != kUnusedResourceKey);
}

// ---------------------------------------------------------------- §4 technology tree
enum Tech : int8_t {
  kClimbing, kFishing, kHunting, kOrganization, kRiding,
  kArchery, kFarming, kForestry, kFreeSpirit, kMeditation, kMining, kRoads, kSailing, kShields, kWhaling,
  kAquatism, kChivalry, kConstruction, kMathematics, kNavigation, kSmithery, kSpiritualism, kTrade, kPhilosophy,
  kNoTech = -1,
};
inline constexpr int kNumTechs = 24;
struct TechInfo { const char* name; int8_t tier; int8_t parent; };
inline constexpr std::array<TechInfo, kNumTechs> kTechs = {{
    {"climbing", 1, kNoTech}, {"fishing", 1, kNoTech}, {"hunting", 1, kNoTech},
    {"organization", 1, kNoTech}, {"riding", 1, kNoTech},
    {"archery", 2, kHunting}, {"farming", 2, kOrganization}, {"forestry", 2, kHunting},
    {"free_spirit", 2, kRiding}, {"meditation", 2, kClimbing}, {"mining", 2, kClimbing},
    {"roads", 2, kRiding}, {"sailing", 2, kFishing}, {"shields", 2, kOrganization}, {"whaling", 2, kFishing},
    {"aquatism", 3, kWhaling}, {"chivalry", 3, kFreeSpirit}, {"construction", 3, kFarming},
    {"mathematics", 3, kForestry}, {"navigation", 3, kSailing}, {"smithery", 3, kMining},
    {"spiritualism", 3, kArchery}, {"trade", 3, kRoads}, {"philosophy", 3, kMeditation},
}};
inline constexpr int kTechBaseCost = 4;          // cost = 4 + tier * cities
inline constexpr int kPhilosophyCostPercent = 20;  // floor(cost * 0.2) [quirk 1]
inline constexpr int kTechScorePerTier = 100;
// The highest tier of the tree (3): its techs are leaves, and a tech costs at most 4 + 3 * cities.
inline constexpr int kMaxTechTier = [] {
  int tier = 0;
  for (const TechInfo& t : kTechs) tier = t.tier > tier ? t.tier : tier;
  return tier;
}();

// ---------------------------------------------------------------- §5 units
enum UnitType : int8_t {
  kWarrior, kRider, kDefender, kSwordsman, kArcher, kCatapult, kKnight, kMindBender,
  kBoat, kShip, kBattleship, kGiant, kNoUnit = -1,
};
inline constexpr int kNumUnitTypes = 12;
inline constexpr int kNumSpawnable = 8;  // Warrior .. Mind Bender
enum TurnPattern : int8_t { kOneAction, kDash, kEscape, kPersist };
struct UnitInfo {
  const char* name; int8_t cost; int8_t max_hp; int8_t atk; int8_t def; int8_t mov; int8_t range;
  int8_t tech; int8_t points; TurnPattern pattern; bool fortify; bool melee;
};
// Boats' max HP is that of the carried unit (max_hp 0 here means "carried").
inline constexpr std::array<UnitInfo, kNumUnitTypes> kUnits = {{
    {"warrior", 2, 10, 2, 2, 1, 1, kNoTech, 10, kDash, true, true},
    {"rider", 3, 10, 2, 1, 2, 1, kRiding, 15, kEscape, true, true},
    {"defender", 3, 15, 1, 3, 1, 1, kShields, 15, kOneAction, true, true},
    {"swordsman", 5, 15, 3, 3, 1, 1, kSmithery, 25, kDash, true, true},
    {"archer", 3, 10, 2, 1, 1, 2, kArchery, 15, kDash, true, false},
    {"catapult", 8, 10, 4, 0, 1, 3, kMathematics, 40, kOneAction, false, false},
    {"knight", 8, 15, 4, 1, 3, 1, kChivalry, 40, kPersist, true, true},
    {"mind_bender", 5, 10, 0, 1, 1, 1, kPhilosophy, 25, kOneAction, false, false},
    {"boat", 0, 0, 1, 1, 2, 2, kSailing, 0, kDash, false, false},
    {"ship", 5, 0, 2, 2, 3, 2, kSailing, 0, kDash, false, false},
    {"battleship", 15, 0, 4, 3, 3, 2, kNavigation, 0, kDash, false, false},
    {"giant", 10, 40, 5, 4, 1, 1, kNoTech, 50, kOneAction, false, true},
}};
constexpr bool is_naval(int u) { return u == kBoat || u == kShip || u == kBattleship; }
inline constexpr int kVeteranKills = 3;
inline constexpr int kVeteranHpBonus = 5;
// The largest HP any unit can have: the Giant's 40, +5 once for a veteran (§5).
inline constexpr int kMaxUnitHp = [] {
  int hp = 0;
  for (const UnitInfo& u : kUnits) hp = u.max_hp > hp ? u.max_hp : hp;
  return hp + kVeteranHpBonus;
}();
static_assert(kMaxUnitHp == 45);
// The largest movement (3: knight, ship, battleship) and attack range (3: catapult) of any unit type:
// they size the move search's window (mechanics.hpp) and the attack window of the action ids (actions.hpp).
inline constexpr int kMaxUnitMovement = [] {
  int mov = 0;
  for (const UnitInfo& u : kUnits) mov = u.mov > mov ? u.mov : mov;
  return mov;
}();
inline constexpr int kMaxUnitRange = [] {
  int range = 0;
  for (const UnitInfo& u : kUnits) range = u.range > range ? u.range : range;
  return range;
}();
// The dearest unit (15: the Battleship, reached by upgrading a Ship).
inline constexpr int kMaxUnitCost = [] {
  int cost = 0;
  for (const UnitInfo& u : kUnits) cost = u.cost > cost ? u.cost : cost;
  return cost;
}();
// §11 Disband: + floor(the unit's own cost / 2) stars (a boat refunds from its boat cost, i.e. 0).
constexpr int disband_refund(int unit_type) { return kUnits[unit_type].cost / 2; }

enum UnitStatus : int8_t { kFresh, kMoved, kAttacked, kMovedAndAttacked, kPushed, kFinished };
inline constexpr std::array<const char*, 6> kUnitStatusNames = {
    "fresh", "moved", "attacked", "moved_and_attacked", "pushed", "finished"};

// ---------------------------------------------------------------- §2 tribes
enum TribeKind : int8_t {
  kXinXi, kImperius, kBardur, kOumaji, kKickoo, kHoodrick, kLuxidoor, kVengir, kZebasi, kAiMo, kQuetzali, kYadakk,
};
inline constexpr int kNumTribes = 12;
struct TribeInfo { const char* name; int8_t start_tech; int8_t start_unit; };
inline constexpr std::array<TribeInfo, kNumTribes> kTribes = {{
    {"Xin-Xi", kClimbing, kWarrior}, {"Imperius", kOrganization, kWarrior}, {"Bardur", kHunting, kWarrior},
    {"Oumaji", kRiding, kRider}, {"Kickoo", kFishing, kWarrior}, {"Hoodrick", kArchery, kArcher},
    {"Luxidoor", kNoTech, kWarrior}, {"Vengir", kSmithery, kSwordsman}, {"Zebasi", kFarming, kWarrior},
    {"Ai-Mo", kMeditation, kWarrior}, {"Quetzali", kShields, kDefender}, {"Yadakk", kRoads, kWarrior},
}};
inline constexpr int kLuxidoorCapitalLevel = 3;  // with walls

// ---------------------------------------------------------------- §1.4 level generator
inline constexpr int kMapgenSmoothingPasses = 3;
inline constexpr int kMapgenRelief = 4;
inline constexpr double kMapgenInitialLand = 0.5;  // step 1: ceil(N^2 * 0.5) land cells
// Step 2: a cell becomes land if at most this share of its 3x3 block is water: (0.5 + relief) / 9.
inline constexpr double kMapgenLandCoefficient = (0.5 + kMapgenRelief) / 9.0;
inline constexpr int kCapitalMargin = 2;   // step 3: capitals on rows and columns [2, N-3]
inline constexpr int kCapitalSpacing = 2;  // polyenv: capitals not adjacent whenever the square allows
inline constexpr double kResourceBorderFactor = 1.0 / 3.0;  // step 8: a mark-1 cell draws with p / 3
inline constexpr double kRuinsPerTile = 1.0 / 40.0;         // step 9: round(N^2 / 40) ruins,
inline constexpr int kWaterRuinsDivisor = 3;                //   at most round(that / 3) on deep water
inline constexpr int kCapitalFixupResources = 2;  // step 10: Imperius fruit / Bardur animals around the capital

// §1.4 terrainProbs.json: base probability and per-tribe multipliers.
enum GenKey : int8_t { kGenForest, kGenMountain, kGenOre, kGenFruit, kGenCrops, kGenAnimal, kGenFish, kGenWhales };
inline constexpr std::array<double, 8> kGenBase = {0.4, 0.15, 0.5, 0.5, 0.5, 0.5, 0.5, 0.4};
inline constexpr std::array<std::array<double, kNumTribes>, 8> kGenMultiplier = {{
    {1, 1, 1, 0.1, 1, 1.5, 1, 1, 0.5, 1, 1, 0.5},       // forest
    {1.5, 1, 1, 1, 0.5, 0.5, 1, 1, 0.5, 1.5, 1, 0.5},   // mountain
    {1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 0.1, 1},             // ore
    {1, 1, 1.5, 1, 1, 1, 2, 0.1, 0.5, 1, 2, 1.5},       // fruit
    {1, 1, 0.1, 1, 1, 1, 1, 1, 1, 0.1, 0.1, 1},         // crops
    {1, 1, 2, 1, 1, 1, 0.5, 0.1, 1, 1, 1, 1},           // animal
    {1, 1, 1, 1, 1.5, 1, 1, 0.1, 1, 1, 1, 1},           // fish
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},               // whales
}};

// ---------------------------------------------------------------- §3 economy
inline constexpr int kStartingStars = 5;
inline constexpr int kWhaleStars = 10;
inline constexpr int kClearForestStars = 2;
inline constexpr int kRuinsStars = 10;
inline constexpr int kResourcesRewardStars = 5;
inline constexpr int kCustomsHousePerPort = 2;
inline constexpr int kNeighbourTiles = 8;  // the 8-neighbourhood of a tile (adjacency, §9.2)

// ---------------------------------------------------------------- §9 buildings
enum Building : int8_t {
  kFarm, kWindmill, kLumberHut, kSawmill, kMine, kForge, kPort, kCustomsHouse,
  kTemple, kWaterTemple, kForestTemple, kMountainTemple,
  kAltarOfPeace, kEmperorsTomb, kEyeOfGod, kGateOfPower, kGrandBazaar, kParkOfFortune, kTowerOfWisdom,
  kNoBuilding = -1,
};
inline constexpr int kNumBuildings = 19;
inline constexpr int kFirstMonument = kAltarOfPeace;
inline constexpr int kNumMonuments = 7;
constexpr bool is_temple(int b) { return b >= kTemple && b <= kMountainTemple; }
constexpr bool is_monument(int b) { return b >= kFirstMonument && b < kNumBuildings; }
// terrain_mask: bit per Terrain; resource: required resource or kNoResource.
// pop: population gain (for bonus buildings, per adjacent base building); adj: the base building or -1.
struct BuildingInfo {
  const char* name; int8_t cost; int8_t tech; uint8_t terrain_mask; int8_t resource; int8_t pop;
  int8_t adjacent_to; bool one_per_city;
};
constexpr uint8_t tmask(int t) { return uint8_t(1u << t); }
inline constexpr std::array<BuildingInfo, kNumBuildings> kBuildings = {{
    {"farm", 5, kFarming, tmask(kPlain), kCrops, 2, -1, false},
    {"windmill", 5, kConstruction, tmask(kPlain), kNoResource, 1, kFarm, true},
    {"lumber_hut", 2, kForestry, tmask(kForest), kNoResource, 1, -1, false},
    {"sawmill", 5, kMathematics, tmask(kPlain), kNoResource, 1, kLumberHut, true},
    {"mine", 5, kMining, tmask(kMountain), kOre, 2, -1, false},
    {"forge", 5, kSmithery, tmask(kPlain), kNoResource, 2, kMine, true},
    {"port", 10, kSailing, tmask(kShallow), kNoResource, 2, -1, false},
    {"customs_house", 5, kTrade, tmask(kPlain), kNoResource, 0, kPort, true},
    {"temple", 20, kFreeSpirit, tmask(kPlain), kNoResource, 1, -1, false},
    {"water_temple", 20, kAquatism, uint8_t(tmask(kShallow) | tmask(kDeep)), kNoResource, 1, -1, false},
    {"forest_temple", 15, kSpiritualism, tmask(kForest), kNoResource, 1, -1, false},
    {"mountain_temple", 20, kMeditation, tmask(kMountain), kNoResource, 1, -1, false},
    {"altar_of_peace", 0, kMeditation, uint8_t(tmask(kPlain) | tmask(kShallow)), kNoResource, 3, -1, false},
    {"emperors_tomb", 0, kTrade, uint8_t(tmask(kPlain) | tmask(kShallow)), kNoResource, 3, -1, false},
    {"eye_of_god", 0, kNavigation, uint8_t(tmask(kPlain) | tmask(kShallow)), kNoResource, 3, -1, false},
    {"gate_of_power", 0, kNoTech, uint8_t(tmask(kPlain) | tmask(kShallow)), kNoResource, 3, -1, false},
    {"grand_bazaar", 0, kRoads, uint8_t(tmask(kPlain) | tmask(kShallow)), kNoResource, 3, -1, false},
    {"park_of_fortune", 0, kNoTech, uint8_t(tmask(kPlain) | tmask(kShallow)), kNoResource, 3, -1, false},
    {"tower_of_wisdom", 0, kPhilosophy, uint8_t(tmask(kPlain) | tmask(kShallow)), kNoResource, 3, -1, false},
}};
// The dearest building (20: every temple but the forest temple).
inline constexpr int kMaxBuildingCost = [] {
  int cost = 0;
  for (const BuildingInfo& b : kBuildings) cost = b.cost > cost ? b.cost : cost;
  return cost;
}();
// The population gain of a Build as the game description bounds it (§9.2): a bonus building next to 8
// base buildings (the forge: 8 * 2), else a building's own gain.
inline constexpr int kMaxPopulationGain = [] {
  int gain = 0;
  for (const BuildingInfo& b : kBuildings) {
    const int most = b.adjacent_to >= 0 ? b.pop * kNeighbourTiles : b.pop;
    gain = most > gain ? most : gain;
  }
  return gain;
}();
inline constexpr int kTempleScore = 100;
inline constexpr std::array<int, 5> kTempleLevelScore = {0, 50, 50, 50, 150};  // reaching level 2..5
inline constexpr int kTempleTurnsPerLevel = 3;
inline constexpr int kMaxTempleLevel = 5;  // a temple levels up to 5 (§9.2)
static_assert(kTempleLevelScore.size() == kMaxTempleLevel);
inline constexpr int kMonumentScore = 400;
inline constexpr int kAltarPacifistTurns = 5;
inline constexpr int kTombStars = 100;
inline constexpr int kGateKills = 10;
inline constexpr int kBazaarConnectedCities = 5;
inline constexpr int kParkOfFortuneLevel = 5;

// §9.4 roads and the trade network
inline constexpr int kRoadCost = 2;
inline constexpr int kPortLinkWaterSteps = 4;  // two own ports link over <= 4 revealed water tiles

// §9.1 gathering and §9.3 tile actions
enum TileActionKind : int8_t { kGather, kClearForest, kBurnForest, kGrowForest, kDestroy };
inline constexpr int kNumTileActions = 5;
inline constexpr std::array<const char*, kNumTileActions> kTileActionNames = {
    "gather", "clear_forest", "burn_forest", "grow_forest", "destroy"};
inline constexpr int kGatherCost = 2;
inline constexpr int kGatherPopulation = 1;  // fruit, animals, fish (whales pay stars instead)
inline constexpr int kBurnForestCost = 5;
inline constexpr int kGrowForestCost = 5;
// The tech that gathers `resource` (kNoTech: crops, ore and ruins are not gathered).
constexpr int gather_tech(int resource) {
  switch (resource) {
    case kFruit: return kOrganization;
    case kAnimal: return kHunting;
    case kFish: return kFishing;
    case kWhales: return kWhaling;
    default: return kNoTech;
  }
}
// §4: the tech that reveals `resource` to agents (kNoTech: always shown).
constexpr int revealing_tech(int resource) {
  switch (resource) {
    case kCrops: return kOrganization;
    case kOre: return kClimbing;
    case kWhales: return kFishing;
    default: return kNoTech;
  }
}
// The techs that make a legal action depend on `resource` being on a tile: gathering it
// (can_tile_action) and the buildings that need it (can_build: Farm on crops, Mine on ore).
constexpr uint32_t techs_acting_on(int resource) {
  uint32_t bits = gather_tech(resource) != kNoTech ? 1u << gather_tech(resource) : 0u;
  for (const BuildingInfo& b : kBuildings) {
    if (b.resource == resource && b.resource != kNoResource && b.tech != kNoTech) bits |= 1u << b.tech;
  }
  return bits;
}

// ---------------------------------------------------------------- §8 cities
enum LevelUpReward : int8_t {
  kWorkshop, kExplorer, kCityWall, kResources, kPopGrowth, kBorderGrowth, kPark, kSuperUnit, kNoReward = -1,
};
inline constexpr int kNumRewards = 8;
inline constexpr std::array<const char*, kNumRewards> kRewardNames = {
    "workshop", "explorer", "city_wall", "resources", "pop_growth", "border_growth", "park", "super_unit"};
inline constexpr int kPopGrowthAmount = 3;
inline constexpr int kParkScore = 250;
inline constexpr int kExplorerSteps = 15;
// §8 city-tile actions scan radius 1, radius 2 from level 4 (Border Growth's level).
inline constexpr int kCityScanRadius = 1;
inline constexpr int kWideCityScanRadius = 2;
inline constexpr int kWideCityScanLevel = 4;
// Reward pair offered when reaching level L (L >= 2); L >= 5 share the last pair.
constexpr LevelUpReward reward_a(int new_level) { return new_level == 2 ? kWorkshop : new_level == 3 ? kCityWall : new_level == 4 ? kPopGrowth : kPark; }
constexpr LevelUpReward reward_b(int new_level) { return new_level == 2 ? kExplorer : new_level == 3 ? kResources : new_level == 4 ? kBorderGrowth : kSuperUnit; }
constexpr int level_up_score(int new_level) { return new_level == 2 ? 40 : new_level == 3 ? 35 : new_level == 4 ? 30 : 25; }

// §11 ruins (Examine): the outcomes, equally likely (Research redrawn when nothing is left to learn).
enum RuinsOutcome : int8_t { kRuinsGiant, kRuinsResearch, kRuinsPopGrowth, kRuinsExplorer, kRuinsResources };
inline constexpr int kNumRuinsOutcomes = 5;

// ---------------------------------------------------------------- §6 vision
// The radius a unit reveals as its move ends (also a captured village and each explorer step); 2 when it
// ends on a mountain or is a Battleship; 2 around each capital at the start.
inline constexpr int kVisionRadius = 1;
inline constexpr int kHighVisionRadius = 2;
inline constexpr int kCapitalVisionRadius = 2;

// ---------------------------------------------------------------- §12 score
inline constexpr int kCityCentreScore = 100;
inline constexpr int kTileClaimScore = 20;
inline constexpr int kPopulationScore = 5;
inline constexpr int kRevealScore = 5;

// ---------------------------------------------------------------- §7 combat
inline constexpr double kCombatScale = 4.5;
inline constexpr double kWallsBonus = 4.0;
inline constexpr double kFortifyBonus = 1.5;
inline constexpr double kTerrainBonus = 1.5;
inline constexpr int kRecoverHp = 2;
inline constexpr int kRecoverHpInTerritory = 4;
inline constexpr int kHealOthersHp = 4;

// ---------------------------------------------------------------- §10 diplomacy
inline constexpr int kAllegianceLimit = 60;
inline constexpr int kWarAllegiance = -30;
inline constexpr int kAttackAllegiance = -5;
inline constexpr int kKillAllegiance = -5;
inline constexpr int kCaptureAllegiance = -30;
inline constexpr int kConvertAllegiance = -5;
inline constexpr int kMaxStarsSentPerTurn = 30;
inline constexpr int kMaxSendStars = 14;  // n in 1 .. min(stars,15)-1
// Stars are capped here (not a Tribes rule: it keeps int32 arithmetic exact;
// no real game comes near it). Gains beyond it are lost.
inline constexpr int kMaxStars = 100'000'000;

// ---------------------------------------------------------------- §12 game modes
enum GameMode : int8_t { kCapitals = 0, kScore = 1 };
inline constexpr int kCapitalsTurnLimit = 50;
inline constexpr int kScoreTurnLimit = 30;
inline constexpr int kMaxTurnLimit = 10000;  // max_turns accepted from users

// §8.5 push offsets (dx, dy)
inline constexpr std::array<std::array<int8_t, 2>, 8> kPushOffsets = {{
    {0, 1}, {-1, 0}, {0, -1}, {1, 0}, {-1, 1}, {-1, -1}, {1, -1}, {1, 1}}};

}  // namespace polyenv
