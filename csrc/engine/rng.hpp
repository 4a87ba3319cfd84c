// rng.hpp — the game's random stream. It lives inside GameState (two words),
// so a clone replays identically and serialization carries it.
#pragma once
#include <cstdint>

namespace polyenv {

// SplitMix64 step: used to derive seeds and per-player keys.
inline uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// PCG32 (XSH-RR): small state, good quality, cheap to copy.
struct Rng {
  uint64_t state = 0x853C49E6748FEA9Bull;
  uint64_t inc = 0xDA3E39CB94B95BDBull;

  void seed(uint64_t seed, uint64_t stream = 54) {
    state = 0;
    inc = (stream << 1u) | 1u;
    next();
    state += seed;
    next();
  }
  uint32_t next() {
    uint64_t old = state;
    state = old * 6364136223846793005ull + inc;
    uint32_t xorshifted = uint32_t(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = uint32_t(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
  }
  // Uniform integer in [0, n), n > 0 (Lemire's method, unbiased).
  uint32_t below(uint32_t n) {
    uint64_t m = uint64_t(next()) * n;
    uint32_t l = uint32_t(m);
    if (l < n) {
      uint32_t t = (0u - n) % n;
      while (l < t) { m = uint64_t(next()) * n; l = uint32_t(m); }
    }
    return uint32_t(m >> 32);
  }
  // Uniform double in [0, 1).
  double uniform() { return (next() >> 5) * (1.0 / 134217728.0); }
  bool operator==(const Rng&) const = default;
};

}  // namespace polyenv
