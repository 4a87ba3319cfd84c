// §5 status machine and §6 moving units: embarking, vision, pushing.
// The movement search itself is in pathing.cpp.
#include <algorithm>
#include <cmath>

#include "mechanics.hpp"

namespace polyenv {

// ------------------------------------------------------------------ status machine

void after_move_status(Unit& u) {
  switch (kUnits[u.type].pattern) {
    case kOneAction: u.status = kFinished; break;
    // quirk 4: after A-M (and M-A-M) the Rider is finished.
    case kEscape: u.status = u.status == kFresh ? kMoved : kFinished; break;
    default: u.status = kMoved; break;
  }
}

void after_attack_status(Unit& u, bool killed) {
  switch (kUnits[u.type].pattern) {
    case kEscape: u.status = u.status == kFresh ? kAttacked : kMovedAndAttacked; break;
    case kPersist: u.status = killed ? kAttacked : kFinished; break;
    default: u.status = kFinished; break;
  }
}

// ------------------------------------------------------------------ moving

namespace {

// Boats keep HP, max HP, kills, veteran flag and home city (§5); a new unit id.
int transform_unit(GameState& s, int slot, int new_type, int land_type) {
  Unit old = s.units[slot];
  remove_unit(s, slot);
  int fresh = add_unit(s, old.owner, new_type, old.tile, old.home_city, kFinished);
  Unit& u = s.units[fresh];
  u.hp = old.hp;
  u.max_hp = old.max_hp;
  u.kills = old.kills;
  u.veteran = old.veteran;
  u.land_type = int8_t(land_type);
  return fresh;
}

int vision_radius(const GameState& s, int tile, int unit_type) {
  return (s.tiles[tile].terrain == kMountain || unit_type == kBattleship) ? kHighVisionRadius : kVisionRadius;
}
int vision_radius(const GameState& s, const Unit& u) { return vision_radius(s, u.tile, u.type); }

}  // namespace

int place_unit_on(GameState& s, int slot, int tile) {
  relocate_unit(s, slot, tile);
  Unit& u = s.units[slot];
  const bool water = is_water(s.tiles[tile].terrain);
  if (water && !is_naval(u.type)) slot = transform_unit(s, slot, kBoat, u.type);
  else if (!water && is_naval(u.type)) slot = transform_unit(s, slot, u.land_type, kNoUnit);
  return slot;
}

void move_unit(GameState& s, int slot, int to) {
  const int before_type = s.units[slot].type;
  slot = place_unit_on(s, slot, to);
  Unit& u = s.units[slot];
  if (u.type == before_type) after_move_status(u);  // a transformed unit is new: FINISHED
  // Tribes' Board.moveUnit reveals before the unit embarks or lands: a landing Battleship sees 2 tiles.
  reveal_area(s, u.owner, to, vision_radius(s, to, before_type));
  unit_seen(s, u.owner, to);
}

bool push_target_usable(const GameState& s, int player, int tile) {
  const Tile& t = s.tiles[tile];
  if (t.unit >= 0) return false;
  switch (t.terrain) {
    case kPlain: case kForest: case kVillage: case kCity: return true;
    case kMountain: return s.players[player].has(kClimbing);
    default: return t.building == kPort && s.tile_owner(tile) == player;
  }
}

void push_unit_away(GameState& s, int tile) {
  int slot = s.tiles[tile].unit;
  if (slot < 0) return;
  const int owner = s.units[slot].owner;
  const bool naval = is_naval(s.units[slot].type);
  const Player& p = s.players[owner];
  const int n = s.map_size, x = tile / n, y = tile % n;
  for (const auto& d : kPushOffsets) {
    int nx = x + d[0], ny = y + d[1];
    if (!s.on_board(nx, ny)) continue;
    int target = nx * n + ny;
    const Tile& t = s.tiles[target];
    // A boat is pushed over water (Tribes leaves it in place [quirk 8], which
    // would stack two units; polyenv moves it to the first free water tile).
    bool usable = naval ? t.unit < 0 && ((t.terrain == kShallow && p.has(kSailing)) ||
                                         (t.terrain == kDeep && p.has(kNavigation)))
                        : push_target_usable(s, owner, target);
    if (!usable) continue;
    const int before_type = s.units[slot].type;
    slot = place_unit_on(s, slot, target);
    // An embarked unit is a new Boat, FINISHED (Tribes marks the replaced land unit PUSHED).
    if (s.units[slot].type != before_type) return;
    s.units[slot].status = kPushed;
    // §6: Tribes pushes a unit onto land with Board.moveUnit, which reveals as the end of a move does; a
    // unit that embarks on its port (Board.embark) and a boat (never moved by Tribes) reveal nothing.
    if (!naval) {
      reveal_area(s, owner, target, vision_radius(s, s.units[slot]));
      unit_seen(s, owner, target);
    }
    return;
  }
  kill_unit(s, slot);
}

}  // namespace polyenv
