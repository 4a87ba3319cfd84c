// The polyenv._core extension: one init function per exported area.
#include <pybind11/pybind11.h>

#include "bindings.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "polyenv native core (private: use the names exported by `polyenv`)";
  polyenv::python::init_errors(m);
  polyenv::python::init_constants(m);
  polyenv::python::init_game(m);
  polyenv::python::init_game_testing(m);
  polyenv::python::init_description(m);
  polyenv::python::init_bots(m);
  polyenv::python::init_vector(m);
  polyenv::python::init_masks(m);
  polyenv::python::init_flat(m);
  polyenv::python::init_mcts_pool(m);
  polyenv::python::init_selfplay_pool(m);
  polyenv::python::init_play(m);
  polyenv::python::init_az(m);
  polyenv::python::init_row_objects(m);
}
