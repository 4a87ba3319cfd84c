// belief_fit.hpp — fitting a completed view to its observer's own legal action list.
//
// Seed 002 requires every particle of the player to move to reproduce its live
// legal action list exactly, and that list is part of what the player observes.
// Some of what decides it lies in rows the player cannot see, so a completion
// that leaves them empty can be refused although nothing in it contradicts the
// observation. The list proves what is there, and the fit adds the least that
// explains it, to hidden rows only:
//  * a unit of another tribe on a hidden tile next to a visible one, whose zone
//    of control (RULES §6: entering a tile next to another tribe's unit ends the
//    move) stops the moves the hypothesis has and the list lacks;
//  * the observer's own territory on a hidden tile, with the terrain, resource or
//    building its listed builds and tile actions need (a city's border can grow
//    over tiles its owner never explored, §8), or no territory where the
//    hypothesis lists actions on a hidden tile the live list lacks;
//  * a building on a hidden tile: the base building a listed bonus building needs
//    next to it (§9.2), or the one-per-city building that makes a build the
//    hypothesis lists illegal in the live game.
// Candidates are tried one at a time with the engine's own legal list (never a
// second copy of a rule): the one that leaves the fewest differences is kept,
// provided it removes no action both lists share, until the lists are equal.
#pragma once
#include <cstdint>
#include <vector>

#include "../encode/token_reader.hpp"

namespace polyenv {

struct BeliefFitScratch {
  GameState world;
  std::vector<int32_t> ids, trial, best;
};

struct BeliefFit {
  int stand_ins = 0;   // rows changed
  bool exact = false;  // the built world has exactly the live list
};

// Fits `tokens` ([tiles, 23], k.observer's completed view) to `live` (the
// observer's live legal ids, ascending, `n` of them; the observer is to move).
// Reads nothing but the tokens, the knowledge and the list, and is
// deterministic; visible rows never change. A hypothesis that does not build
// is left as it is (submit_beliefs reports why). When no exact fit is found the
// tokens keep the closest one.
BeliefFit fit_to_legal_actions(const PlayerKnowledge& k, int32_t* tokens, const int32_t* live, int n,
                               BeliefFitScratch& sc);

}  // namespace polyenv
