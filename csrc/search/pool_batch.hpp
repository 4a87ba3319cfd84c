// pool_batch.hpp — the dense batches of the search pools (seed 002): the live
// game batch, the MCTS leaf batch and the root policy batch. Each is a list of
// FieldSpec (name, dtype, shape) and a view of raw row-major pointers in that order.
#pragma once
#include <array>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "../encode/encode.hpp"
#include "../runtime/buffers.hpp"

namespace polyenv {

// The model fields every batch starts with (the row writer's output).
enum ModelField : int {
  kFMapTokens, kFState, kFActionId, kFActionFeatures, kFActionArgMask, kFActionMask, kFLegalCount,
  kFTotalLegalCount, kFActionTruncated, kNumModelFields,
};

// Live batch: the model fields, then these.
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
inline FieldSpec spec(const char* name, DType t, std::initializer_list<int64_t> shape) {
  FieldSpec f;
  f.name = name;
  f.dtype = t;
  f.ndim = int(shape.size());
  int i = 0;
  for (int64_t v : shape) f.shape[size_t(i++)] = v;
  return f;
}
inline void model_specs(std::vector<FieldSpec>& out, int64_t rows, const PoolDims& d) {
  const int64_t A = d.max_actions;
  out.push_back(spec("map_tokens", DType::kInt32, {rows, d.tiles, kMapTokenFeatures}));
  out.push_back(spec("state", DType::kInt32, {rows, kStateFeatures}));
  out.push_back(spec("action_id", DType::kInt32, {rows, A}));
  out.push_back(spec("action_features", DType::kInt32, {rows, A, kActionFeatures}));
  out.push_back(spec("action_arg_mask", DType::kUInt8, {rows, A, kActionArgFeatures}));
  out.push_back(spec("action_mask", DType::kUInt8, {rows, A}));
  out.push_back(spec("legal_action_count", DType::kInt32, {rows}));
  out.push_back(spec("total_legal_action_count", DType::kInt32, {rows}));
  out.push_back(spec("action_truncated", DType::kUInt8, {rows}));
}
}  // namespace detail

inline std::vector<FieldSpec> live_specs(int64_t rows, const PoolDims& d) {
  using detail::spec;
  std::vector<FieldSpec> out;
  detail::model_specs(out, rows, d);
  out.push_back(spec("env_id", DType::kInt32, {rows}));
  out.push_back(spec("to_play", DType::kInt32, {rows}));
  out.push_back(spec("state_id", DType::kUInt64, {rows}));
  out.push_back(spec("episode_id", DType::kUInt64, {rows}));
  out.push_back(spec("reward", DType::kFloat32, {rows}));
  out.push_back(spec("terminated", DType::kUInt8, {rows}));
  out.push_back(spec("action_valid", DType::kUInt8, {rows}));
  out.push_back(spec("winner", DType::kInt32, {rows}));
  out.push_back(spec("terminal_values", DType::kFloat32, {rows, d.players}));
  return out;
}

inline std::vector<FieldSpec> leaf_specs(int64_t rows, const PoolDims& d) {
  using detail::spec;
  std::vector<FieldSpec> out;
  detail::model_specs(out, rows, d);
  out.push_back(spec("leaf_id", DType::kUInt64, {rows}));
  out.push_back(spec("tree_id", DType::kInt32, {rows}));
  out.push_back(spec("env_id", DType::kInt32, {rows}));
  out.push_back(spec("to_play", DType::kInt32, {rows}));
  out.push_back(spec("player_count", DType::kInt32, {rows}));
  out.push_back(spec("state_id", DType::kUInt64, {rows}));
  out.push_back(spec("episode_id", DType::kUInt64, {rows}));
  return out;
}

inline std::vector<FieldSpec> root_specs(int64_t rows, const PoolDims& d) {
  using detail::spec;
  const int64_t A = d.max_actions;
  return {spec("action_id", DType::kInt32, {rows, A}),    spec("action_mask", DType::kUInt8, {rows, A}),
          spec("visit_count", DType::kInt32, {rows, A}),  spec("policy", DType::kFloat32, {rows, A}),
          spec("root_value", DType::kFloat32, {rows}),    spec("root_visit_count", DType::kInt32, {rows}),
          spec("root_player", DType::kInt32, {rows}),     spec("player_count", DType::kInt32, {rows}),
          spec("env_id", DType::kInt32, {rows}),          spec("state_id", DType::kUInt64, {rows}),
          spec("episode_id", DType::kUInt64, {rows}),
          spec("improved_policy", DType::kFloat32, {rows, A}), spec("gumbel", DType::kFloat32, {rows, A}),
          spec("selected_action", DType::kInt32, {rows}),    spec("selected_row", DType::kInt32, {rows})};
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
