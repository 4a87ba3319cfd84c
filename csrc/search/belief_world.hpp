// belief_world.hpp — detached belief worlds for belief-ISMCTS (seed 002).
//
// A belief world is a GameState built from one player's completed map tokens
// ([tiles, 23], the observation with its hidden rows filled by a model) plus
// what that player legitimately knows beyond its map: the public game header
// (size, mode, turn, current player, tribes, results, diplomacy) and its own
// records (its Player entry, its own cities). Both are extracted into a
// PlayerKnowledge value first, so the builder never sees the authoritative
// state: nothing hidden from the observer can reach the world.
//
// What the tokens do not say is synthesised, never copied: opponents' stars,
// techs (their tribe's starting tech only), scores, alias keys and unit ids
// (inverted from the observed ids where possible), and the world's random
// stream, seeded from belief_seed() — public metadata and the tokens only.
// Every player's fog is its own live observation mask.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "../engine/game.hpp"

namespace polyenv {

// Everything a belief world may use besides the tokens (see above).
struct PlayerKnowledge {
  int observer = 0;
  GameState header;                 // public header fields only: no tiles, units or cities
  std::vector<Player> public_players;  // tribe, result, alive, diplomacy; the observer's own entry complete
  std::vector<City> own_cities;     // the observer's cities (tile, level, population, ...)
  int16_t own_capital_tile = -1;    // tile of the observer's starting capital, -1 unknown
  // Every player's explored mask (each is that player's own observation
  // mask); leaves then encode each actor's view through its own fog.
  std::vector<uint64_t> explored;
  std::vector<int16_t> explored_count;
};

// Extracts `observer`'s knowledge of a live game.
void extract_knowledge(const GameState& live, int observer, PlayerKnowledge& out);

// A synthetic RNG seed from public metadata (turn, actions applied, observer)
// and a hash of the submitted tokens; `salt` separates pools and roles.
uint64_t belief_seed(const GameState& header, int observer, const int32_t* tokens, int tiles, uint64_t salt);

// Empty string when `particle` keeps column 0 of `obs` and every row whose
// column 0 is 1 unchanged, and fills every hidden row (a hidden row left as the
// observation's all-zero fog row is no hypothesis); else a description of the
// first problem, in words a caller can act on.
std::string check_visible_rows(const int32_t* obs, const int32_t* particle, int tiles);

// Builds the belief world of `k.observer` from `tokens` ([tiles, 23]).
// Returns an empty string on success, else why the hypothesis is malformed
// (`out` is then unspecified).
std::string build_belief_world(const PlayerKnowledge& k, const int32_t* tokens, uint64_t seed, GameState& out);

}  // namespace polyenv
