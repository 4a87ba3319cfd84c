// model_fields.hpp — the model fields: what the row writer (encode_model_row) fills
// for one observer's row, the fields every batch a model reads starts from. One
// catalogue of name, dtype and shape for VectorGameEnv's batch (vector/batch.hpp)
// and the search pools' live and leaf batches (search/pool_batch.hpp).
#pragma once
#include <array>
#include <cstdint>
#include <initializer_list>

#include "../encode/encode.hpp"
#include "buffers.hpp"

namespace polyenv {

enum ModelField : int {
  kFMapTokens, kFState, kFActionId, kFActionFeatures, kFActionArgMask, kFActionMask, kFLegalCount,
  kFTotalLegalCount, kFActionTruncated, kNumModelFields,
};

inline constexpr std::array<const char*, kNumModelFields> kModelFieldNames = {
    "map_tokens",  "state",         "action_id",          "action_features",          "action_arg_mask",
    "action_mask", "legal_action_count", "total_legal_action_count", "action_truncated"};

// A FieldSpec from its name, dtype and shape.
inline FieldSpec field_of(const char* name, DType t, std::initializer_list<int64_t> shape) {
  FieldSpec f;
  f.name = name;
  f.dtype = t;
  f.ndim = int(shape.size());
  int i = 0;
  for (int64_t v : shape) f.shape[size_t(i++)] = v;
  return f;
}

// Name, dtype and shape of model field `field` in a batch of `rows` rows.
inline FieldSpec model_field_spec(int field, int64_t rows, int tiles, int max_actions) {
  const int64_t A = max_actions;
  const char* name = kModelFieldNames[size_t(field)];
  switch (field) {
    case kFMapTokens: return field_of(name, DType::kInt32, {rows, tiles, kMapTokenFeatures});
    case kFState: return field_of(name, DType::kInt32, {rows, kStateFeatures});
    case kFActionId: return field_of(name, DType::kInt32, {rows, A});
    case kFActionFeatures: return field_of(name, DType::kInt32, {rows, A, kActionFeatures});
    case kFActionArgMask: return field_of(name, DType::kUInt8, {rows, A, kActionArgFeatures});
    case kFActionMask: return field_of(name, DType::kUInt8, {rows, A});
    case kFLegalCount: return field_of(name, DType::kInt32, {rows});
    case kFTotalLegalCount: return field_of(name, DType::kInt32, {rows});
    default: return field_of(name, DType::kUInt8, {rows});  // kFActionTruncated
  }
}

}  // namespace polyenv
