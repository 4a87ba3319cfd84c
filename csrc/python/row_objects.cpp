// polyenv._core.row_objects: a dict of batched arrays -> an object array with one
// dict of row views per listed environment (None elsewhere). Gymnasium's
// infos["final_obs"] wants one observation per environment; the arrays are
// built batched, and this splits them without a Python loop over environments.
#include <string>
#include <vector>

#include "../engine/game.hpp"
#include "bindings.hpp"

namespace polyenv::python {

void init_row_objects(py::module_& m) {
  m.def(
      "row_objects",
      [](const py::dict& rows, const py::array_t<int64_t, py::array::c_style | py::array::forcecast>& env_ids,
         py::ssize_t num_envs) {
        if (num_envs < 0) throw InvalidArgument("num_envs must be >= 0, got " + std::to_string(num_envs));
        if (env_ids.ndim() != 1) throw InvalidArgument("env_ids must be one-dimensional");
        const py::ssize_t n = env_ids.shape(0);
        auto ids = env_ids.unchecked<1>();
        for (py::ssize_t k = 0; k < n; ++k) {
          if (ids(k) < 0 || ids(k) >= num_envs) {
            throw InvalidArgument("env_ids[" + std::to_string(k) + "] = " + std::to_string(ids(k)) +
                                  " is outside [0, " + std::to_string(num_envs) + ")");
          }
        }
        for (const auto& [key, value] : rows) {
          if (!py::isinstance<py::array>(value) || py::reinterpret_borrow<py::array>(value).ndim() < 1 ||
              py::reinterpret_borrow<py::array>(value).shape(0) != n) {
            throw InvalidArgument("rows[" + std::string(py::str(key)) + "] must be an array with " +
                                  std::to_string(n) + " rows (one per env id)");
          }
        }
        py::array out(py::dtype("O"), std::vector<py::ssize_t>{num_envs});
        auto* cells = static_cast<PyObject**>(out.mutable_data());
        for (py::ssize_t i = 0; i < num_envs; ++i) {  // NumPy may leave a fresh object array NULL
          Py_INCREF(Py_None);
          Py_XDECREF(cells[i]);
          cells[i] = Py_None;
        }
        for (py::ssize_t k = 0; k < n; ++k) {
          py::dict obs;
          for (const auto& [key, value] : rows) obs[key] = value[py::int_(k)];
          PyObject* old = cells[ids(k)];
          cells[ids(k)] = obs.release().ptr();
          Py_XDECREF(old);
        }
        return out;
      },
      py::arg("rows"), py::arg("env_ids"), py::arg("num_envs"),
      "An object array of num_envs entries: entry env_ids[k] is {key: rows[key][k]} (views), the others None.");
}

}  // namespace polyenv::python
