// model_row.cpp — one complete model row (map tokens, state, action rows): the
// row writer shared by VectorEnv and the MCTS pools' live and leaf batches.
#include "encode.hpp"

namespace polyenv {

ActionRows encode_model_row(const GameState& s, int observer, int max_actions, bool combat_preview, const ModelRow& row,
                            MoveCache* cache, const RowMemo& memo, int listed) {
  encode_map_tokens(s, observer, row.map_tokens, memo.zero_tiles);
  encode_state(s, observer, row.state);
  const ActionRows r = encode_action_rows(s, observer, max_actions, combat_preview, row.action_id, row.action_features,
                                          row.action_arg_mask, row.action_mask, cache,
                                          memo.padding_from ? *memo.padding_from : INT_MAX, listed);
  if (memo.padding_from) *memo.padding_from = r.rows;
  return r;
}

}  // namespace polyenv
