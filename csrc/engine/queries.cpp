// Read-only queries: costs, income, production, combat previews, action
// kinds and descriptions, observed unit ids.
#include <algorithm>
#include <climits>
#include <string>

#include "mechanics.hpp"

namespace polyenv {

int tech_cost(const GameState& s, int player, int tech) {
  const Player& p = s.players[player];
  int cost = kTechBaseCost + kTechs[tech].tier * p.num_cities;
  if (p.has(kPhilosophy)) cost = cost * kPhilosophyCostPercent / 100;  // quirk 1
  return cost;
}

// Tribes' City.getProduction(): units on the centre do not matter here.
int city_production(const GameState& s, int city) {
  const City& c = s.cities[city];
  if (c.population < 0) return c.population;
  return c.level + c.workshops + (c.capital() ? 1 : 0) + kCustomsHousePerPort * c.customs_ports;
}

int star_income(const GameState& s, int player) {
  int total = 0;
  for (int i = 0; i < int(s.cities.size()); ++i) {
    const City& c = s.cities[i];
    if (c.owner != player) continue;
    // Only the turn-start income skips a city with an enemy unit on its centre (GameState.initTurn).
    const Unit* occupant = s.unit_at(c.tile);
    if (occupant && occupant->owner != player) continue;
    total += city_production(s, i);
  }
  return total > 0 ? total : 0;
}

bool tile_explored(const GameState& s, int player, int tile) { return sees_tile(s, player, tile); }

int score_margin(const GameState& s, int player) {
  int best_other = INT32_MIN;
  for (int p = 0; p < s.num_players; ++p) {
    if (p != player) best_other = std::max(best_other, s.players[p].score);
  }
  return s.players[player].score - best_other;
}

uint32_t eliminated_mask(const GameState& s) {
  uint32_t mask = 0;
  for (int p = 0; p < s.num_players; ++p) mask |= s.players[p].alive ? 0u : 1u << p;
  return mask;
}

CombatOutcome combat_preview(const GameState& s, int attacker_tile, int target_tile) {
  const Unit* a = s.unit_at(attacker_tile);
  const Unit* d = s.unit_at(target_tile);
  if (!a || !d) return {};
  return compute_combat(s, *a, *d);
}

int action_kind(const GameState& s, const Action& a) {
  switch (a.block) {
    case kBlockEndTurn: return kEndTurnKind;
    case kBlockResearch: return kResearchKind;
    case kBlockLevelUp: return kLevelUpKind;
    case kBlockDeclareWar: return kDeclareWarKind;
    case kBlockSendStars: return kSendStarsKind;
    case kBlockBuildRoad: return kBuildRoadKind;
    case kBlockSpawn: return kSpawnKind;
    case kBlockBuild: return kBuildKind;
    case kBlockTileAction: return kGatherKind + a.arg;
    case kBlockUnitSelf: return kCaptureKind + a.arg;
    case kBlockAttack: {
      const Unit* u = a.source >= 0 ? s.unit_at(a.source) : nullptr;
      return u && u->type == kMindBender ? kConvertKind : kAttackKind;
    }
    case kBlockMove: return kMoveKind;
  }
  return -1;
}

int action_star_cost(const GameState& s, const Action& a) {
  const int player = s.current_player;
  switch (a.block) {
    case kBlockResearch: return tech_cost(s, player, a.arg);
    case kBlockSendStars: return a.amount;
    case kBlockBuildRoad: return kRoadCost;
    case kBlockSpawn: return kUnits[a.arg].cost;
    case kBlockBuild: return kBuildings[a.arg].cost;
    case kBlockTileAction:
      switch (a.arg) {
        case kGather: return s.tiles[a.target].resource == kWhales ? -kWhaleStars : kGatherCost;
        case kClearForest: return -kClearForestStars;
        case kBurnForest: return kBurnForestCost;
        case kGrowForest: return kGrowForestCost;
        default: return 0;
      }
    case kBlockUnitSelf: {
      const Unit* u = s.unit_at(a.source);
      if (!u) return 0;
      if (a.arg == kDisband) return -disband_refund(u->type);
      if (a.arg == kUpgrade) return u->type == kBoat ? kUnits[kShip].cost : kUnits[kBattleship].cost;
      return 0;
    }
    case kBlockLevelUp: {
      if (s.pending_city < 0) return 0;
      LevelUpReward r = a.arg == 0 ? reward_a(s.cities[s.pending_city].level + 1)
                                   : reward_b(s.cities[s.pending_city].level + 1);
      return r == kResources ? -kResourcesRewardStars : 0;
    }
    default: return 0;
  }
}

int action_population_gain(const GameState& s, const Action& a) {
  switch (a.block) {
    case kBlockBuild: {
      // The building's own population plus every adjacency bonus it triggers, as apply_build
      // pays them (customs houses pay stars, not population).
      const BuildingInfo& info = kBuildings[a.arg];
      int gain = info.adjacent_to < 0 ? info.pop : 0;
      for_each_adjacency_bonus(s, a.target, a.arg, s.current_player, [&](int, int bonus) {
        if (bonus != kCustomsHouse) gain += kBuildings[bonus].pop;
      });
      return gain;
    }
    case kBlockTileAction: {
      if (a.arg != kGather) return 0;
      int r = s.tiles[a.target].resource;
      return (r == kFruit || r == kAnimal || r == kFish) ? kGatherPopulation : 0;
    }
    case kBlockLevelUp: {
      if (s.pending_city < 0) return 0;
      LevelUpReward r = a.arg == 0 ? reward_a(s.cities[s.pending_city].level + 1)
                                   : reward_b(s.cities[s.pending_city].level + 1);
      return r == kPopGrowth ? kPopGrowthAmount : 0;
    }
    default: return 0;
  }
}

int32_t observed_unit_id(const GameState& s, int observer, int slot) {
  const int32_t alias = s.unit_alias[size_t(slot) * s.num_players + observer];
  return alias > 0 ? alias : -1;
}

namespace {
std::string tile_name(const GameState& s, int t) {
  std::string name(1, '(');  // built by appending: GCC 12 warns falsely on "(" + std::string
  name += std::to_string(s.tile_x(t));
  name += ',';
  name += std::to_string(s.tile_y(t));
  name += ')';
  return name;
}
}  // namespace

std::string describe_action(const GameState& s, int32_t id) {
  const ActionSpace space = action_space(s);
  if (id < 0 || id >= space.size()) return "invalid action id " + std::to_string(id);
  const Action a = space.decode(id);
  const std::string kind = kActionKindNames[action_kind(s, a)];
  const int player = s.current_player;
  auto unit_name = [&](int tile) {
    const Unit* u = tile >= 0 ? s.unit_at(tile) : nullptr;
    return std::string(u ? kUnits[u->type].name : "unit");
  };
  auto other = [&](int rel) { return "player " + std::to_string((player + rel) % s.num_players); };
  switch (a.block) {
    case kBlockEndTurn: return "end_turn";
    case kBlockResearch: return "research " + std::string(kTechs[a.arg].name);
    case kBlockLevelUp: {
      if (s.pending_city < 0) return "level_up option " + std::to_string(a.arg);
      const City& c = s.cities[s.pending_city];
      LevelUpReward r = a.arg == 0 ? reward_a(c.level + 1) : reward_b(c.level + 1);
      return "level_up city " + tile_name(s, c.tile) + " to " + std::to_string(c.level + 1) + ": " + kRewardNames[r];
    }
    case kBlockDeclareWar: return "declare_war on " + other(a.arg);
    case kBlockSendStars: return "send_stars " + std::to_string(a.amount) + " to " + other(a.arg);
    case kBlockBuildRoad: return "build_road at " + tile_name(s, a.target);
    case kBlockSpawn: return "spawn " + std::string(kUnits[a.arg].name) + " at " + tile_name(s, a.source);
    case kBlockBuild: return "build " + std::string(kBuildings[a.arg].name) + " at " + tile_name(s, a.target);
    case kBlockTileAction: return kind + " at " + tile_name(s, a.target);
    case kBlockUnitSelf: return kind + " with " + unit_name(a.source) + " at " + tile_name(s, a.source);
    case kBlockAttack:
      return kind + " " + unit_name(a.source) + " at " + tile_name(s, a.source) + " -> " +
             (a.target >= 0 ? tile_name(s, a.target) : std::string("off-board"));
    case kBlockMove:
      return "move " + unit_name(a.source) + " " + tile_name(s, a.source) + " -> " + tile_name(s, a.target);
  }
  return kind;
}

}  // namespace polyenv
