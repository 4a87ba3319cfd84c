// batch.hpp — the dense batch of VectorGameEnv (seed 000): field names,
// dtypes and shapes, the raw view the environments write into, and the
// validation of caller-provided buffers (exact dtype and shape, writable,
// aligned, C-contiguous, no two buffers overlapping).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "../encode/encode.hpp"
#include "../engine/events.hpp"

namespace polyenv {

enum class DType : int8_t { kInt32, kUInt8, kUInt64, kFloat32 };
inline constexpr int kNumDTypes = 4;
inline constexpr std::array<const char*, kNumDTypes> kDTypeNames = {"int32", "uint8", "uint64", "float32"};
inline constexpr std::array<char, kNumDTypes> kDTypeKinds = {'i', 'u', 'u', 'f'};
inline constexpr std::array<int, kNumDTypes> kDTypeSizes = {4, 1, 8, 4};

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

// The sizes a batch depends on: rows (B, or a slot's row count), tiles, Amax, K.
struct BatchDims {
  int rows = 0;
  int tiles = 0;
  int max_actions = 0;
  int history = 0;
  bool final_observation = false;
  int num_fields() const { return final_observation ? kNumBatchFields : kNumBaseFields; }
};

struct FieldSpec {
  const char* name = "";
  DType dtype = DType::kInt32;
  int ndim = 0;
  std::array<int64_t, 4> shape{};
  int64_t elements() const {
    int64_t n = 1;
    for (int i = 0; i < ndim; ++i) n *= shape[size_t(i)];
    return n;
  }
  int64_t bytes() const { return elements() * kDTypeSizes[size_t(dtype)]; }
};

// Name, dtype and shape of one field (0 <= field < dims.num_fields()).
inline FieldSpec field_spec(const BatchDims& d, int field) {
  const int base = mirrored_field(field);
  const int64_t B = d.rows, K = d.history, A = d.max_actions;
  FieldSpec f;
  f.name = kBatchFieldNames[size_t(field)];
  auto set = [&](DType t, std::initializer_list<int64_t> shape) {
    f.dtype = t;
    f.ndim = int(shape.size());
    std::copy(shape.begin(), shape.end(), f.shape.begin());
  };
  switch (base) {
    case kBMapTokens: set(DType::kInt32, {B, d.tiles, kMapTokenFeatures}); break;
    case kBState: set(DType::kInt32, {B, kStateFeatures}); break;
    case kBActionId: set(DType::kInt32, {B, A}); break;
    case kBActionFeatures: set(DType::kInt32, {B, A, kActionFeatures}); break;
    case kBActionArgMask: set(DType::kUInt8, {B, A, kActionArgFeatures}); break;
    case kBActionMask: set(DType::kUInt8, {B, A}); break;
    case kBEventFeatures: set(DType::kInt32, {B, K, kEventFeatures}); break;
    case kBEventSequence: set(DType::kUInt64, {B, K}); break;
    case kBEventActionSequence: set(DType::kUInt64, {B, K}); break;
    case kBEventMask: set(DType::kUInt8, {B, K}); break;
    case kBEventAffected: set(DType::kInt32, {B, K, kEventAffectedRows, kEventAffectedFeatures}); break;
    case kBEventAffectedMask: set(DType::kUInt8, {B, K, kEventAffectedRows}); break;
    case kBLegalCount: set(DType::kInt32, {B}); break;
    case kBTotalLegalCount: set(DType::kInt32, {B}); break;
    case kBActionTruncated: set(DType::kUInt8, {B}); break;
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

// Raw, row-major pointers of one batch, indexed by BatchField. The final_*
// entries are null when the batch has no terminal-observation fields.
struct BatchView {
  std::array<void*, kNumBatchFields> data{};
  template <class T>
  T* get(int field) const { return static_cast<T*>(data[size_t(field)]); }
};

// A caller's array as the validator sees it (filled by the bindings).
struct BufferInfo {
  void* data = nullptr;
  char kind = '?';        // NumPy dtype kind: 'i', 'u', 'f', 'b', ...
  int itemsize = 0;
  bool native_order = true;
  int ndim = 0;
  std::array<int64_t, 8> shape{};  // the first min(ndim, 8) dimensions
  bool writable = false;
  bool aligned = false;
  bool c_contiguous = false;
};

inline std::string dtype_text(char kind, int itemsize, bool native_order) {
  std::string s = kind == 'i' ? "int" : kind == 'u' ? "uint" : kind == 'f' ? "float" : kind == 'b' ? "bool"
                                                                                                     : std::string(1, kind);
  if (kind != 'b') s += std::to_string(itemsize * 8);
  if (!native_order) s += " (non-native byte order)";
  return s;
}

inline std::string shape_text(int ndim, const int64_t* shape) {
  std::string s = "(";
  for (int i = 0; i < ndim; ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + (ndim == 1 ? ",)" : ")");
}

// Checks buffers[f] against field_spec(dims, f) for every field: exact dtype
// (native byte order) and shape, writable, aligned, C-contiguous, and no two
// non-empty buffers sharing a byte. Throws InvalidArgument naming the first
// offending field; never writes anything.
inline void validate_buffers(const BatchDims& dims, const BufferInfo* buffers) {
  const int n = dims.num_fields();
  std::array<int, kNumBatchFields> order{};
  std::array<int64_t, kNumBatchFields> bytes{};
  int nonempty = 0;
  for (int f = 0; f < n; ++f) {
    const FieldSpec spec = field_spec(dims, f);
    const BufferInfo& b = buffers[f];
    const std::string where = std::string("buffer '") + spec.name + "' ";
    const auto t = size_t(spec.dtype);
    if (b.kind != kDTypeKinds[t] || b.itemsize != kDTypeSizes[t] || !b.native_order) {
      throw InvalidArgument(where + "must have dtype " + kDTypeNames[t] + ", got " +
                            dtype_text(b.kind, b.itemsize, b.native_order));
    }
    bool same = b.ndim == spec.ndim;
    for (int i = 0; same && i < spec.ndim; ++i) same = b.shape[size_t(i)] == spec.shape[size_t(i)];
    if (!same) {
      throw InvalidArgument(where + "must have shape " + shape_text(spec.ndim, spec.shape.data()) + ", got " +
                            shape_text(std::min(b.ndim, 8), b.shape.data()));
    }
    if (!b.writable) throw InvalidArgument(where + "is read-only");
    if (!b.aligned) throw InvalidArgument(where + "is not aligned");
    if (!b.c_contiguous) throw InvalidArgument(where + "is not C-contiguous");
    bytes[size_t(f)] = spec.bytes();
    if (bytes[size_t(f)] > 0) order[size_t(nonempty++)] = f;
  }
  auto start = [&](int f) { return reinterpret_cast<uintptr_t>(buffers[f].data); };
  std::sort(order.begin(), order.begin() + nonempty, [&](int a, int b) { return start(a) < start(b); });
  for (int i = 1; i < nonempty; ++i) {
    const int a = order[size_t(i - 1)], b = order[size_t(i)];
    if (start(a) + uintptr_t(bytes[size_t(a)]) > start(b)) {
      throw InvalidArgument(std::string("buffers '") + kBatchFieldNames[size_t(a)] + "' and '" +
                            kBatchFieldNames[size_t(b)] + "' overlap");
    }
  }
}

}  // namespace polyenv
