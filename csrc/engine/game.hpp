// game.hpp — the engine's public functions: setting up a game, the legal
// action list, the transition function, and the queries the encoders and
// bindings use. Nothing here knows of Python, threads or tensors.
#pragma once
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "actions.hpp"
#include "state.hpp"

namespace polyenv {

// Invalid user input (bad map size, malformed level, illegal action...).
struct InvalidArgument : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// From an array, not an initializer list: GCC 12 under -fsanitize=thread warns (falsely) that the
// list's backing array may be used uninitialized when a GameConfig is default-constructed inline.
inline constexpr std::array<int8_t, 2> kDefaultTribes = {kBardur, kImperius};

struct GameConfig {
  int map_size = 11;
  std::vector<int8_t> tribes = std::vector<int8_t>(kDefaultTribes.begin(), kDefaultTribes.end());  // TribeKind per player, turn order
  GameMode mode = kCapitals;
  int max_turns = -1;               // -1: the mode's limit (50 Capitals, 30 Score)
  bool full_observability = false;  // fog of war is on by default
};

// The rule values of a configuration given as plain integers (the bindings' arguments): mode
// kCapitals (0) or kScore (1), max_turns -1 (the mode's limit) or >= 0. Throws InvalidArgument.
// (max_turns' upper bound, kMaxTurnLimit, is checked where a game is set up or described.)
void check_game_rules(int mode, int max_turns);
// A GameConfig from plain values, after check_game_rules(mode, max_turns); the map size and the
// tribes are checked where a game is set up (setup_game, check_episodes).
GameConfig make_game_config(int map_size, std::vector<int8_t> tribes, int mode, int max_turns,
                            bool full_observability);

// A board before the game starts: terrain and resources, and the capitals in
// turn order (tile index, tribe). Produced by the generator or a CSV file.
struct Level {
  int size = 0;
  std::vector<int8_t> terrain;   // size*size, row-major x*size+y
  std::vector<int8_t> resource;  // Resource or kNoResource
  std::vector<int16_t> capital_tiles;
  std::vector<int8_t> capital_tribes;
};

// §1.4: generator. Deterministic in seed; tribes.size() players.
Level generate_level(int map_size, const std::vector<int8_t>& tribes, uint64_t seed);
// §1.3: Tribes CSV level text. Throws InvalidArgument naming line and token.
Level parse_level_csv(std::string_view text);
// Writes a level in the CSV format (inverse of parse_level_csv).
std::string level_to_csv(const Level& level);

// The one player-count rule of every entry point (generated maps, levels, blank
// boards, vector envs): kMinPlayers..kMaxPlayers (2..16). The single exception
// is `single_tribe_level`: a level with exactly one capital played with its own
// tribe (Tribes' MinimalLevel, the RULES.md §1.3/§13 reference position).
// Throws InvalidArgument.
void check_player_count(int players, bool single_tribe_level = false);
// The checks setup_game makes of a level played by `tribes` (the level's own
// when `own_tribes`): size, grids, player count, capitals. Throws InvalidArgument.
void check_level(const Level& level, const std::vector<int8_t>& tribes, bool own_tribes);

// Sets `s` to the start of a game on `level`. cfg.tribes, when non-empty,
// replaces the level's tribe keys (count must match). Throws InvalidArgument.
void setup_game(GameState& s, const Level& level, const GameConfig& cfg, uint64_t seed);
// A new game: generated level for cfg (map_size, tribes), seeded.
void new_game(GameState& s, const GameConfig& cfg, uint64_t seed);

// What the legal list reads of the tribes' cities and territory, for one territory
// epoch (cities' owners and borders: world.hpp, touch_territory). And the last list's build and
// tile-action ids (the territory blocks), for one territory epoch, tile epoch (each
// tile's terrain, resource and building: touch_tiles), player and what those rules
// read of the tribe (the buildings it may afford, the tile actions it may take).
struct TileScan {
  // Every tribe's cities (centre tiles) and territory tiles (with the owning city), each
  // tribe's in ascending tile order at [begin[p], begin[p + 1]) of its array.
  uint64_t territory_epoch = 0;
  std::array<int16_t, kMaxPlayers + 1> city_begin{}, territory_begin{};
  std::vector<int16_t> city_tiles, territory, territory_city;
  struct ImprovementKey {
    uint64_t territory_epoch = 0, tile_epoch = 0;  // 0: nothing kept
    int player = -1;
    uint32_t buildings = 0;                          // the buildings the tribe may build anywhere
    std::array<uint32_t, kNumTerrains> by_terrain{};  // the tile-action masks (legal.cpp)
    uint32_t gather = 0, destroy = 0;
    bool operator==(const ImprovementKey&) const = default;
  };
  ImprovementKey improvements_key;
  int num_improvements = 0;
  std::vector<int32_t> improvements;
};

// The movement rules (§6) as tile bitsets for the word-parallel search (move_boards.cpp):
// rows of GameState::explored_words() words, bit t of a row for tile t, like GameState::tile_bits.
// The column masks for one map size, and the acting tribe's step classes for one move epoch and
// player (what they read renews it: touch_moves). Sized on first use.
struct MoveBoards {
  enum ClassRow {
    kLandStep, kLandEnd, kNavalStep, kNavalEnd,  // _End: the step ends the move
    kRoadFrom, kRoadTo,                          // where a road step may start and end
    kEnemyCity,                                  // Mind Benders stay out
    kWater,                                      // embarking and disembarking
    kNumClassRows
  };
  int map_size = 0;         // of `columns`: column 0, column n - 1, the board
  uint64_t move_epoch = 0;  // of `classes`, with `player`; 0: none
  int player = -1;
  std::vector<uint64_t> columns, classes;
};

// Remembers each unit's reachable tiles between enumerations. A cached reach is
// reused while the unit's id, tile and the state's move_epoch are unchanged
// (the epoch is process-unique, so one cache may serve any state). Owned by a
// caller that enumerates repeatedly (GameEnv, VectorGameEnv, bots); not thread-safe.
struct MoveCache {
  struct Entry {
    uint64_t epoch = 0;
    uint32_t offset = 0;  // in `pool`
    int32_t uid = 0;
    int16_t tile = -1;
    int16_t first_word = 0, num_words = 0;  // the reach: these words of a tile bitset
  };
  std::vector<Entry> entries;  // by unit slot
  std::vector<uint64_t> pool;  // reach words, bump-allocated; cleared when full
  uint32_t used = 0;
  TileScan scan;      // territory (legal_actions)
  MoveBoards boards;  // the movement search's bitsets
};

// Writes the legal ids of the current player in ascending (canonical) order,
// at most `capacity` of them, and returns how many are legal in total.
int legal_actions(const GameState& s, int32_t* out, int capacity, MoveCache* cache = nullptr);
// (Its slow reference enumeration, legal_actions_reference, is a test oracle: engine/check/oracles.hpp.)
// True when `id` is a legal action now.
bool is_legal(const GameState& s, int32_t id);
struct EventSink;  // events.hpp
// Applies a legal action (unchecked: call is_legal first), then ends the turn
// automatically while End Turn is the current player's only legal action.
// With a sink, the action's WorldEvent is delivered to it (events.hpp).
void apply_action(GameState& s, int32_t id, EventSink* sink = nullptr);
// apply_action followed by legal_actions(s, out, capacity, cache) (capacity >= 1), returning
// the list's length: the automatic End Turn reads that list instead of testing only_end_turn
// first. The same states and list as the two calls.
int apply_action_and_list(GameState& s, int32_t id, int32_t* out, int capacity, MoveCache* cache,
                          EventSink* sink = nullptr);

inline ActionSpace action_space(const GameState& s) { return ActionSpace(s.map_size, s.num_players); }

// ---- queries used by encoders, bots and bindings
int tech_cost(const GameState& s, int player, int tech);
int star_income(const GameState& s, int player);   // next turn's income
int city_production(const GameState& s, int city);
// Whether `player` has explored `tile` (always true under full observability).
bool tile_explored(const GameState& s, int player, int tile);
// The player's score minus the best score among the other players (eliminated ones included).
int score_margin(const GameState& s, int player);
// The players the engine has eliminated (lost their last city): bit p set for player p.
uint32_t eliminated_mask(const GameState& s);
struct CombatOutcome { int dealt = 0; int retaliation = 0; bool kills = false; bool counter = false; };
// Damage of an attack by the unit on `attacker_tile` on the unit on `target_tile`.
CombatOutcome combat_preview(const GameState& s, int attacker_tile, int target_tile);
// Stars an action costs (negative: it gains stars) and the population it adds.
int action_star_cost(const GameState& s, const Action& a);
int action_population_gain(const GameState& s, const Action& a);
// Fine-grained kind (ActionKind) of a decoded action in this state.
int action_kind(const GameState& s, const Action& a);
std::string describe_action(const GameState& s, int32_t id);
// The observer's alias of the unit in `slot` (1, 2, ... in the order it first saw
// units; -1 not seen yet). Never the global id.
int32_t observed_unit_id(const GameState& s, int observer, int slot);
// Relative seat of `other` seen from `self`: 0 self, 1 next in turn order, ...
inline int relative_player(const GameState& s, int self, int other) {
  return (other - self + s.num_players) % s.num_players;
}
// The one ownership code of every observation (map tokens, events): 0 none,
// 1 the observer, 2.. the others in turn order (1 + relative_player).
inline int32_t owner_code(const GameState& s, int observer, int owner) {
  return owner < 0 ? 0 : 1 + relative_player(s, observer, owner);
}
// Whether `p`'s observations show `resource`: §4's revealing tech, or any tech with a legal action
// on it. The observation must explain the observer's own legal list: Zebasi starts with Farming
// without Organization (§2), and "build farm" is legal on crops §4 alone would hide.
inline bool sees_resource(const Player& p, int resource) {
  const int reveal = revealing_tech(resource);
  return reveal == kNoTech || p.has(reveal) || (p.techs & techs_acting_on(resource)) != 0;
}
// Checks every invariant (cached counters vs recomputed values, tile/unit
// back-references). Returns an empty string when consistent, else the first problem.
// Defined with the test oracles in engine/check/invariants.cpp.
std::string check_invariants(const GameState& s);
// The load bounds of the counters whose growth no invariant bounds (counter_limits.hpp): "" or the
// first one a loaded state exceeds. deserialize checks it with check_invariants.
std::string check_loadable_counters(const GameState& s);
// Scores in player order, and the final ranking (best first) per §12.2.
std::vector<int> ranking(const GameState& s);

// ---- serialization (versioned; from_bytes(to_bytes(s)) == s)
std::string serialize(const GameState& s);
void deserialize(GameState& s, std::string_view bytes);  // throws InvalidArgument

}  // namespace polyenv

