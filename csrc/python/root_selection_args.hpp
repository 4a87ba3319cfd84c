// root_selection_args.hpp — the root-selection constructor arguments MctsPool and
// SelfPlayPool share ("puct" | "gumbel" and the Gumbel parameters); the pool's
// constructor checks the numbers.
#pragma once
#include <string>

#include "../search/mcts_pool.hpp"

namespace polyenv::python {

inline void set_root_selection(MctsPoolConfig& cfg, const std::string& root_selection, int num_simulations,
                               int max_considered, double gumbel_scale, double value_scale, double maxvisit_init) {
  if (root_selection == "puct") {
    cfg.root_selection = RootSelection::kPuct;
  } else if (root_selection == "gumbel") {
    cfg.root_selection = RootSelection::kGumbel;
  } else {
    throw InvalidArgument("root_selection must be 'puct' or 'gumbel', got '" + root_selection + "'");
  }
  cfg.gumbel.num_simulations = num_simulations;
  cfg.gumbel.max_considered = max_considered;
  cfg.gumbel.gumbel_scale = gumbel_scale;
  cfg.gumbel.value_scale = value_scale;
  cfg.gumbel.maxvisit_init = maxvisit_init;
}

// The keyword arguments' names and defaults, in the order set_root_selection takes them.
#define POLYENV_ROOT_SELECTION_ARGS                                                                       \
  py::arg("root_selection") = "puct", py::arg("num_simulations") = 0, py::arg("max_considered_actions") = 16, \
      py::arg("gumbel_scale") = 1.0, py::arg("gumbel_value_scale") = 0.1, py::arg("gumbel_maxvisit_init") = 50.0

}  // namespace polyenv::python
