// batch.hpp — the dense batch of VectorGameEnv (seed 000): field names,
// dtypes and shapes, the raw view the environments write into, and the
// validation of caller-provided buffers (exact dtype and shape, writable,
// aligned, C-contiguous, no two buffers overlapping).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "../encode/encode.hpp"
#include "../encode/event_rows.hpp"
#include "../runtime/buffers.hpp"
#include "../runtime/model_fields.hpp"

namespace polyenv {

// The fields in batch order: the seed-000 table, then (keep_terminal_observation)
// the terminal observation of the rows that ended in the call.
enum BatchField : int {
  kBMapTokens, kBState, kBActionId, kBActionFeatures, kBActionArgMask, kBActionMask,
  kBEventFeatures, kBEventSequence, kBEventActionSequence, kBEventMask, kBEventAffected, kBEventAffectedMask,
  kBLegalCount, kBTotalLegalCount, kBActionTruncated, kBReward, kBTerminated, kBActionValid, kBEnvId,
  kBStateId, kBEpisodeId,
  kBFinalMapTokens, kBFinalState, kBFinalEventFeatures, kBFinalEventSequence, kBFinalEventActionSequence,
  kBFinalEventMask, kBFinalEventAffected, kBFinalEventAffectedMask,
  kNumBatchFields,
};
inline constexpr int kNumBaseFields = kBFinalMapTokens;

// The observation fields of a row: the live ones, or their final_* mirrors.
struct ObservationFields {
  int map_tokens, state, event_features, event_sequence, event_action_sequence, event_mask, event_affected,
      event_affected_mask;
};
inline constexpr ObservationFields kLiveObservation = {
    kBMapTokens, kBState, kBEventFeatures, kBEventSequence, kBEventActionSequence, kBEventMask, kBEventAffected,
    kBEventAffectedMask};
inline constexpr ObservationFields kFinalObservation = {
    kBFinalMapTokens, kBFinalState, kBFinalEventFeatures, kBFinalEventSequence, kBFinalEventActionSequence,
    kBFinalEventMask, kBFinalEventAffected, kBFinalEventAffectedMask};
// The live field a final_* field mirrors (the field itself for live fields).
inline constexpr int mirrored_field(int field) {
  return field < kNumBaseFields ? field : field < kBFinalEventFeatures ? field - kBFinalMapTokens
                                                                       : field - kBFinalEventFeatures + kBEventFeatures;
}
static_assert(mirrored_field(kBFinalState) == kBState);
static_assert(mirrored_field(kBFinalEventAffectedMask) == kBEventAffectedMask);

inline constexpr std::array<const char*, kNumBatchFields> kBatchFieldNames = {
    "map_tokens", "state", "action_id", "action_features", "action_arg_mask", "action_mask",
    "visible_event_features", "visible_event_sequence", "visible_event_action_sequence", "visible_event_mask",
    "visible_event_affected", "visible_event_affected_mask",
    "legal_action_count", "total_legal_action_count", "action_truncated", "reward", "terminated",
    "action_valid", "env_id", "state_id", "episode_id",
    "final_map_tokens", "final_state", "final_visible_event_features", "final_visible_event_sequence",
    "final_visible_event_action_sequence", "final_visible_event_mask", "final_visible_event_affected",
    "final_visible_event_affected_mask"};

// The model field (runtime/model_fields.hpp) a live batch field is, -1 for the
// event and step fields: the model fields' dtypes and shapes are defined there once.
inline constexpr int model_field_of(int field) {
  switch (field) {
    case kBMapTokens: return kFMapTokens;
    case kBState: return kFState;
    case kBActionId: return kFActionId;
    case kBActionFeatures: return kFActionFeatures;
    case kBActionArgMask: return kFActionArgMask;
    case kBActionMask: return kFActionMask;
    case kBLegalCount: return kFLegalCount;
    case kBTotalLegalCount: return kFTotalLegalCount;
    case kBActionTruncated: return kFActionTruncated;
    default: return -1;
  }
}
// Both catalogues name a model field alike.
inline constexpr bool model_field_names_agree() {
  for (int f = 0; f < kNumBaseFields; ++f) {
    const int m = model_field_of(f);
    if (m >= 0 && std::string_view(kBatchFieldNames[size_t(f)]) != kModelFieldNames[size_t(m)]) return false;
  }
  return true;
}
static_assert(model_field_names_agree());

// The sizes a batch depends on: rows (B, or a slot's row count), tiles, Amax, K.
struct BatchDims {
  int rows = 0;
  int tiles = 0;
  int max_actions = 0;
  int history = 0;
  bool final_observation = false;
  int num_fields() const { return final_observation ? kNumBatchFields : kNumBaseFields; }
};

// Name, dtype and shape of one field (0 <= field < dims.num_fields()).
inline FieldSpec field_spec(const BatchDims& d, int field) {
  const int base = mirrored_field(field);
  const int64_t B = d.rows, K = d.history;
  FieldSpec f;
  f.name = kBatchFieldNames[size_t(field)];
  auto set = [&](DType t, std::initializer_list<int64_t> shape) {
    f.dtype = t;
    f.ndim = int(shape.size());
    std::copy(shape.begin(), shape.end(), f.shape.begin());
  };
  if (const int m = model_field_of(base); m >= 0) {
    f = model_field_spec(m, B, d.tiles, d.max_actions);
    f.name = kBatchFieldNames[size_t(field)];
    return f;
  }
  switch (base) {
    case kBEventFeatures: set(DType::kInt32, {B, K, kEventFeatures}); break;
    case kBEventSequence: set(DType::kUInt64, {B, K}); break;
    case kBEventActionSequence: set(DType::kUInt64, {B, K}); break;
    case kBEventMask: set(DType::kUInt8, {B, K}); break;
    case kBEventAffected: set(DType::kInt32, {B, K, kEventAffectedRows, kEventAffectedFeatures}); break;
    case kBEventAffectedMask: set(DType::kUInt8, {B, K, kEventAffectedRows}); break;
    case kBReward: set(DType::kFloat32, {B}); break;
    case kBTerminated: set(DType::kUInt8, {B}); break;
    case kBActionValid: set(DType::kUInt8, {B}); break;
    case kBEnvId: set(DType::kInt32, {B}); break;
    case kBStateId: set(DType::kUInt64, {B}); break;
    case kBEpisodeId: set(DType::kUInt64, {B}); break;
    default: break;
  }
  return f;
}

// Where a batch's memory comes from: freshly allocated, or the caller's arrays —
// to be written in full, or the same live objects as in an earlier call that the
// caller promises nobody wrote into since (see buffer_memo.hpp).
enum class BufferOrigin : int8_t { kAllocated, kCallerNew, kCallerKnown };

// Raw, row-major pointers of one batch, indexed by BatchField. The final_*
// entries are null when the batch has no terminal-observation fields.
struct BatchView {
  std::array<void*, kNumBatchFields> data{};
  BufferOrigin origin = BufferOrigin::kAllocated;
  template <class T>
  T* get(int field) const { return static_cast<T*>(data[size_t(field)]); }
};

// Checks buffers[f] against field_spec(dims, f) for every field: exact dtype
// (native byte order) and shape, writable, aligned, C-contiguous, and no two
// non-empty buffers sharing a byte. Throws InvalidArgument naming the first
// offending field; never writes anything.
inline void validate_buffers(const BatchDims& dims, const BufferInfo* buffers) {
  std::array<FieldSpec, kNumBatchFields> specs{};
  for (int f = 0; f < dims.num_fields(); ++f) specs[size_t(f)] = field_spec(dims, f);
  validate_field_buffers(specs.data(), dims.num_fields(), buffers);
}

}  // namespace polyenv
