// array_args.hpp — NumPy arguments of the binding files: input vectors with
// checked dtype and shape, strided views, and caller output buffers validated
// against a list of FieldSpec (runtime/buffers.hpp).
#pragma once
#include <bit>
#include <string>
#include <vector>

#include "../runtime/buffers.hpp"
#include "bindings.hpp"

namespace polyenv::python {

inline bool native_byte_order(char byteorder) {
  if (byteorder == '=' || byteorder == '|') return true;
  return (std::endian::native == std::endian::little) == (byteorder == '<');
}

inline std::string type_name(const py::handle& obj) { return py::str(py::type::of(obj).attr("__name__")); }

// A 1-D input vector of `expected` elements with one of the accepted dtypes
// (kind, itemsize pairs); strides are allowed.
inline py::array input_vector(const py::handle& obj, const char* name, char kind, int itemsize_a, int itemsize_b,
                       const char* dtypes, int expected) {
  if (!py::isinstance<py::array>(obj)) {
    throw InvalidArgument(std::string(name) + " must be a NumPy array of " + dtypes + ", got " + type_name(obj));
  }
  auto a = py::reinterpret_borrow<py::array>(obj);
  const py::dtype dt = a.dtype();
  const int size = int(dt.itemsize());
  if (dt.kind() != kind || (size != itemsize_a && size != itemsize_b) || !native_byte_order(dt.byteorder())) {
    throw InvalidArgument(std::string(name) + " must have dtype " + dtypes + ", got " +
                          dtype_text(dt.kind(), size, native_byte_order(dt.byteorder())));
  }
  if (a.ndim() != 1 || (expected >= 0 && a.shape(0) != expected)) {
    std::string shape = "(";
    for (py::ssize_t i = 0; i < a.ndim(); ++i) {
      if (i) shape += ", ";
      shape += std::to_string(a.shape(i));
    }
    shape += a.ndim() == 1 ? ",)" : ")";
    throw InvalidArgument(std::string(name) + " must have shape (" +
                          (expected >= 0 ? std::to_string(expected) : std::string("n")) + ",), got " + shape);
  }
  return a;
}

template <class T>
Strided<T> strided(const py::array& a) {
  Strided<T> s;
  s.data = static_cast<const char*>(a.data());
  s.stride = int64_t(a.strides(0));
  s.size = int(a.shape(0));
  return s;
}

inline IndexSpan index_span(const py::array& a) {
  IndexSpan s;
  s.data = static_cast<const char*>(a.data());
  s.stride = int64_t(a.strides(0));
  s.size = int(a.shape(0));
  s.itemsize = int(a.itemsize());
  return s;
}

// How the validator sees a NumPy array.
inline BufferInfo buffer_info(const py::array& a) {
  BufferInfo b;
  const py::dtype dt = a.dtype();
  b.data = const_cast<void*>(a.data());
  b.kind = dt.kind();
  b.itemsize = int(dt.itemsize());
  b.native_order = native_byte_order(dt.byteorder());
  b.ndim = int(a.ndim());
  for (int i = 0; i < std::min(b.ndim, 8); ++i) b.shape[size_t(i)] = int64_t(a.shape(i));
  b.writable = a.writeable();
  b.aligned = (a.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_) != 0;
  b.c_contiguous = (a.flags() & py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_) != 0;
  return b;
}

// The output arrays of one call for a list of field specs: freshly allocated
// (buffers None) or the caller's dict, validated; `keep` holds references
// while the GIL is released (py::object, not py::array: a default py::array is
// a new empty NumPy array, one per field and call).
struct SpecOutputs {
  std::vector<FieldSpec> specs;
  std::vector<py::object> keep;
  std::vector<void*> data;

  SpecOutputs(std::vector<FieldSpec> field_specs, const py::object& buffers) : specs(std::move(field_specs)) {
    const size_t n = specs.size();
    keep.resize(n);
    data.resize(n);
    if (buffers.is_none()) {
      for (size_t f = 0; f < n; ++f) {
        const FieldSpec& spec = specs[f];
        std::vector<py::ssize_t> shape(spec.shape.begin(), spec.shape.begin() + spec.ndim);
        py::array a{py::dtype(kDTypeNames[size_t(spec.dtype)]), shape};
        data[f] = a.mutable_data();
        keep[f] = std::move(a);
      }
      return;
    }
    if (!py::isinstance<py::dict>(buffers)) {
      throw InvalidArgument("buffers must be a dict of NumPy arrays, got " + type_name(buffers));
    }
    auto dict = py::reinterpret_borrow<py::dict>(buffers);
    std::vector<BufferInfo> info(n);
    for (size_t f = 0; f < n; ++f) {
      const char* name = specs[f].name;
      PyObject* found = PyDict_GetItemString(dict.ptr(), name);  // borrowed; one key object, not two
      if (!found) throw InvalidArgument(std::string("buffers is missing '") + name + "'");
      py::handle item(found);
      if (!py::isinstance<py::array>(item)) {
        throw InvalidArgument(std::string("buffer '") + name + "' must be a NumPy array, got " + type_name(item));
      }
      auto a = py::reinterpret_borrow<py::array>(item);
      info[f] = buffer_info(a);
      data[f] = info[f].data;
      keep[f] = std::move(a);
    }
    if (size_t(dict.size()) != n) {
      for (auto item : dict) {
        const std::string key = py::str(item.first);
        bool known = false;
        for (const FieldSpec& s : specs) known = known || key == s.name;
        if (!known) throw InvalidArgument("unexpected buffer '" + key + "' (not a field of the spec)");
      }
    }
    validate_field_buffers(specs.data(), int(n), info.data());
  }

  py::dict to_dict() const {
    py::dict d;
    for (size_t f = 0; f < specs.size(); ++f) d[specs[f].name] = keep[f];
    return d;
  }
};

// A spec list as Python sees it: {name: (shape, dtype)} in field order.
inline py::dict spec_dict(const std::vector<FieldSpec>& specs) {
  py::dict out;
  for (const FieldSpec& spec : specs) {
    py::tuple shape(spec.ndim);
    for (int i = 0; i < spec.ndim; ++i) shape[size_t(i)] = spec.shape[size_t(i)];
    out[spec.name] = py::make_tuple(shape, kDTypeNames[size_t(spec.dtype)]);
  }
  return out;
}

}  // namespace polyenv::python
