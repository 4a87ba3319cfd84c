// game_handle.cpp — GameHandle (game_handle.hpp).
#include "game_handle.hpp"

#include <algorithm>
#include <cstring>

namespace polyenv {

int GameHandle::legal_now() {
  if (legal_valid && legal_complete) return legal_count;
  if (legal.empty()) legal.resize(4096);
  int total = legal_actions(state, legal.data(), int(legal.size()), &moves);
  if (total > int(legal.size())) {
    legal.resize(size_t(total) * 2);
    total = legal_actions(state, legal.data(), int(legal.size()), &moves);
  }
  legal_count = total;
  legal_valid = legal_complete = true;
  return total;
}

void GameHandle::cache_legal(const int32_t* ids, int rows, bool complete) {
  if (int(legal.size()) < rows) legal.resize(size_t(rows));
  if (rows > 0) std::memcpy(legal.data(), ids, sizeof(int32_t) * size_t(rows));
  legal_count = rows;
  legal_valid = true;
  legal_complete = complete;
}

Refusal GameHandle::check(int64_t id) const {
  if (id < 0 || id >= action_space(state).size()) return Refusal::kOutOfRange;
  if (state.game_over) return Refusal::kGameOver;
  if (legal_valid && legal_complete) {
    return std::binary_search(legal.begin(), legal.begin() + legal_count, int32_t(id)) ? Refusal::kNone
                                                                                          : Refusal::kIllegal;
  }
  return is_legal(state, int32_t(id)) ? Refusal::kNone : Refusal::kIllegal;
}

void GameHandle::apply_checked(int64_t id, EventSink* sink) {
  switch (check(id)) {
    case Refusal::kNone: break;
    case Refusal::kOutOfRange:
      throw InvalidArgument("action id " + std::to_string(id) + " is outside [0, " +
                            std::to_string(action_space(state).size()) + ")");
    case Refusal::kGameOver: throw InvalidArgument("the game is over; call reset()");
    case Refusal::kIllegal:
      throw InvalidArgument("action " + std::to_string(id) + " (" + describe_action(state, int32_t(id)) +
                            ") is not legal now");
  }
  apply_action(state, int32_t(id), sink);
  state_changed();
}

}  // namespace polyenv
