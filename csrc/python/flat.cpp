// polyenv._core.encode_flat: checks a batch's arrays and runs the flat encoder of
// encode/flat.hpp (encode_flat_batch) with the GIL released.
#include <string>

#include "../encode/flat.hpp"
#include "bindings.hpp"

namespace polyenv::python {

namespace {

using Flags = py::detail::npy_api;

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

template <size_t N>
py::tuple columns(const std::array<FlatColumn, N>& cols) {
  py::tuple t(N);
  for (size_t i = 0; i < N; ++i) t[i] = py::make_tuple(cols[i].name, cols[i].low);
  return t;
}

}  // namespace

void init_flat(py::module_& m) {
  py::dict layout;  // encode/flat.hpp's columns, in order: what polyenv.envs.flat names and bounds
  layout["tile"] = columns(flat_tile_columns());
  layout["state"] = columns(flat_state_columns());
  layout["action"] = columns(flat_row_columns());
  m.attr("FLAT_LAYOUT") = layout;
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
        const FlatShape s = flat_shape(map_size, num_players, turn_limit,
                                       rows.ndim() == 3 ? static_cast<int>(rows.shape(1)) : 0);
        const int64_t B = tokens.ndim() == 3 ? tokens.shape(0) : -1;
        if (B < 0 || tokens.shape(1) != s.tiles() || tokens.shape(2) != kMapTokenFeatures || state.ndim() != 2 ||
            state.shape(0) != B || state.shape(1) != kStateFeatures || observer.ndim() != 1 ||
            observer.shape(0) != B || rows.ndim() != 3 || rows.shape(0) != B || rows.shape(2) != kActionFeatures ||
            counts.ndim() != 1 || counts.shape(0) != B || out.ndim() != 2 || out.shape(0) != B ||
            out.shape(1) != s.size()) {
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
        encode_flat_batch(B, tok, st, obs, act, cnt, s, o);
      },
      py::arg("map_tokens"), py::arg("state"), py::arg("observer"), py::arg("action_features"),
      py::arg("legal_count"), py::arg("out"), py::arg("map_size"), py::arg("num_players"), py::arg("turn_limit"),
      "polyenv.envs.flat's encoding of a batch into out (float32 [B, D], C-contiguous); all inputs int32 and "
      "C-contiguous (action_features [B, R, 17], R = 0 in global action mode). Use FlatEncoder.encode.");
}

}  // namespace polyenv::python
