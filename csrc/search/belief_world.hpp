// belief_world.hpp — detached belief worlds for belief-ISMCTS (seed 002).
//
// A belief world is a GameState read from one player's completed map tokens
// and its PlayerKnowledge by encode/token_reader.hpp (world_from_tokens); this
// file adds what the pools need around it: the world's random seed from public
// metadata and the tokens only (belief_seed), and the check that a submitted
// hypothesis keeps every visible row of the observation (check_visible_rows).
#pragma once
#include <cstdint>
#include <string>

#include "../encode/token_reader.hpp"

namespace polyenv {

// A synthetic RNG seed from public metadata (turn, actions applied, observer)
// and a hash of the submitted tokens; `salt` separates pools and roles.
uint64_t belief_seed(const GameState& header, int observer, const int32_t* tokens, int tiles, uint64_t salt);

// Empty string when `particle` keeps column 0 of `obs` and every row whose
// column 0 is 1 unchanged, and fills every hidden row (a hidden row left as the
// observation's all-zero fog row is no hypothesis); else a description of the
// first problem, in words a caller can act on.
std::string check_visible_rows(const int32_t* obs, const int32_t* particle, int tiles);

}  // namespace polyenv
