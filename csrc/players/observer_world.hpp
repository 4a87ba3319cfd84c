// observer_world.hpp — a world built from one player's own view: what a player
// that must not read hidden state searches in under fog of war.
//
// The baseline belief (the one polyenv.selfplay.beliefs.empty_world_completion
// gives SelfPlayPool): the observer's map tokens with every hidden row an empty
// deep-water tile; a level-1 city of its owner on a hidden centre that a visible
// territory points at, or, when the observer never saw that owner's centre, on
// the nearest hidden tile; a guessed capital for every opponent without a visible
// one (capitals mode: a world without it would end at the first End Turn); then
// fitted to the observer's live legal list (belief_fit.hpp), read into a world
// by the token reader. Nothing but the observation, the observer's knowledge
// and its legal list is read, so two games that differ only in what the
// observer cannot see give the same world.
#pragma once
#include <cstdint>
#include <vector>

#include "belief_fit.hpp"

namespace polyenv {

struct ObserverWorldScratch {
  PlayerKnowledge know;
  BeliefFitScratch fit;
  std::vector<int32_t> tokens, live_ids;
  std::vector<uint8_t> hidden;
};

// Fills every hidden row of `tokens` ([tiles, 23], an observation of a game with
// `players` players on a map of side `map_size`) with the baseline belief above
// (everything but the fit). Visible rows never change.
void complete_hidden_rows(int32_t* tokens, int map_size, int players, std::vector<uint8_t>& hidden);

// The baseline-belief world of `live`'s current player, its random stream seeded
// from `seed`. True when the world reproduces that player's live legal list
// exactly (then `out` is ready to search); false otherwise (`out` unspecified).
bool observer_world(const GameState& live, uint64_t seed, ObserverWorldScratch& sc, GameState& out);

}  // namespace polyenv
