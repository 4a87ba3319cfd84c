// visible_history.cpp — the persistent store of history rows (visible_history.hpp).
#include "visible_history.hpp"

#include <algorithm>
#include <cstring>

#include "../engine/game.hpp"

namespace polyenv {

// ---- GameHistory

void GameHistory::init(int players) {
  players_ = players;
  live_sink_.owner = this;
  live_heads_.assign(size_t(players), kEmpty);
  live_.clear();
  on_root();
}

void GameHistory::clear_live() {
  live_.clear();
  std::fill(live_heads_.begin(), live_heads_.end(), kEmpty);
}

void GameHistory::on_root() {
  tree_.clear();
  node_heads_.assign(live_heads_.begin(), live_heads_.end());
  target_node_ = -1;
}

void GameHistory::on_child(int32_t parent, int32_t child) {
  const size_t P = size_t(players_);
  node_heads_.resize((size_t(child) + 1) * P);
  std::copy_n(node_heads_.begin() + ptrdiff_t(size_t(parent) * P), P, node_heads_.begin() + ptrdiff_t(size_t(child) * P));
  target_node_ = child;
}

void GameHistory::on_event(const GameState& s, const WorldEvent& e) {
  if (target_node_ < 0) return;
  record(s, e, node_heads_.data() + size_t(target_node_) * size_t(players_), true);
}

void GameHistory::record(const GameState& s, const WorldEvent& e, int32_t* heads, bool tree) {
  std::vector<Entry>& arena = tree ? tree_ : live_;
  for (int p = 0; p < players_; ++p) {
    Entry x;
    if (!history_row(s, e, p, x.row.data())) continue;
    x.prev = heads[p];
    x.length = length(heads[p]) + 1;
    heads[p] = int32_t(arena.size()) | (tree ? kTreeBit : 0);
    arena.push_back(x);
  }
}

void GameHistory::pack(int32_t head, const int32_t* extra, int H, int32_t* rows, uint8_t* mask, int32_t* length) const {
  const int n = std::min(this->length(head) + (extra ? 1 : 0), H);
  const int pad = H - n;
  std::memset(rows, 0, sizeof(int32_t) * size_t(pad) * kHistoryFeatures);
  std::memset(mask, 0, size_t(pad));
  int pos = H - 1;
  if (extra && n > 0) {
    std::memcpy(rows + size_t(pos) * kHistoryFeatures, extra, sizeof(int32_t) * kHistoryFeatures);
    mask[pos--] = 1;
  }
  for (int32_t ref = head; pos >= pad; --pos) {
    const Entry& x = entry(ref);
    std::memcpy(rows + size_t(pos) * kHistoryFeatures, x.row.data(), sizeof(x.row));
    mask[pos] = 1;
    ref = x.prev;
  }
  *length = n;
}

int64_t GameHistory::bytes() const {
  return int64_t((live_.capacity() + tree_.capacity()) * sizeof(Entry) +
                 (live_heads_.capacity() + node_heads_.capacity()) * sizeof(int32_t));
}

}  // namespace polyenv
