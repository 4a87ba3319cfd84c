// description.hpp — the static description of a game configuration (OpenSpiel's
// `Game` beside `State`): sizes, the action-id layout, the turn limit and the
// value range of every observation column, computed from the configuration
// alone — no GameState is built. The Python faces read it instead of keeping
// copies of engine facts.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

#include "../engine/actions.hpp"
#include "encode.hpp"

namespace polyenv {

// The inclusive value range of one column and the rule that bounds it.
struct ColumnRange {
  int32_t low = 0;
  int32_t high = 0;
  const char* why = "";  // the rule (RULES.md §) or the storage type that gives the range
};

// One block of the action-id layout (actions.hpp), in id order.
struct ActionBlockInfo {
  const char* name = "";
  int32_t offset = 0;
  int32_t size = 0;
  bool uses_source = false;  // ids of the block name a source tile (the acting unit or city)
  bool uses_target = false;  // ids of the block name a target tile
};

inline constexpr std::array<const char*, kNumBlocks> kActionBlockNames = {
    "end_turn", "research", "level_up", "declare_war", "send_stars", "build_road",
    "spawn", "build", "tile_action", "unit_self", "attack", "move"};

// What an action kind encodes to: its block and, for the tile-action and
// unit-self kinds, the fixed arg of the kind within the block (else -1).
struct ActionKindLayout {
  int block = 0;
  int arg = -1;
};
ActionKindLayout action_kind_layout(int kind);

struct GameDescription {
  int map_size = 0;
  int num_players = 0;
  int num_tiles = 0;
  int mode = 0;        // GameMode
  int turn_limit = 0;  // last round played
  bool full_observability = false;
  int max_actions = 0;  // padded action rows of an observation
  int action_space_size = 0;
  uint64_t action_space_fingerprint = 0;
  std::array<ActionBlockInfo, kNumBlocks> blocks{};
  std::array<ColumnRange, kMapTokenFeatures> map_token_ranges{};
  std::array<ColumnRange, kStateFeatures> state_ranges{};
  std::array<ColumnRange, kActionFeatures> action_feature_ranges{};
};

// The description of a generated map (or a blank board) of `map_size` with
// `num_players` players. Validates every argument with the engine's own rules
// (one player-count rule, map and turn limits); throws InvalidArgument.
GameDescription describe_config(int map_size, int num_players, int mode, int max_turns, bool full_observability,
                              int max_actions, bool single_tribe_level = false);
// The description of a game on a Tribes CSV level: the level is parsed and
// checked as setup would (its size, its capitals against `tribes`), not played.
GameDescription describe_level(std::string_view csv, const std::vector<int8_t>& tribes, int mode, int max_turns,
                               bool full_observability, int max_actions);

}  // namespace polyenv
