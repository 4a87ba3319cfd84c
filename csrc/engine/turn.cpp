// §12 turn structure: turn start (income, temples, unit refresh), turn end
// (automatic recovery, game-over check, next player), game end and ranking.
#include <algorithm>
#include <tuple>

#include "mechanics.hpp"

namespace polyenv {

namespace {

bool holds_every_original_capital(const GameState& s, int player) {
  bool any = false;
  for (const City& c : s.cities) {
    if (!(c.flags & kCityOriginalCapital)) continue;
    if (c.owner != player) return false;
    any = true;
  }
  return any;
}

int alive_count(const GameState& s) {
  int n = 0;
  for (const Player& p : s.players) n += p.alive;
  return n;
}

int total_production(const GameState& s, int player) {
  int total = 0;
  for (int i = 0; i < int(s.cities.size()); ++i) {
    if (s.cities[i].owner == player) total += city_production(s, i);
  }
  return total;
}

// Ranking order (§12.2): WIN status (then still playing, then eliminated),
// score, techs, cities, production, wars declared, stars sent, tie-break key.
std::vector<int> rank_players(const GameState& s, const uint32_t* tiebreak) {
  std::vector<int> order(s.num_players);
  for (int i = 0; i < s.num_players; ++i) order[i] = i;
  auto key = [&](int i) {
    const Player& p = s.players[i];
    int status = p.result == kWin ? 2 : p.alive ? 1 : 0;
    return std::make_tuple(status, p.score, count_known_techs(p), int(p.num_cities), total_production(s, i),
                           int(p.wars_declared), p.stars_sent, tiebreak ? tiebreak[i] : uint32_t(s.num_players - i));
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(a) > key(b); });
  return order;
}

void recover_fresh_units(GameState& s, int player) {
  for (Unit& u : s.units) {
    if (!u.alive() || u.owner != player || u.status != kFresh || u.hp >= u.max_hp) continue;
    int heal = s.tile_owner(u.tile) == player ? kRecoverHpInTerritory : kRecoverHp;
    u.hp = int16_t(std::min<int>(u.max_hp, u.hp + heal));
    u.status = kFinished;  // as the Recover action it is
  }
}

// Temples stand in the tribe's territory, and a city's tiles lie within its bound of the centre
// (claim_territory; checked by check_invariants): the tribe's cities' squares hold them all, so
// the rest of the board is not visited. Each temple ages on its own, so the order is free.
void tick_temples(GameState& s, int player) {
  Tile* const tiles = s.tiles.data();
  const int n = s.map_size;
  for (int ci = 0; ci < int(s.cities.size()); ++ci) {
    const City& c = s.cities[ci];
    if (c.owner != player) continue;
    const int x = c.tile / n, y = c.tile % n, r = c.bound;
    const int y0 = std::max(y - r, 0), y1 = std::min(y + r, n - 1);
    for (int tx = std::max(x - r, 0); tx <= std::min(x + r, n - 1); ++tx) {
      for (int t = tx * n + y0; t <= tx * n + y1; ++t) {
        Tile& tile = tiles[t];
        if (tile.city != ci || !is_temple(tile.building) || tile.building_level >= kMaxTempleLevel) continue;
        if (++tile.temple_turns < kTempleTurnsPerLevel) continue;
        tile.temple_turns = 0;
        tile.building_level++;
        add_city_worth(s, ci, kTempleLevelScore[tile.building_level - 1]);
      }
    }
  }
}

}  // namespace

std::vector<int> ranking(const GameState& s) { return rank_players(s, nullptr); }

void finish_game(GameState& s, int forced_winner) {
  uint32_t tiebreak[kMaxPlayers];
  for (int i = 0; i < s.num_players; ++i) tiebreak[i] = s.rng.next();
  if (forced_winner >= 0) s.players[forced_winner].result = kWin;
  std::vector<int> order = rank_players(s, tiebreak);
  for (int i = 0; i < s.num_players; ++i) s.players[order[i]].result = i == 0 ? kWin : kLoss;
  s.winner = int8_t(order[0]);
  s.game_over = 1;
  s.pending_city = -1;
}

void start_turn(GameState& s) {
  const int player = s.current_player;
  Player& p = s.players[player];
  s.turns_played++;
  touch_moves(s);  // another player's units are searched from now on
  if (s.tick == 0) p.stars = kStartingStars;
  else gain_stars(s, player, star_income(s, player));
  tick_temples(s, player);
  for (Unit& u : s.units) {
    if (u.alive() && u.owner == player) u.status = u.status == kPushed ? kMoved : kFresh;
  }
  // Exactly the 5th turn (Tribes' `== ALTAR_OF_PEACE_TURNS`): once built, the Altar returns only
  // after an attack restarts the count.
  if (p.has(kMeditation) && ++p.pacifist_turns == kAltarPacifistTurns) {
    make_monument_available(s, player, kAltarOfPeace);
  }
  p.stars_sent_this_turn = 0;
  p.declared_war_this_turn = 0;
  s.pending_city = int16_t(find_pending_city(s));
}

void end_turn(GameState& s) {
  const int player = s.current_player;
  recover_fresh_units(s, player);
  if (s.mode == kCapitals) {
    for (int i = 0; i < s.num_players; ++i) {
      if (s.players[i].alive && holds_every_original_capital(s, i)) { finish_game(s, i); return; }
    }
  }
  if (alive_count(s) <= 1) { finish_game(s, -1); return; }
  int next = player;
  do {
    next = (next + 1) % s.num_players;
    if (next == 0) s.tick++;
  } while (!s.players[next].alive);
  if (s.tick > s.turn_limit) { finish_game(s, -1); return; }
  s.current_player = int8_t(next);
  start_turn(s);
}

}  // namespace polyenv
