// polyenv._core.encode_flat: the flat observation of polyenv/flat.py (observation_format="flat"),
// one pass over each batch row with the GIL released. The column layout is polyenv.flat's
// FLAT_*_FEATURE_NAMES (the Python module owns the names; tests/flat_reference.py is a NumPy
// version of the same encoding that the tests compare against bit for bit). Arithmetic follows
// NumPy's type promotion there: float32 products for map-token scalings, double elsewhere,
// rounded to float32 once.
#include <algorithm>
#include <cstring>
#include <string>

#include "../encode/encode.hpp"
#include "../engine/game.hpp"
#include "bindings.hpp"

namespace polyenv::python {

namespace {

using Flags = py::detail::npy_api;

constexpr int kTileFeatures = 89, kStateOut = 27, kRowFeatures = 42, kKinds = kNumActionKinds, kUpgrades = kNumRewards;

template <class T>
py::array_t<T> checked(const py::handle& obj, const char* name, bool writable) {
  if (!py::isinstance<py::array>(obj)) throw InvalidArgument(std::string(name) + " must be a NumPy array");
  auto a = py::reinterpret_borrow<py::array>(obj);
  if (!a.dtype().is(py::dtype::of<T>())) {
    throw InvalidArgument(std::string(name) + " must have dtype " + std::string(py::str(py::dtype::of<T>())));
  }
  if (!(a.flags() & Flags::NPY_ARRAY_C_CONTIGUOUS_)) throw InvalidArgument(std::string(name) + " must be C-contiguous");
  if (writable && !a.writeable()) throw InvalidArgument(std::string(name) + " must be writable");
  return py::reinterpret_borrow<py::array_t<T>>(a);
}

struct Shape {
  int n, tiles, players, turn_limit, rows;
};

inline float clip(double v, double lo, double hi) { return static_cast<float>(std::min(std::max(v, lo), hi)); }
inline float clipf(float v, float lo, float hi) { return std::min(std::max(v, lo), hi); }

// Output column of a one-hot code, or -1: terrain 0..6, resource 0..7 without 4, building 0..18,
// unit type / carried type 0..11, unit status 0..5.
inline int resource_column(int32_t code) {
  if (code < 0 || code > 7 || code == 4) return -1;
  return 8 + code - (code > 4 ? 1 : 0);
}

void encode_tile(const int32_t* t, int tile, const Shape& s, float* o) {
  std::memset(o, 0, sizeof(float) * kTileFeatures);
  if (t[0] != 1) {  // unexplored: only the owner-based "other" columns read the (all-zero) token
    return;
  }
  auto one_hot = [&](int32_t code, int count, int first) {
    if (code >= 0 && code < count) o[first + code] = 1;
  };
  o[0] = 1;
  one_hot(t[1], 7, 1);
  if (int c = resource_column(t[2]); c >= 0) o[c] = 1;
  one_hot(t[3], 19, 15);
  o[34] = t[5] == 1;
  o[35] = t[6] == 1;
  o[36] = t[8] == 1;
  o[37] = t[13] == 1;
  one_hot(t[14], 12, 38);
  one_hot(t[17], 6, 50);
  one_hot(t[20], 12, 56);
  o[68] = t[6] >= 2;
  o[69] = t[8] >= 2;
  o[70] = t[13] >= 2;
  const int32_t flags[6][2] = {{11, 1}, {11, 2}, {11, 4}, {11, 8}, {11, 16}, {18, 1}};
  for (int k = 0; k < 6; ++k) o[71 + k] = (t[flags[k][0]] & flags[k][1]) != 0;
  const int scaled[5][2] = {{4, 5}, {9, 10}, {15, 45}, {16, 45}, {19, 3}};
  for (int k = 0; k < 5; ++k) {
    o[77 + k] = clipf(static_cast<float>(t[scaled[k][0]]) * static_cast<float>(1.0 / scaled[k][1]), 0.f, 1.f);
  }
  if (t[8] == 1) {  // own city: population and production
    o[82] = clipf(static_cast<float>(t[10]) * 0.1f, -1.f, 1.f);
    o[83] = clipf(static_cast<float>(t[12]) * 0.1f, -1.f, 1.f);
  }
  const double scale = static_cast<float>(1.0 / std::max(s.n - 1, 1));
  const int x = tile / s.n, y = tile % s.n;
  const int cities[2] = {7, 22};
  for (int k = 0; k < 2; ++k) {
    const int32_t c = t[cities[k]];
    if (c >= 0) {
      o[84 + 2 * k] = static_cast<float>((c / s.n - x) * scale);
      o[85 + 2 * k] = static_cast<float>((c % s.n - y) * scale);
    }
  }
}

void encode_state(const int32_t* st, int32_t observer, const Shape& s, float* o) {
  std::memset(o, 0, sizeof(float) * kStateOut);
  const int P = s.players;
  o[0] = std::min(static_cast<float>(st[0] / static_cast<double>(static_cast<float>(s.turn_limit + 1))), 1.f);
  o[1] = st[1] == observer;
  o[2] = static_cast<float>((((st[1] - observer) % P) + P) % P / static_cast<double>(static_cast<float>(std::max(P - 1, 1))));
  o[3] = st[2] != 0;
  o[4] = st[3] == observer;
  o[5] = st[3] >= 0 && st[3] != observer;
  const int scaled[4][2] = {{4, 100}, {5, 20}, {6, 10}, {7, 50}};
  for (int k = 0; k < 4; ++k) {
    o[6 + k] = clip(st[scaled[k][0]] * static_cast<double>(static_cast<float>(1.0 / scaled[k][1])), 0, 1);
  }
  o[10] = st[8] >= 0;
  if (st[9] >= 0 && st[9] < kUpgrades) o[11 + st[9]] = 1;
  if (st[10] >= 0 && st[10] < kUpgrades) o[11 + kUpgrades + st[10]] = 1;
}

void encode_row(const int32_t* a, const Shape& s, float* o) {
  std::memset(o, 0, sizeof(float) * kRowFeatures);
  const int32_t kind = a[0];
  if (kind >= 0 && kind < kKinds) o[kind] = 1;
  const bool player_target = kind == kDeclareWarKind || kind == kSendStarsKind;
  const double scale = static_cast<float>(1.0 / std::max(s.n - 1, 1));
  for (int w = 0; w < 3; ++w) {
    const int32_t tile = a[1 + w];
    if (tile < 0 || (w == 1 && player_target)) continue;
    o[kKinds + 3 * w] = static_cast<float>((tile / s.n) * scale);
    o[kKinds + 3 * w + 1] = static_cast<float>((tile % s.n) * scale);
    o[kKinds + 3 * w + 2] = 1;
  }
  if (player_target) o[32] = static_cast<float>(a[2] / static_cast<double>(static_cast<float>(std::max(s.players - 1, 1))));
  const int counts[6] = {kNumTechs, kNumBuildings, kNumUnitTypes, kNumRewards, kNumTileActions, kNumUnitTypes};
  for (int k = 0; k < 6; ++k) {
    o[33 + k] = static_cast<float>((a[4 + k] + 1) * static_cast<double>(static_cast<float>(1.0 / counts[k])));
  }
  o[39] = clip(a[11] / static_cast<double>(16.f), 0, 1);
  o[40] = clip(a[12] / static_cast<double>(20.f), -1, 1);
  o[41] = a[14] != 0;
}

}  // namespace

void init_flat(py::module_& m) {
  m.attr("FLAT_LAYOUT") = py::make_tuple(kTileFeatures, kStateOut, kRowFeatures);
  m.def(
      "encode_flat",
      [](const py::handle& tokens_obj, const py::handle& state_obj, const py::handle& observer_obj,
         const py::handle& rows_obj, const py::handle& counts_obj, const py::handle& out_obj, int map_size,
         int num_players, int turn_limit) {
        auto tokens = checked<int32_t>(tokens_obj, "map_tokens", false);
        auto state = checked<int32_t>(state_obj, "state", false);
        auto observer = checked<int32_t>(observer_obj, "observer", false);
        auto rows = checked<int32_t>(rows_obj, "action_features", false);
        auto counts = checked<int32_t>(counts_obj, "legal_count", false);
        auto out = checked<float>(out_obj, "out", true);
        if (map_size < 1) throw InvalidArgument("encode_flat: map_size must be >= 1");
        // The one player-count rule; 1 is allowed because a single-tribe level file (RULES §1.3's
        // MinimalLevel) is a real 1-player game whose observations FlatEncoder encodes too.
        check_player_count(num_players, /*single_tribe_level=*/true);
        const Shape s{map_size, map_size * map_size, num_players, turn_limit,
                      rows.ndim() == 3 ? static_cast<int>(rows.shape(1)) : 0};
        const int64_t B = tokens.ndim() == 3 ? tokens.shape(0) : -1;
        const int64_t size = int64_t{s.tiles} * kTileFeatures + kStateOut + int64_t{s.rows} * kRowFeatures;
        if (B < 0 || tokens.shape(1) != s.tiles || tokens.shape(2) != kMapTokenFeatures || state.ndim() != 2 ||
            state.shape(0) != B || state.shape(1) != kStateFeatures || observer.ndim() != 1 ||
            observer.shape(0) != B || rows.ndim() != 3 || rows.shape(0) != B || rows.shape(2) != kActionFeatures ||
            counts.ndim() != 1 || counts.shape(0) != B || out.ndim() != 2 || out.shape(0) != B ||
            out.shape(1) != size) {
          throw InvalidArgument("encode_flat: map_tokens [B, N*N, 23], state [B, 11], observer [B], "
                                "action_features [B, R, 17], legal_count [B] and out [B, D] must agree");
        }
        const int32_t* tok = tokens.data();
        const int32_t* st = state.data();
        const int32_t* obs = observer.data();
        const int32_t* act = rows.data();
        const int32_t* cnt = counts.data();
        float* o = out.mutable_data();
        py::gil_scoped_release release;
        for (int64_t b = 0; b < B; ++b) {
          float* row = o + b * size;
          const int32_t* t = tok + b * s.tiles * kMapTokenFeatures;
          for (int tile = 0; tile < s.tiles; ++tile) {
            encode_tile(t + tile * kMapTokenFeatures, tile, s, row + tile * kTileFeatures);
          }
          const int32_t* sb = st + b * kStateFeatures;
          if (sb[8] >= 0 && sb[8] < s.tiles) row[sb[8] * kTileFeatures + kTileFeatures - 1] = 1;  // pending city
          encode_state(sb, obs[b], s, row + int64_t{s.tiles} * kTileFeatures);
          float* r = row + int64_t{s.tiles} * kTileFeatures + kStateOut;
          const int valid = std::clamp(cnt[b], 0, s.rows);
          for (int k = 0; k < s.rows; ++k) {
            if (k < valid) {
              encode_row(act + (b * s.rows + k) * kActionFeatures, s, r + k * kRowFeatures);
            } else {
              std::memset(r + k * kRowFeatures, 0, sizeof(float) * kRowFeatures);
            }
          }
        }
      },
      py::arg("map_tokens"), py::arg("state"), py::arg("observer"), py::arg("action_features"),
      py::arg("legal_count"), py::arg("out"), py::arg("map_size"), py::arg("num_players"), py::arg("turn_limit"),
      "polyenv.flat's encoding of a batch into out (float32 [B, D], C-contiguous); all inputs int32 and "
      "C-contiguous (action_features [B, R, 17], R = 0 in global action mode). Use FlatEncoder.encode.");
}

}  // namespace polyenv::python
