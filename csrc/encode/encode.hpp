// encode.hpp — the one encoder. Reads a GameState for one observing player and
// writes the dense seed-000 layouts into caller-provided memory. It never
// allocates and never changes the game.
#pragma once
#include <array>
#include <climits>
#include <cstdint>

#include "../engine/game.hpp"
#include "layout.hpp"

namespace polyenv {

// The column counts and names of every layout written here: layout.hpp.

// [num_tiles, 23] int32, row-major by tile index. `zero_tiles` (optional, in/out,
// explored_words() words): bit t set = tile t's token is already all zero in
// `out` (a buffer whose last write the caller tracks), so it is not rewritten
// while it stays unexplored; on return, the bits of the tiles left all zero.
void encode_map_tokens(const GameState& s, int observer, int32_t* out, uint64_t* zero_tiles = nullptr);
// [11] int32.
void encode_state(const GameState& s, int observer, int32_t* out);

struct ActionRows {
  int rows = 0;        // rows written (legal_action_count)
  int total = 0;       // legal actions before truncation
  bool truncated = false;
};
// Writes the legal actions of `observer` (none unless it is the current
// player) into max_actions padded rows: action_id [A] (-1 padding),
// features [A,17], arg_mask [A,12], action_mask [A]. Truncation keeps the
// canonical prefix and reserves the last row for EndTurn when it is legal.
// With combat_preview=false the two damage columns are -1.
// `cache` (optional) speeds up repeated enumeration (see MoveCache).
// `zero_from`: rows at and beyond it already hold all-zero features and arg
// mask (a buffer whose last write the caller tracks), so only the padding rows
// before it are cleared; ids and the mask of every padding row are always written.
// `listed` >= 0: action_id already holds what legal_actions(s, action_id, max_actions, ...)
// wrote, `listed` ids in all (e.g. from apply_action_and_list): no enumeration.
ActionRows encode_action_rows(const GameState& s, int observer, int max_actions, bool combat_preview,
                              int32_t* action_id, int32_t* features, uint8_t* arg_mask, uint8_t* action_mask,
                              MoveCache* cache = nullptr, int zero_from = INT_MAX, int listed = -1);
// The current player's legal ids as encode_action_rows lists them (canonical
// prefix of at most max_actions ids, EndTurn kept on truncation), without features.
ActionRows canonical_action_ids(const GameState& s, int32_t* action_id, int max_actions, MoveCache* cache = nullptr);
// The same from a list legal_actions(s, action_id, max_actions, ...) already wrote, of `total` ids.
ActionRows canonical_prefix(const GameState& s, int32_t* action_id, int max_actions, int total);

// One model row (seed 000/002 core): map tokens, state and padded action rows
// of `observer`, written to caller memory (pointers to the row's first element).
struct ModelRow {
  int32_t* map_tokens;
  int32_t* state;
  int32_t* action_id;
  int32_t* action_features;
  uint8_t* action_arg_mask;
  uint8_t* action_mask;
};
// What the caller knows about the memory of a reused row, kept up to date by
// encode_model_row (see csrc/vector/buffer_memo.hpp): the `zero_from` of
// encode_action_rows and the `zero_tiles` of encode_map_tokens.
struct RowMemo {
  int* padding_from = nullptr;     // null: nothing known
  uint64_t* zero_tiles = nullptr;  // null: nothing known
};
ActionRows encode_model_row(const GameState& s, int observer, int max_actions, bool combat_preview, const ModelRow& row,
                            MoveCache* cache = nullptr, const RowMemo& memo = {}, int listed = -1);

// Encodes `rows` action ids already in `action_id` (no enumeration): features,
// arg mask and action mask (all 1) of each row.
void encode_listed_rows(const GameState& s, int observer, int rows, bool combat_preview, const int32_t* action_id,
                        int32_t* features, uint8_t* arg_mask, uint8_t* action_mask);

// One action's 17 features and 12 arg-mask flags (used by the row encoder).
void encode_action(const GameState& s, int observer, int32_t id, bool combat_preview, int32_t* features,
                   uint8_t* arg_mask);

}  // namespace polyenv
