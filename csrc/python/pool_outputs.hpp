// pool_outputs.hpp — output helpers shared by the MctsPool and SelfPlayPool bindings.
#pragma once
#include "../search/pool_batch.hpp"
#include "array_args.hpp"

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

}  // namespace polyenv::python
