// model_row.cpp — one complete model row (map tokens, state, action rows): the
// row writer shared by VectorEnv and the MCTS pools' live and leaf batches.
#include "encode.hpp"

namespace polyenv {

ActionRows encode_model_row(const GameState& s, int observer, int max_actions, bool combat_preview, const ModelRow& row,
                            MoveCache* cache, int zero_from) {
  encode_map_tokens(s, observer, row.map_tokens);
  encode_state(s, observer, row.state);
  return encode_action_rows(s, observer, max_actions, combat_preview, row.action_id, row.action_features,
                            row.action_arg_mask, row.action_mask, cache, zero_from);
}

}  // namespace polyenv
