// pool_outputs.hpp — output helpers shared by the MctsPool and SelfPlayPool bindings.
#pragma once
#include "../search/pool_batch.hpp"
#include "array_args.hpp"

#include <type_traits>
#include <utility>

namespace polyenv::python {

// The search layer's view of validated caller (or freshly allocated) output arrays.
inline FieldView view_of(const SpecOutputs& out) {
  FieldView v;
  v.data = out.data;
  v.bind(out.specs);
  return v;
}

// What a call returns: the fresh arrays as a dict, or None when it wrote into caller buffers.
inline py::object result(const SpecOutputs& out, const py::object& buffers) {
  return buffers.is_none() ? py::object(out.to_dict()) : py::object(py::none());
}

// Validates (or allocates) the outputs of `specs`, runs fill(view) with the GIL released and returns
// what the call returns (result()); fill's own return value, if any, is passed back first.
template <class Fill>
auto write_outputs(std::vector<FieldSpec> specs, const py::object& buffers, Fill&& fill) {
  SpecOutputs out(std::move(specs), buffers);
  const FieldView view = view_of(out);
  if constexpr (std::is_void_v<decltype(fill(view))>) {
    {
      py::gil_scoped_release release;
      fill(view);
    }
    return result(out, buffers);
  } else {
    decltype(fill(view)) value;
    {
      py::gil_scoped_release release;
      value = fill(view);
    }
    return std::make_pair(value, result(out, buffers));
  }
}

}  // namespace polyenv::python
