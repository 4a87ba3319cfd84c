// Shared declarations of the binding files (csrc/python/*.cpp).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <vector>

namespace polyenv::python {

namespace py = pybind11;

void init_errors(py::module_& m);
void init_constants(py::module_& m);
void init_game(py::module_& m);
void init_bots(py::module_& m);
void init_vector(py::module_& m);
void init_masks(py::module_& m);
void init_flat(py::module_& m);
void init_mcts_pool(py::module_& m);
void init_selfplay_pool(py::module_& m);
void init_description(py::module_& m);  // after init_constants and init_game (adds to Game)
void init_play(py::module_& m);
void init_az(py::module_& m);
void init_row_objects(py::module_& m);
void init_game_testing(py::module_& m);  // after init_game (takes a Game)

// A fresh C-contiguous NumPy array of the given shape.
template <class T>
py::array_t<T> new_array(const std::vector<py::ssize_t>& shape) {
  return py::array_t<T>(shape);
}

}  // namespace polyenv::python
