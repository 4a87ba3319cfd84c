// vector_rows.cpp — VectorEnv's row writer (vector_env.hpp): one batch row
// from a live environment (model row, the observer's event window, legal
// counts, env id) and the final-observation fields.
#include <cstring>

#include "vector_env.hpp"

namespace polyenv {

void VectorEnv::write_window(const Env& e, int observer, int row, const BatchView& out,
                             const ObservationFields& fields) const {
  const int K = cfg_.history;
  if (K == 0) return;
  constexpr int kAff = kEventAffectedRows * kEventAffectedFeatures;
  int32_t* features = at<int32_t>(out, fields.event_features, row);
  uint64_t* sequence = at<uint64_t>(out, fields.event_sequence, row);
  uint64_t* action_sequence = at<uint64_t>(out, fields.event_action_sequence, row);
  uint8_t* mask = at<uint8_t>(out, fields.event_mask, row);
  int32_t* affected = at<int32_t>(out, fields.event_affected, row);
  uint8_t* affected_mask = at<uint8_t>(out, fields.event_affected_mask, row);
  const int n = e.journal.kept(observer);
  const int pad = K - n;
  // Left padding: all zero (sequence 0 is never a record's).
  std::memset(features, 0, sizeof(int32_t) * size_t(pad) * kEventFeatures);
  std::memset(sequence, 0, sizeof(uint64_t) * size_t(pad));
  std::memset(action_sequence, 0, sizeof(uint64_t) * size_t(pad));
  std::memset(mask, 0, size_t(pad));
  std::memset(affected, 0, sizeof(int32_t) * size_t(pad) * kAff);
  std::memset(affected_mask, 0, size_t(pad) * kEventAffectedRows);
  // The records, right-aligned after the padding.
  const size_t d = size_t(pad);
  e.journal.write_rows(observer, 0, n,
                       EventRowsOut{features + d * kEventFeatures, affected + d * kAff,
                                    affected_mask + d * kEventAffectedRows, sequence + d, action_sequence + d});
  std::memset(mask + d, 1, size_t(n));
}

void VectorEnv::encode_observation(const Env& e, int observer, int row, const BatchView& out,
                                   const ObservationFields& fields) const {
  encode_map_tokens(e.state, observer, at<int32_t>(out, fields.map_tokens, row));
  encode_state(e.state, observer, at<int32_t>(out, fields.state, row));
  write_window(e, observer, row, out, fields);
}

void VectorEnv::encode_row(Env& e, int env, int row, const BatchView& out, BufferMemos::Memo* memo, int listed) {
  const GameState& s = e.state;
  const int observer = e.observer;
  const ModelRow model{at<int32_t>(out, kBMapTokens, row),      at<int32_t>(out, kBState, row),
                       at<int32_t>(out, kBActionId, row),       at<int32_t>(out, kBActionFeatures, row),
                       at<uint8_t>(out, kBActionArgMask, row),  at<uint8_t>(out, kBActionMask, row)};
  const ActionRows rows = encode_model_row(s, observer, cfg_.max_actions, cfg_.combat_preview, model, &e.moves,
                                           memo ? memo->row(row) : RowMemo{}, listed);
  write_window(e, observer, row, out, kLiveObservation);
  e.cache_legal(at<int32_t>(out, kBActionId, row), rows.rows, !rows.truncated);
  *at<int32_t>(out, kBLegalCount, row) = rows.rows;
  *at<int32_t>(out, kBTotalLegalCount, row) = rows.total;
  *at<uint8_t>(out, kBActionTruncated, row) = rows.truncated ? 1 : 0;
  *at<int32_t>(out, kBEnvId, row) = env;
}

void VectorEnv::zero_final_row(int row, const BatchView& out) const {
  for (int f = kBFinalMapTokens; f < kNumBatchFields; ++f) {
    const size_t bytes = row_bytes_[size_t(f)];
    if (bytes) std::memset(out.get<char>(f) + size_t(row) * bytes, 0, bytes);
  }
}

}  // namespace polyenv
