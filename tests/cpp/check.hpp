// check.hpp — the checks of the standalone C++ self-tests: CHECK / CHECK_EQ
// count and report failures without stopping, main() returns non-zero when
// g_failures > 0. One translation unit per test program includes it.
#pragma once
#include <cstdio>

namespace {

int g_failures = 0;
int g_checks = 0;

#define CHECK(cond)                                                          \
  do {                                                                       \
    ++g_checks;                                                              \
    if (!(cond)) {                                                           \
      ++g_failures;                                                          \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                        \
  } while (0)

#define CHECK_EQ(a, b)                                                                                   \
  do {                                                                                                   \
    ++g_checks;                                                                                          \
    long long va_ = (long long)(a), vb_ = (long long)(b);                                                \
    if (va_ != vb_) {                                                                                    \
      ++g_failures;                                                                                      \
      std::fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (%lld vs %lld)\n", __FILE__, __LINE__, #a, #b, \
                   va_, vb_);                                                                            \
    }                                                                                                    \
  } while (0)

}  // namespace
