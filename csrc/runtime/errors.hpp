// errors.hpp — protocol errors shared by the batched runtimes (VectorEnv,
// MctsPool). Malformed arguments are InvalidArgument (engine/game.hpp).
#pragma once
#include <stdexcept>

namespace polyenv {

// A checked step received a state id that is no longer the environment's live position.
struct StaleState : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A leaf id that is unknown, already consumed (backed up or cancelled) or invalidated by a step or reset.
struct StaleLeaf : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A call that needs the search idle (step, reset) while leaves are pending evaluation.
struct PendingLeaves : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// require_all_actions=True and a position has more legal actions than max_actions.
struct ActionOverflow : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace polyenv
