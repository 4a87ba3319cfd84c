// belief_world.cpp — the belief seed and the visible-row check (belief_world.hpp).
#include "belief_world.hpp"
#include "fnv.hpp"

#include <algorithm>
#include <cstring>

#include "../encode/layout.hpp"

namespace polyenv {

namespace {

constexpr int F = kMapTokenFeatures;

std::string at_tile(int t) { return "tile " + std::to_string(t) + ": "; }

}  // namespace

uint64_t belief_seed(const GameState& header, int observer, const int32_t* tokens, int tiles, uint64_t salt) {
  Fnv f;
  f.add(salt);
  f.add(header.tick);
  f.add(header.turns_played);
  f.add(header.current_player);
  f.add(observer);
  f.add(tokens, sizeof(int32_t) * size_t(tiles) * F);
  uint64_t x = f.h;
  return splitmix64(x);
}

std::string check_visible_rows(const int32_t* obs, const int32_t* particle, int tiles) {
  for (int t = 0; t < tiles; ++t) {
    const int32_t* o = obs + size_t(t) * F;
    const int32_t* p = particle + size_t(t) * F;
    if (o[kColExplored] != p[kColExplored]) return at_tile(t) + "column 0 (visibility) differs from the observation";
    if (o[kColExplored] != 0 && std::memcmp(o, p, sizeof(int32_t) * F) != 0) {
      return at_tile(t) + "a visible row differs from the observation";
    }
  }
  for (int t = 0; t < tiles; ++t) {
    const int32_t* p = particle + size_t(t) * F;
    if (p[kColExplored] == 0 && std::all_of(p, p + F, [](int32_t v) { return v == 0; })) {
      return at_tile(t) + "a hidden row (column 0 = 0) is still the observation's all-zero fog row: every hidden "
             "row must be filled with a hypothesis of what is there (polyenv.selfplay.beliefs."
             "empty_world_completion(map_tokens, request=..., pool=...) fills them with a baseline)";
    }
  }
  return {};
}

}  // namespace polyenv
