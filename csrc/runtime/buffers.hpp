// buffers.hpp — caller-provided output arrays: dtypes, field specs (name,
// dtype, shape) and the validation every batch writer applies before writing
// (exact dtype and shape, writable, aligned, C-contiguous, no overlap).
#pragma once
#include <algorithm>
#include <cstring>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "../engine/game.hpp"

namespace polyenv {

enum class DType : int8_t { kInt32, kUInt8, kUInt64, kFloat32 };
inline constexpr int kNumDTypes = 4;
inline constexpr std::array<const char*, kNumDTypes> kDTypeNames = {"int32", "uint8", "uint64", "float32"};
inline constexpr std::array<char, kNumDTypes> kDTypeKinds = {'i', 'u', 'u', 'f'};
inline constexpr std::array<int, kNumDTypes> kDTypeSizes = {4, 1, 8, 4};

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

// A read-only strided view of caller memory (a NumPy vector), read element by element.
template <class T>
struct Strided {
  const char* data = nullptr;
  int64_t stride = sizeof(T);
  int size = 0;
  T operator[](int i) const {
    T v;
    std::memcpy(&v, data + int64_t(i) * stride, sizeof(T));
    return v;
  }
};

// Caller-supplied environment ids: int32 or int64 (itemsize 4 or 8), any stride.
struct IndexSpan {
  const char* data = nullptr;
  int64_t stride = 0;
  int size = 0;
  int itemsize = 8;
  int64_t operator[](int i) const {
    const char* p = data + int64_t(i) * stride;
    if (itemsize == 4) {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    int64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
};

// Checks buffers[f] against specs[f] for f < n: exact dtype (native byte
// order) and shape, writable, aligned, C-contiguous, and no two non-empty
// buffers sharing a byte. Throws InvalidArgument naming the first offending
// field; never writes anything.
inline void validate_field_buffers(const FieldSpec* specs, int n, const BufferInfo* buffers) {
  std::vector<int> order;
  order.reserve(size_t(n));
  std::vector<int64_t> bytes(size_t(n), 0);
  for (int f = 0; f < n; ++f) {
    const FieldSpec& spec = specs[f];
    const BufferInfo& b = buffers[f];
    auto where = [&] { return std::string("buffer '") + spec.name + "' "; };  // built only for a message
    const auto t = size_t(spec.dtype);
    if (b.kind != kDTypeKinds[t] || b.itemsize != kDTypeSizes[t] || !b.native_order) {
      throw InvalidArgument(where() + "must have dtype " + kDTypeNames[t] + ", got " +
                            dtype_text(b.kind, b.itemsize, b.native_order));
    }
    bool same = b.ndim == spec.ndim;
    for (int i = 0; same && i < spec.ndim; ++i) same = b.shape[size_t(i)] == spec.shape[size_t(i)];
    if (!same) {
      throw InvalidArgument(where() + "must have shape " + shape_text(spec.ndim, spec.shape.data()) + ", got " +
                            shape_text(std::min(b.ndim, 8), b.shape.data()));
    }
    if (!b.writable) throw InvalidArgument(where() + "is read-only");
    if (!b.aligned) throw InvalidArgument(where() + "is not aligned");
    if (!b.c_contiguous) throw InvalidArgument(where() + "is not C-contiguous");
    bytes[size_t(f)] = spec.bytes();
    if (bytes[size_t(f)] > 0) order.push_back(f);
  }
  auto start = [&](int f) { return reinterpret_cast<uintptr_t>(buffers[f].data); };
  std::sort(order.begin(), order.end(), [&](int a, int b) { return start(a) < start(b); });
  for (size_t i = 1; i < order.size(); ++i) {
    const int a = order[i - 1], b = order[i];
    if (start(a) + uintptr_t(bytes[size_t(a)]) > start(b)) {
      throw InvalidArgument(std::string("buffers '") + specs[a].name + "' and '" + specs[b].name + "' overlap");
    }
  }
}

}  // namespace polyenv
