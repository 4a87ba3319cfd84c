// §11 unit actions without a target (capture, recover, disband, examine,
// heal others, make veteran, upgrade) and §10 tribe-action conditions.
#include <algorithm>

#include "mechanics.hpp"

namespace polyenv {

namespace {

bool has_damaged_friend(const GameState& s, const Unit& u) {
  bool found = false;
  for_each_neighbour(s, u.tile, [&](int nb) {
    const Unit* o = s.unit_at(nb);
    if (o && o->owner == u.owner && o->hp < o->max_hp) found = true;
  });
  return found;
}

int upgrade_target(int type) { return type == kBoat ? kShip : type == kShip ? kBattleship : kNoUnit; }

}  // namespace

bool unit_self_legal(const GameState& s, const Unit& u, int kind) {
  const Player& p = s.players[u.owner];
  const bool fresh = u.status == kFresh;
  switch (kind) {
    case kCapture: {
      if (!fresh) return false;
      const Tile& t = s.tiles[u.tile];
      if (t.terrain == kVillage) return true;
      return t.terrain == kCity && s.cities[t.city].owner != u.owner;
    }
    case kRecover: return fresh && u.hp > 0 && u.hp < u.max_hp;
    case kDisband: return fresh && p.has(kFreeSpirit);
    case kExamine: return fresh && s.tiles[u.tile].resource == kRuins && p.num_cities > 0;
    case kHealOthers: return u.type == kMindBender && can_attack(u) && has_damaged_friend(s, u);
    case kMakeVeteran:
      return u.kills >= kVeteranKills && !u.veteran && u.type != kGiant && u.status != kFinished;
    case kUpgrade: {
      int next = upgrade_target(u.type);
      return next != kNoUnit && p.has(kUnits[next].tech) && p.stars >= kUnits[next].cost;
    }
  }
  return false;
}

void apply_unit_self(GameState& s, int slot, int kind) {
  Unit& u = s.units[slot];
  Player& p = s.players[u.owner];
  switch (kind) {
    case kCapture: capture(s, slot); break;
    case kRecover: {
      int heal = s.tile_owner(u.tile) == u.owner ? kRecoverHpInTerritory : kRecoverHp;
      u.hp = int16_t(std::min<int>(u.max_hp, u.hp + heal));
      u.status = kFinished;
      break;
    }
    case kDisband:
      p.stars = std::min(p.stars + disband_refund(u.type), kMaxStars);
      kill_unit(s, slot);
      break;
    case kExamine: examine_ruins(s, slot); break;
    case kHealOthers:
      for_each_neighbour(s, u.tile, [&](int nb) {
        int o = s.tiles[nb].unit;
        if (o < 0 || s.units[o].owner != u.owner) return;
        Unit& f = s.units[o];
        f.hp = int16_t(std::min<int>(f.max_hp, f.hp + kHealOthersHp));
      });
      u.status = kFinished;
      break;
    case kMakeVeteran:
      u.veteran = 1;
      u.max_hp = int16_t(u.max_hp + kVeteranHpBonus);
      u.hp = u.max_hp;
      break;
    case kUpgrade: {
      const Unit old = u;
      const int next = upgrade_target(old.type);
      p.stars -= kUnits[next].cost;
      remove_unit(s, slot);
      int fresh = add_unit(s, old.owner, next, old.tile, old.home_city, old.status);
      Unit& n = s.units[fresh];
      n.hp = old.hp;
      n.max_hp = old.max_hp;
      n.kills = old.kills;
      n.veteran = old.veteran;
      n.land_type = old.land_type;
      break;
    }
  }
}

bool can_research(const GameState& s, int player, int tech) {
  return s.players[player].can_learn(tech) && s.players[player].stars >= tech_cost(s, player, tech);
}

bool can_declare_war(const GameState& s, int player, int target) {
  const Player& p = s.players[player];
  // Eliminated tribes too: Tribes' DeclareWarFactory and SendStarsFactory list every other tribe.
  return !p.declared_war_this_turn && p.allegiance[target] > kWarAllegiance;
}

int max_send_stars(const GameState& s, int player) {
  const Player& p = s.players[player];
  if (p.stars_sent_this_turn >= kMaxStarsSentPerTurn) return 0;
  return std::clamp(std::min(p.stars, kMaxSendStars + 1) - 1, 0, kMaxSendStars);
}

}  // namespace polyenv
