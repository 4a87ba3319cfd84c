// fnv.hpp — FNV-1a over raw bytes: the digests of pool state and belief hypotheses.
#pragma once
#include <cstddef>
#include <cstdint>

namespace polyenv {

struct Fnv {
  uint64_t h = 1469598103934665603ull;
  void add(const void* p, size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ c[i]) * 1099511628211ull;
  }
  template <class T>
  void add(const T& v) {
    add(&v, sizeof(T));
  }
};

}  // namespace polyenv
