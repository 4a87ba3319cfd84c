// polyenv._core.update_id_mask: keeps a dense [B, action_space_size] mask of
// legal global ids in step with a batch's legal rows, touching only the ids
// that change (TribesVectorEnv's action_mode="global" with copy=False). A
// NumPy version of the same update (boolean indexing, fancy assignment) cost
// more than the rest of the Gymnasium layer together.
#include <algorithm>
#include <string>

#include "../engine/game.hpp"
#include "bindings.hpp"

namespace polyenv::python {

namespace {

using Flags = py::detail::npy_api;

// A writable (when asked) C-contiguous array of dtype T and exactly `ndim` dimensions.
template <class T>
py::array_t<T> checked(const py::handle& obj, const char* name, int ndim, bool writable) {
  if (!py::isinstance<py::array>(obj)) throw InvalidArgument(std::string(name) + " must be a NumPy array");
  auto a = py::reinterpret_borrow<py::array>(obj);
  if (!a.dtype().is(py::dtype::of<T>())) {
    throw InvalidArgument(std::string(name) + " must have dtype " + std::string(py::str(py::dtype::of<T>())) +
                          ", got " + std::string(py::str(a.dtype())));
  }
  if (a.ndim() != ndim) throw InvalidArgument(std::string(name) + " must have " + std::to_string(ndim) + " dimensions");
  if (!(a.flags() & Flags::NPY_ARRAY_C_CONTIGUOUS_)) throw InvalidArgument(std::string(name) + " must be C-contiguous");
  if (writable && !a.writeable()) throw InvalidArgument(std::string(name) + " must be writable");
  return py::reinterpret_borrow<py::array_t<T>>(a);
}

// Every id of the first counts[r] entries of row r lies in [0, limit); counts lie in [0, width].
void check_rows(const int32_t* ids, const int32_t* counts, int64_t rows, int64_t width, int64_t limit,
                const char* name) {
  for (int64_t r = 0; r < rows; ++r) {
    if (counts[r] < 0 || counts[r] > width) {
      throw InvalidArgument(std::string(name) + " count " + std::to_string(counts[r]) + " of row " +
                            std::to_string(r) + " is outside [0, " + std::to_string(width) + "]");
    }
    for (int32_t j = 0; j < counts[r]; ++j) {
      const int32_t id = ids[r * width + j];
      if (id < 0 || id >= limit) {
        throw InvalidArgument(std::string(name) + " id " + std::to_string(id) + " in row " + std::to_string(r) +
                              " is outside [0, " + std::to_string(limit) + ")");
      }
    }
  }
}

}  // namespace

void init_masks(py::module_& m) {
  m.def(
      "update_id_mask",
      [](const py::handle& mask_obj, const py::handle& ids_obj, const py::handle& counts_obj,
         const py::handle& marked_obj, const py::handle& marked_counts_obj) {
        auto mask = checked<int8_t>(mask_obj, "mask", 2, true);
        auto ids = checked<int32_t>(ids_obj, "action_id", 2, false);
        auto counts = checked<int32_t>(counts_obj, "legal_action_count", 1, false);
        auto marked = checked<int32_t>(marked_obj, "marked", 2, true);
        auto marked_counts = checked<int32_t>(marked_counts_obj, "marked_count", 1, true);
        const int64_t rows = mask.shape(0), limit = mask.shape(1), width = ids.shape(1);
        if (ids.shape(0) != rows || counts.shape(0) != rows || marked.shape(0) != rows ||
            marked.shape(1) != width || marked_counts.shape(0) != rows) {
          throw InvalidArgument("update_id_mask: mask [B, A], action_id and marked [B, Amax], "
                                "legal_action_count and marked_count [B] must agree");
        }
        check_rows(ids.data(), counts.data(), rows, width, limit, "action_id");
        check_rows(marked.data(), marked_counts.data(), rows, width, limit, "marked");
        int8_t* out = mask.mutable_data();
        int32_t* kept = marked.mutable_data();
        int32_t* kept_counts = marked_counts.mutable_data();
        const int32_t* now = ids.data();
        const int32_t* now_counts = counts.data();
        py::gil_scoped_release release;
        for (int64_t r = 0; r < rows; ++r) {
          int8_t* row = out + r * limit;
          int32_t* row_kept = kept + r * width;
          for (int32_t j = 0; j < kept_counts[r]; ++j) row[row_kept[j]] = 0;
          const int32_t* row_now = now + r * width;
          for (int32_t j = 0; j < now_counts[r]; ++j) row[row_now[j]] = 1;
          std::copy(row_now, row_now + now_counts[r], row_kept);
          kept_counts[r] = now_counts[r];
        }
      },
      py::arg("mask"), py::arg("action_id"), py::arg("legal_action_count"), py::arg("marked"),
      py::arg("marked_count"),
      "Sets mask[r, id] = 1 for the first legal_action_count[r] ids of action_id[r] and clears the ids "
      "recorded in marked / marked_count (the previous call's), then records the new ones there. All "
      "arguments are C-contiguous (mask int8 [B, A], the others int32); every id is range-checked "
      "before anything is written.");
}

}  // namespace polyenv::python
