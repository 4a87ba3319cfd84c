// The transition function: applies one legal action, then settles the turn
// (End Turn is played automatically while it is the only legal action).
#include "events.hpp"
#include "mechanics.hpp"

namespace polyenv {

namespace {

void research(GameState& s, int player, int tech) {
  Player& p = s.players[player];
  p.stars -= tech_cost(s, player, tech);
  grant_tech(s, player, tech, true);
  add_score(s, player, kTechs[tech].tier * kTechScorePerTier);
}

// §10: the pair goes to -30; tribes hostile to the target warm to the declarer.
void declare_war(GameState& s, int player, int target) {
  set_allegiance(s, player, target, kWarAllegiance);
  for (int x = 0; x < s.num_players; ++x) {
    if (x == player || x == target || s.players[x].allegiance[target] >= 0) continue;
    set_allegiance(s, x, player, s.players[x].allegiance[player] + (-kWarAllegiance / 2));
  }
  s.players[player].wars_declared++;
  s.players[player].declared_war_this_turn = 1;
}

void send_stars(GameState& s, int player, int target, int n) {
  Player& p = s.players[player];
  p.stars -= n;
  p.stars_sent_this_turn = int16_t(p.stars_sent_this_turn + n);
  p.stars_sent += n;
  add_score(s, player, n);
  gain_stars(s, target, n);
  change_allegiance(s, player, target, n);
}

void build_road(GameState& s, int player, int tile) {
  s.players[player].stars -= kRoadCost;
  s.tiles[tile].road = 1;
  refresh_road_links(s, tile);
  update_all_trade_networks(s);  // a neutral road can join or (recomputing a stale link) show any tribe's cut
}

void spawn(GameState& s, int tile, int type) {
  const int city = s.tiles[tile].city;
  const int player = s.cities[city].owner;
  s.players[player].stars -= kUnits[type].cost;
  int slot = add_unit(s, player, type, tile, city, kFinished);
  add_score(s, player, unit_points(s.units[slot]));
  unit_seen(s, player, tile);  // spawned units give no vision of their own (quirk 12)
}

// settle's conditions, shared with apply_action_and_list: the pending level-up is found once
// after the action; End Turn is then automatic while this holds and it is the only legal action.
void find_pending(GameState& s) {
  if (!s.game_over) s.pending_city = int16_t(find_pending_city(s));
}
bool may_end_turn_automatically(const GameState& s) {
  return !s.game_over && s.auto_end_turn && s.pending_city < 0;
}

void settle(GameState& s) {
  find_pending(s);
  while (may_end_turn_automatically(s) && only_end_turn(s)) end_turn(s);
}

// The action itself and its sightings, before the event is finished and the turn settled.
void apply_unsettled(GameState& s, int32_t id) {
  const Action a = action_space(s).decode(id);
  const int player = s.current_player;
  switch (a.block) {
    case kBlockEndTurn: end_turn(s); break;
    case kBlockResearch: research(s, player, a.arg); break;
    case kBlockLevelUp: apply_level_up(s, a.arg); break;
    case kBlockDeclareWar: declare_war(s, player, (player + a.arg) % s.num_players); break;
    case kBlockSendStars: send_stars(s, player, (player + a.arg) % s.num_players, a.amount); break;
    case kBlockBuildRoad: build_road(s, player, a.target); break;
    case kBlockSpawn: spawn(s, a.source, a.arg); break;
    case kBlockBuild: apply_build(s, acting_city_for_tile(s, a.target), a.target, a.arg); break;
    case kBlockTileAction: apply_tile_action(s, acting_city_for_tile(s, a.target), a.target, a.arg); break;
    case kBlockUnitSelf: apply_unit_self(s, s.tiles[a.source].unit, a.arg); break;
    case kBlockAttack: {
      const int slot = s.tiles[a.source].unit;
      if (s.units[slot].type == kMindBender) resolve_convert(s, slot, a.target);
      else resolve_attack(s, slot, a.target);
      break;
    }
    case kBlockMove: move_unit(s, s.tiles[a.source].unit, a.target); break;
  }
  s.actions_applied++;
  note_new_sightings(s);
}

}  // namespace

namespace {

void apply_with_event(GameState& s, int32_t id, EventSink* sink) {
  if (sink) {  // a WorldEvent is large: built only for a sink
    WorldEvent event = begin_event(s, id);
    apply_unsettled(s, id);
    finish_event(s, event);
    sink->on_event(s, event);
  } else {
    apply_unsettled(s, id);
  }
}

}  // namespace

void apply_action(GameState& s, int32_t id, EventSink* sink) {
  apply_with_event(s, id, sink);
  settle(s);
}

int apply_action_and_list(GameState& s, int32_t id, int32_t* out, int capacity, MoveCache* cache, EventSink* sink) {
  apply_with_event(s, id, sink);
  // settle(), with only_end_turn read off the list the caller needs anyway: the same states
  // as apply_action then legal_actions.
  find_pending(s);
  for (;;) {
    const int total = legal_actions(s, out, capacity, cache);
    const bool only_end_turn = total == 1 && out[0] == 0;  // for_each_legal's order: End Turn first
    if (!may_end_turn_automatically(s) || !only_end_turn) return total;
    end_turn(s);
  }
}

void settle_turn(GameState& s) { settle(s); }

}  // namespace polyenv