namespace polyenv {

// ---- scenario editing (scenario.cpp). Each validates first and throws
// InvalidArgument without changing anything.
void blank_game(GameState& s, int map_size, const std::vector<int8_t>& tribes, int terrain, GameMode mode,
                int max_turns, uint64_t seed, bool revealed = true, bool full_observability = false);
void edit_set_terrain(GameState& s, int tile, int terrain);
void edit_set_resource(GameState& s, int tile, int resource);
// Returns the unit's slot.
int edit_place_unit(GameState& s, int player, int type, int tile, int hp, bool veteran, int kills, int status,
                    int carried_type);
void edit_place_city(GameState& s, int player, int tile, int level, int population, bool walls, bool capital);
// with_effects: placed as the build action places it (population, adjacency
// bonuses, score; no star cost, no tech or adjacency requirement) on a tile
// without a building; otherwise a bare tile (no effect at all).
void edit_set_building(GameState& s, int tile, int building, bool with_effects = false);
// Sets a city's population (in [-level, 1000]); a level-up becomes pending as in play.
void edit_set_population(GameState& s, int tile, int population);
void edit_set_road(GameState& s, int tile);
void edit_grant_tech(GameState& s, int player, int tech);
void edit_set_stars(GameState& s, int player, int stars);
void edit_reveal(GameState& s, int player, const std::vector<int>& tiles);  // empty: every tile
void edit_set_current_player(GameState& s, int player);
void edit_remove_unit(GameState& s, int tile);

// Credits `n` stars to `player` as play does (Send Stars, income): capped at MAX_STARS, and the
// Emperor's Tomb becomes available at 100 (§9.2).
void credit_stars(GameState& s, int player, int n);

// Derives every cache of a state whose tiles, cities, units and players were written field
// by field (a belief world): road links, the pending level-up city, the observed unit ids of
// what each player sees, the tile bitsets, and new territory / move epochs.
void rebuild_derived_state(GameState& s);

// Test oracle (polyenv._core._testing.impose, the lockstep games): sets one counter to a value play could not reach directly,
// keeping what depends on it consistent. `field`: "score" (index: player), "worth",
// "population", "production" (index: a city's tile), "techs", "met" (index: player; value a
// bit mask), "home_city" (index: a unit's tile; value: a city's tile or -1), "allegiance"
// (index: player * num_players + other). Throws InvalidArgument without changing anything.
void impose_value(GameState& s, std::string_view field, int index, int value);

}  // namespace polyenv
