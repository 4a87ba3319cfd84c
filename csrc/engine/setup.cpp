// Game setup from a Level (§1.3 loading rules, §2 tribes).
#include <string>

#include "mechanics.hpp"

namespace polyenv {

void check_level(const Level& level, const std::vector<int8_t>& tribes, bool own_tribes) {
  const int n = level.size;
  if (n < kMinMapSize || n > kMaxMapSize) {
    throw InvalidArgument("map size " + std::to_string(n) + " is outside [" + std::to_string(kMinMapSize) + ", " +
                          std::to_string(kMaxMapSize) + "]");
  }
  if (int(level.terrain.size()) != n * n || int(level.resource.size()) != n * n) {
    throw InvalidArgument("level grids do not match its size");
  }
  check_player_count(int(tribes.size()), own_tribes && level.capital_tiles.size() == 1);
  if (tribes.size() != level.capital_tiles.size()) {
    throw InvalidArgument("the level has " + std::to_string(level.capital_tiles.size()) + " capitals but " +
                          std::to_string(tribes.size()) + " players were given");
  }
  for (int8_t t : tribes) {
    if (t < 0 || t >= kNumTribes) {
      throw InvalidArgument("tribe key " + std::to_string(t) + " is outside [0, " + std::to_string(kNumTribes - 1) + "]");
    }
  }
  for (int16_t tile : level.capital_tiles) {
    if (tile < 0 || tile >= n * n) throw InvalidArgument("capital tile outside the board");
  }
}

void check_player_count(int players, bool single_tribe_level) {
  if (players == 1 && single_tribe_level) return;
  if (players < kMinPlayers || players > kMaxPlayers) {
    throw InvalidArgument("a game needs " + std::to_string(kMinPlayers) + " to " + std::to_string(kMaxPlayers) +
                          " players, got " + std::to_string(players));
  }
}

void check_game_rules(int mode, int max_turns) {
  if (mode != kCapitals && mode != kScore) throw InvalidArgument("mode must be capitals (0) or score (1)");
  if (max_turns < -1) throw InvalidArgument("max_turns must be None or >= 0");
}

GameConfig make_game_config(int map_size, std::vector<int8_t> tribes, int mode, int max_turns,
                            bool full_observability) {
  check_game_rules(mode, max_turns);
  GameConfig game;
  game.map_size = map_size;
  game.tribes = std::move(tribes);
  game.mode = GameMode(mode);
  game.max_turns = max_turns;
  game.full_observability = full_observability;
  return game;
}

void setup_game(GameState& s, const Level& level, const GameConfig& cfg, uint64_t seed) {
  const std::vector<int8_t>& tribes = cfg.tribes.empty() ? level.capital_tribes : cfg.tribes;
  check_level(level, tribes, cfg.tribes.empty());
  if (cfg.max_turns > kMaxTurnLimit) {
    throw InvalidArgument("max_turns " + std::to_string(cfg.max_turns) + " is above " + std::to_string(kMaxTurnLimit));
  }
  const int n = level.size, tiles = n * n, players = int(tribes.size());
  const bool auto_end = s.auto_end_turn;
  s = GameState{};
  s.auto_end_turn = auto_end;
  s.map_size = int8_t(n);
  s.num_players = int8_t(players);
  s.num_tiles = int16_t(tiles);
  s.mode = cfg.mode;
  s.full_observability = cfg.full_observability;
  s.turn_limit = int16_t(cfg.max_turns >= 0 ? cfg.max_turns : cfg.mode == kScore ? kScoreTurnLimit : kCapitalsTurnLimit);
  uint64_t mix = seed;
  s.rng.seed(splitmix64(mix), splitmix64(mix));

  s.tiles.resize(tiles);
  int villages = 0;
  for (int t = 0; t < tiles; ++t) {
    // Capital tiles are centres (never claimed by a neighbour's border) before create_city founds them.
    s.tiles[t].terrain = level.terrain[t];
    s.tiles[t].resource = level.resource[t];
    villages += level.terrain[t] == kVillage;
  }
  rebuild_tile_bits(s);
  s.units.reserve(tiles);
  s.unit_alias.reserve(size_t(tiles) * size_t(players));
  s.cities.reserve(villages + players);
  s.players.resize(players);
  s.explored.assign(size_t(players) * s.explored_words(), cfg.full_observability ? ~uint64_t(0) : 0);
  for (int i = 0; i < players; ++i) {
    Player& p = s.players[i];
    p.tribe = tribes[i];
    p.stars = kStartingStars;
    if (cfg.full_observability) p.explored_count = int16_t(tiles);
  }
  for (int i = 0; i < players; ++i) {
    const TribeInfo& info = kTribes[tribes[i]];
    const int tile = level.capital_tiles[i];
    const int city = create_city(s, i, tile, true);
    if (tribes[i] == kLuxidoor) {  // §2: capital at level 3 with walls
      s.cities[city].level = kLuxidoorCapitalLevel;
      s.cities[city].flags |= kCityWalls;
    }
    if (info.start_tech != kNoTech) {
      grant_tech(s, i, info.start_tech, false);
      add_score(s, i, kTechs[info.start_tech].tier * kTechScorePerTier);
    }
    const int unit = add_unit(s, i, info.start_unit, tile, city, kFinished);
    add_score(s, i, unit_points(s.units[unit]));
  }
  for (int i = 0; i < players; ++i) reveal_area(s, i, level.capital_tiles[i], kCapitalVisionRadius);
  for (int i = 0; i < players; ++i) update_trade_network(s, i);
  s.current_player = 0;
  s.tick = 0;
  start_turn(s);
  settle_turn(s);
  note_sightings(s);
}

void new_game(GameState& s, const GameConfig& cfg, uint64_t seed) {
  uint64_t mix = seed ^ 0x5DEECE66Dull;
  Level level = generate_level(cfg.map_size, cfg.tribes, splitmix64(mix));
  setup_game(s, level, cfg, splitmix64(mix));
}

}  // namespace polyenv
