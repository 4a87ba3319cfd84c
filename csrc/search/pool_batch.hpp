// pool_batch.hpp — the dense batches of the search pools (seed 002): the live
// game batch, the MCTS leaf batch and the root policy batch. Each is a list of
// FieldSpec (name, dtype, shape) and a view of raw row-major pointers in that order.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "../runtime/model_fields.hpp"

namespace polyenv {

// Live batch: the model fields (runtime/model_fields.hpp), then these.
enum LiveField : int {
  kLEnvId = kNumModelFields, kLToPlay, kLStateId, kLEpisodeId, kLReward, kLTerminated, kLActionValid, kLWinner,
  kLTerminalValues, kNumLiveFields,
};

// Leaf batch: the model fields, then these.
enum LeafField : int {
  kXLeafId = kNumModelFields, kXTreeId, kXEnvId, kXToPlay, kXPlayerCount, kXStateId, kXEpisodeId, kNumLeafFields,
};

enum RootField : int {
  kRActionId, kRActionMask, kRVisitCount, kRPolicy, kRRootValue, kRRootVisitCount, kRRootPlayer, kRPlayerCount,
  kREnvId, kRStateId, kREpisodeId, kRImprovedPolicy, kRGumbel, kRSelectedAction, kRSelectedRow, kNumRootFields,
};

struct PoolDims {
  int tiles = 0;
  int max_actions = 0;
  int players = 2;
};

namespace detail {
inline void model_specs(std::vector<FieldSpec>& out, int64_t rows, const PoolDims& d) {
  for (int f = 0; f < kNumModelFields; ++f) out.push_back(model_field_spec(f, rows, d.tiles, d.max_actions));
}
}  // namespace detail

inline std::vector<FieldSpec> live_specs(int64_t rows, const PoolDims& d) {
  std::vector<FieldSpec> out;
  detail::model_specs(out, rows, d);
  out.push_back(field_of("env_id", DType::kInt32, {rows}));
  out.push_back(field_of("to_play", DType::kInt32, {rows}));
  out.push_back(field_of("state_id", DType::kUInt64, {rows}));
  out.push_back(field_of("episode_id", DType::kUInt64, {rows}));
  out.push_back(field_of("reward", DType::kFloat32, {rows}));
  out.push_back(field_of("terminated", DType::kUInt8, {rows}));
  out.push_back(field_of("action_valid", DType::kUInt8, {rows}));
  out.push_back(field_of("winner", DType::kInt32, {rows}));
  out.push_back(field_of("terminal_values", DType::kFloat32, {rows, d.players}));
  return out;
}

inline std::vector<FieldSpec> leaf_specs(int64_t rows, const PoolDims& d) {
  std::vector<FieldSpec> out;
  detail::model_specs(out, rows, d);
  out.push_back(field_of("leaf_id", DType::kUInt64, {rows}));
  out.push_back(field_of("tree_id", DType::kInt32, {rows}));
  out.push_back(field_of("env_id", DType::kInt32, {rows}));
  out.push_back(field_of("to_play", DType::kInt32, {rows}));
  out.push_back(field_of("player_count", DType::kInt32, {rows}));
  out.push_back(field_of("state_id", DType::kUInt64, {rows}));
  out.push_back(field_of("episode_id", DType::kUInt64, {rows}));
  return out;
}

inline std::vector<FieldSpec> root_specs(int64_t rows, const PoolDims& d) {
  const int64_t A = d.max_actions;
  return {field_of("action_id", DType::kInt32, {rows, A}),    field_of("action_mask", DType::kUInt8, {rows, A}),
          field_of("visit_count", DType::kInt32, {rows, A}),  field_of("policy", DType::kFloat32, {rows, A}),
          field_of("root_value", DType::kFloat32, {rows}),    field_of("root_visit_count", DType::kInt32, {rows}),
          field_of("root_player", DType::kInt32, {rows}),     field_of("player_count", DType::kInt32, {rows}),
          field_of("env_id", DType::kInt32, {rows}),          field_of("state_id", DType::kUInt64, {rows}),
          field_of("episode_id", DType::kUInt64, {rows}),
          field_of("improved_policy", DType::kFloat32, {rows, A}), field_of("gumbel", DType::kFloat32, {rows, A}),
          field_of("selected_action", DType::kInt32, {rows}),    field_of("selected_row", DType::kInt32, {rows})};
}

// Raw row-major pointers of one batch, in spec order; at<T>(field, row) with
// row_elems (elements of one row per field) from the spec.
struct FieldView {
  std::vector<void*> data;
  std::vector<int64_t> row_elems;
  void bind(const std::vector<FieldSpec>& specs) {
    row_elems.resize(specs.size());
    for (size_t f = 0; f < specs.size(); ++f) {
      const FieldSpec& s = specs[f];
      row_elems[f] = s.shape[0] > 0 ? s.elements() / s.shape[0] : 0;
    }
  }
  template <class T>
  T* at(int field, int64_t row) const {
    return static_cast<T*>(data[size_t(field)]) + row * row_elems[size_t(field)];
  }
  ModelRow model_row(int64_t row) const {
    return {at<int32_t>(kFMapTokens, row),     at<int32_t>(kFState, row),     at<int32_t>(kFActionId, row),
            at<int32_t>(kFActionFeatures, row), at<uint8_t>(kFActionArgMask, row), at<uint8_t>(kFActionMask, row)};
  }
};

}  // namespace polyenv
