// A deliberately plain enumeration of the legal actions, for checking: every
// candidate id of every block is tested with the rule predicates alone (no
// pre-filters, no move cache, no search window). legal_actions (legal.cpp) is
// the fast path and must produce exactly this list; the check mode of the tests
// compares the two after every action of random games.
#include "../mechanics.hpp"
#include "oracles.hpp"

namespace polyenv {

int legal_actions_reference(const GameState& s, int32_t* out, int capacity) {
  int count = 0;
  auto emit = [&](int32_t id) {
    if (count < capacity) out[count] = id;
    ++count;
  };
  if (s.game_over) return 0;
  const ActionSpace space = action_space(s);
  const int player = s.current_player;
  if (s.pending_city >= 0) {
    emit(space.level_up(0));
    emit(space.level_up(1));
    return count;
  }
  emit(space.end_turn());
  for (int tech = 0; tech < kNumTechs; ++tech) if (can_research(s, player, tech)) emit(space.research(tech));
  for (int rel = 1; rel < s.num_players; ++rel) {
    if (can_declare_war(s, player, (player + rel) % s.num_players)) emit(space.declare_war(rel));
  }
  for (int rel = 1; rel < s.num_players; ++rel) {
    for (int n = 1; n <= max_send_stars(s, player); ++n) emit(space.send_stars(rel, n));
  }
  for (int t = 0; t < s.num_tiles; ++t) if (can_build_road(s, player, t)) emit(space.build_road(t));
  for (int t = 0; t < s.num_tiles; ++t) {
    const int c = s.tiles[t].city;
    if (c < 0 || s.cities[c].tile != t || s.cities[c].owner != player) continue;
    for (int type = 0; type < kNumSpawnable; ++type) if (can_spawn(s, c, type)) emit(space.spawn(t, type));
  }
  for (int t = 0; t < s.num_tiles; ++t) {
    const int c = acting_city_for_tile(s, t);
    if (c < 0) continue;
    for (int b = 0; b < kNumBuildings; ++b) if (can_build(s, c, t, b)) emit(space.build(t, b));
  }
  for (int t = 0; t < s.num_tiles; ++t) {
    const int c = acting_city_for_tile(s, t);
    if (c < 0) continue;
    for (int k = 0; k < kNumTileActions; ++k) if (can_tile_action(s, c, t, k)) emit(space.tile_action(t, k));
  }
  auto own_unit = [&](int t) { const Unit* u = s.unit_at(t); return u && u->owner == player ? u : nullptr; };
  for (int t = 0; t < s.num_tiles; ++t) {
    if (const Unit* u = own_unit(t)) {
      for (int k = 0; k < kNumUnitSelf; ++k) if (unit_self_legal(s, *u, k)) emit(space.unit_self(t, k));
    }
  }
  for (int t = 0; t < s.num_tiles; ++t) {
    const Unit* u = own_unit(t);
    if (!u) continue;
    const bool bender = u->type == kMindBender;
    if (bender ? u->status != kFresh : !can_attack(*u)) continue;
    for (int target = 0; target < s.num_tiles; ++target) {
      if (space.attack(t, target) < 0) continue;  // outside the 7x7 window
      if (bender ? can_convert(s, *u, target) : can_target(s, *u, target)) emit(space.attack(t, target));
    }
  }
  MoveContext moves;
  prepare_moves(s, player, moves);
  int16_t reach[kMaxTiles];
  for (int t = 0; t < s.num_tiles; ++t) {
    const Unit* u = own_unit(t);
    if (!u || !can_move(*u)) continue;
    const int n = reachable_tiles_reference(s, s.tiles[t].unit, moves, reach);
    for (int i = 0; i < n; ++i) if (s.tiles[reach[i]].unit < 0) emit(space.move(t, reach[i]));
  }
  return count;
}

}  // namespace polyenv
