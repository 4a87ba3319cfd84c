// world.hpp — primitive mutations shared by every rule: units, cities,
// territory, vision, population, stars, score and diplomacy. Each keeps the
// cached counters of GameState consistent (check_invariants verifies them).
// Private to the engine (cmake/check_layers.cmake): other layers change a state
// through game.hpp (actions, scenario edits, rebuild_derived_state).
#pragma once
#include "state.hpp"

namespace polyenv {

// ---- units
// Creates a unit (status given) and returns its slot. Does not touch score.
int add_unit(GameState& s, int player, int type, int tile, int home_city, int status);
// Removes a unit from the board and from its home city's support.
void remove_unit(GameState& s, int slot);
// A city's unit list (§8.4, Tribes' City.unitsID): a unit joins at the end (`city` -1: tribe-level);
// leaving closes the gap. last_unit_of: the slot at the end of `city`'s list, or -1.
void join_city(GameState& s, int slot, int city);
void leave_city(GameState& s, int slot);
int last_unit_of(const GameState& s, int city);
// Kills a unit: its current type's points come off its owner's score.
void kill_unit(GameState& s, int slot);
// Moves a unit to an empty tile (no vision, no status change).
void relocate_unit(GameState& s, int slot, int to);
int unit_points(const Unit& u);
int unit_attack(const Unit& u);
int unit_defence(const Unit& u);
int unit_range(const Unit& u);
int unit_movement(const Unit& u);

// ---- vision (§6)
// Reveals the radius area for `player` (fog mode: +5 score per new tile,
// tribe meetings, Eye of God). No-op under full observability.
void reveal_area(GameState& s, int player, int tile, int radius);
// A unit of `owner` appeared on `tile`: tribes that see the tile meet it.
void unit_seen(GameState& s, int owner, int tile);
// Gives every unit a player sees for the first time that player's next observed
// unit id, in tile order (so the ids never depend on hidden slots or events).
void note_sightings(GameState& s);
// note_sightings for the candidates of s.sightings only (the same ids, after a transition).
void note_new_sightings(GameState& s);
// A unit was placed on or moved to a tile: a candidate for note_new_sightings.
void note_unit_shown(GameState& s, int slot);

// ---- cities (§8)
int create_city(GameState& s, int player, int tile, bool capital);
// Claims unowned tiles within `radius` for `city` (+20 score and worth each).
void claim_territory(GameState& s, int city, int radius);
// Adds population (±5 score and worth per point); clamps at -level.
void add_population(GameState& s, int city, int delta);
int city_capacity(const City& c);
// Marks `city` as its owner's latest acquisition (the end of Tribes' per-tribe city list).
void mark_acquired(GameState& s, int city);
// The player's first city in acquisition order (§8.1 "its list") for which `pred` holds, or -1.
template <class Pred>
int first_city_of(const GameState& s, int player, Pred pred) {
  int best = -1;
  for (int i = 0; i < int(s.cities.size()); ++i) {
    const City& c = s.cities[i];
    if (c.owner == player && pred(c) && (best < 0 || c.acquired < s.cities[best].acquired)) best = i;
  }
  return best;
}
// First city of the current player that can level up, or -1.
int find_pending_city(const GameState& s);

// ---- players
void add_score(GameState& s, int player, int delta);  // saturates at +-kMaxScore (counter_limits.hpp)
// A kill by the unit in `slot`: its kills and its tribe's (both saturating: counter_limits.hpp),
// and the Gate of Power once the tribe has kGateKills.
void count_kill(GameState& s, int slot);
void add_city_worth(GameState& s, int city, int delta);  // city worth and owner score
void gain_stars(GameState& s, int player, int n);          // also checks Emperor's Tomb
void grant_tech(GameState& s, int player, int tech, bool researched);
void change_allegiance(GameState& s, int actor, int target, int value);
void set_allegiance(GameState& s, int a, int b, int value);  // symmetric, clamped to ±60
void make_monument_available(GameState& s, int player, int monument);
int count_known_techs(const Player& p);

// ---- move cache: renews s.move_epoch (see MoveCache in mechanics.hpp).
void touch_moves(GameState& s);
// Renews s.territory_epoch (and s.move_epoch, s.tile_epoch) and the territory rows of s.tile_bits:
// cities' owners or borders changed (TileScan).
void touch_territory(GameState& s);
// Renews s.tile_epoch: a tile's terrain, resource or building changed (TileScan).
void touch_tiles(GameState& s);

// ---- tile bitsets (GameState::tile_bits): refresh a tile's after its terrain or building changed
// (refresh_road_links refreshes the road rows of the tiles it touches, touch_territory the
// territory rows); rebuild all for a new board.
void refresh_tile_bits(GameState& s, int tile);
void rebuild_tile_bits(GameState& s);
// Sets or clears `tile` in the unit row of `player` (the unit primitives; a change of owner).
void set_unit_bit(GameState& s, int player, int tile, bool on);
// The bitsets rebuild_tile_bits writes, from the tiles, cities and units alone, into `out`
// (check_invariants compares them with the kept ones).
void compute_tile_bits(const GameState& s, std::vector<uint64_t>& out);

// ---- road links: call after anything that makes a tile a road or a city.
inline bool road_or_city(const Tile& t) { return t.terrain == kCity || (t.road && !is_water(t.terrain)); }
// What Tile::road_link must be at `tile`, from the tiles alone: a road or city next to another one.
bool road_link_at(const GameState& s, int tile);
void refresh_road_links(GameState& s, int tile);
// Every tile's road_link and GameState::road_links, from the tiles alone (a new board).
void rebuild_road_links(GameState& s);

// ---- trade network (§9.4): recomputes connections, applies population.
void update_trade_network(GameState& s, int player);
// Every living tribe's network, in tribe order: Tribes' TradeNetwork.setTradeNetwork recomputes them all
// after each road, port built or destroyed and capture. Nothing else recomputes another tribe's network
// (an enemy's border growth can cut a road and leave the link counted until then), so these events must
// not skip a tribe whose cities all look linked.
void update_all_trade_networks(GameState& s);

}  // namespace polyenv
