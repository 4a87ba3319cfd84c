// token_reader.hpp — map tokens back into a world: the reader of the layout
// map_tokens.cpp writes (encode/layout.hpp names every column and flag bit).
//
// One player's completed map tokens ([tiles, 23]: the observation with its
// hidden rows filled by a hypothesis) plus what that player legitimately knows
// beyond its map (PlayerKnowledge: the public game header, tribes, results,
// diplomacy, every player's fog mask, its own Player entry and cities) become a
// GameState. The reader never sees the authoritative state, so nothing hidden
// from the observer can reach the world it builds; what the tokens do not say is
// synthesised, never copied: opponents' stars, techs (their tribe's starting tech
// only), scores, alias keys and unit ids (inverted from the observed ids where
// possible), and the world's random stream, from the caller's seed.
// search/belief_world.hpp builds belief worlds with it.
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

// The world of `k.observer` read from `tokens` ([tiles, 23]), its random stream
// seeded from `seed`. Returns an empty string on success, else why the tokens
// are no consistent world (`out` is then unspecified).
std::string world_from_tokens(const PlayerKnowledge& k, const int32_t* tokens, uint64_t seed, GameState& out);

}  // namespace polyenv
