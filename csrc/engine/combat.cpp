// §7 combat: the attack/retaliation formula, defence bonuses, kills,
// melee advance, and conversion.
#include <cmath>

#include "mechanics.hpp"

namespace polyenv {

double defence_bonus(const GameState& s, const Unit& d) {
  const Tile& t = s.tiles[d.tile];
  if (t.terrain == kCity) {
    const City& c = s.cities[t.city];
    if (c.owner != d.owner) return 1.0;  // no terrain bonus either
    if (c.walls()) return kWallsBonus;
    return kUnits[d.type].fortify ? kFortifyBonus : 1.0;
  }
  const Player& p = s.players[d.owner];
  if (t.terrain == kForest && p.has(kArchery)) return kTerrainBonus;
  if (t.terrain == kMountain && p.has(kMeditation)) return kTerrainBonus;
  if (is_water(t.terrain) && p.has(kAquatism)) return kTerrainBonus;
  return 1.0;
}

namespace {
int round_half_up(double v) { return int(std::floor(v + 0.5)); }
}  // namespace

CombatOutcome compute_combat(const GameState& s, const Unit& a, const Unit& d) {
  const double atk = unit_attack(a), def = unit_defence(d);
  const double a_force = atk * (double(a.hp) / a.max_hp);
  const double d_force = def * (double(d.hp) / d.max_hp) * defence_bonus(s, d);
  const double total = a_force + d_force;
  CombatOutcome out;
  if (total <= 0) return out;
  out.dealt = round_half_up(a_force / total * atk * kCombatScale);
  out.retaliation = round_half_up(d_force / total * def * kCombatScale);
  out.kills = d.hp <= out.dealt;
  out.counter = !out.kills && s.distance(a.tile, d.tile) <= unit_range(d);
  return out;
}

bool can_target(const GameState& s, const Unit& a, int target) {
  const Unit* d = s.unit_at(target);
  return d && d->owner != a.owner && s.distance(a.tile, target) <= unit_range(a) && sees_tile(s, a.owner, target);
}

bool can_convert(const GameState& s, const Unit& bender, int target) {
  const Unit* d = s.unit_at(target);
  return d && d->owner != bender.owner && s.distance(bender.tile, target) <= 1 && sees_tile(s, bender.owner, target);
}

void resolve_attack(GameState& s, int slot, int target_tile) {
  const int target = s.tiles[target_tile].unit;
  const CombatOutcome out = compute_combat(s, s.units[slot], s.units[target]);
  const int attacker_owner = s.units[slot].owner, defender_owner = s.units[target].owner;
  after_attack_status(s.units[slot], out.kills);
  change_allegiance(s, attacker_owner, defender_owner, kAttackAllegiance);
  s.players[attacker_owner].pacifist_turns = 0;
  if (out.kills) {
    change_allegiance(s, attacker_owner, defender_owner, kKillAllegiance);
    Unit& a = s.units[slot];
    count_kill(s, slot);
    kill_unit(s, target);
    if (kUnits[a.type].melee && push_target_usable(s, attacker_owner, target_tile)) {
      const int land_type = a.type;
      // keeps the attack status unless it embarks; §6: the advance reveals as a move ends (Tribes'
      // Board.tryPush -> moveUnit), but not when it embarks on a port (Board.embark)
      if (s.units[place_unit_on(s, slot, target_tile)].type == land_type) {
        reveal_area(s, attacker_owner, target_tile,
                    s.tiles[target_tile].terrain == kMountain ? kHighVisionRadius : kVisionRadius);
        unit_seen(s, attacker_owner, target_tile);
      }
    }
    return;
  }
  s.units[target].hp = int16_t(s.units[target].hp - out.dealt);
  if (out.counter) {
    Unit& a = s.units[slot];
    a.hp = int16_t(a.hp - out.retaliation);
    if (a.hp <= 0) {  // the defender gets the kill, and its tribe too (as Tribes' AttackCommand)
      count_kill(s, target);
      if (s.units[target].type == kKnight) s.units[target].status = kAttacked;  // Tribes' Unit.addKill (persist)
      kill_unit(s, slot);
    }
  }
}

void resolve_convert(GameState& s, int slot, int target_tile) {
  const int target = s.tiles[target_tile].unit;
  Unit& bender = s.units[slot];
  const int new_owner = bender.owner;
  bender.status = kFinished;
  Unit& u = s.units[target];
  const int old_owner = u.owner;
  leave_city(s, target);  // a converted unit is tribe-level
  set_unit_bit(s, old_owner, u.tile, false);
  set_unit_bit(s, new_owner, u.tile, true);
  u.owner = int8_t(new_owner);
  touch_moves(s);
  u.status = kFinished;
  change_allegiance(s, new_owner, old_owner, kConvertAllegiance);
  unit_seen(s, new_owner, target_tile);
}

}  // namespace polyenv
