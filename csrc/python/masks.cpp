// polyenv._core.update_id_mask: the binding of vector/id_mask.hpp (argument
// checks only; the kernel is there). A NumPy version of the same update
// (boolean indexing, fancy assignment) cost more than the rest of the
// Gymnasium layer together.
#include <string>

#include "../engine/game.hpp"
#include "../vector/id_mask.hpp"
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
        py::gil_scoped_release release;
        update_id_mask(mask.mutable_data(), ids.data(), counts.data(), marked.mutable_data(),
                       marked_counts.mutable_data(), rows, width, limit);
      },
      py::arg("mask"), py::arg("action_id"), py::arg("legal_action_count"), py::arg("marked"),
      py::arg("marked_count"),
      "Sets mask[r, id] = 1 for the first legal_action_count[r] ids of action_id[r] and clears the ids "
      "recorded in marked / marked_count (the previous call's), then records the new ones there. All "
      "arguments are C-contiguous (mask int8 [B, A], the others int32); every id is range-checked "
      "before anything is written.");
}

}  // namespace polyenv::python
