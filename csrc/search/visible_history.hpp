// visible_history.hpp — the store of SelfPlayPool's compact visible-action
// histories (seed 002); the rows themselves are encode/history_rows.hpp's.
//
// Storage is a persistent list per observer: an entry holds its row, the
// entry before it and the history length, so a history is one int32 head and
// every extension shares its whole prefix. A game's live histories form one
// arena that lives for the episode; its search tree's entries form a second
// arena dropped with the tree. A tree node keeps one head per player (its
// parent's heads plus the rows of the action that made it), so a node costs
// P int32 and an event one entry per observer who saw it — never H rows;
// the tree's byte budget charges each node that bound (bytes_per_node()).
// The H-row window is packed only for the batch rows that are written.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "../encode/history_rows.hpp"
#include "../players/tree.hpp"

namespace polyenv {

// One game's histories: every player's live history and its search tree's
// per-node histories. The tree calls it as a TreeListener.
class GameHistory final : public TreeListener {
 public:
  static constexpr int32_t kEmpty = -1;
  GameHistory() = default;
  GameHistory(const GameHistory&) = delete;  // live_sink() points back at its owner
  GameHistory& operator=(const GameHistory&) = delete;

  void init(int players);
  // A new episode (or a replaced position): every live history becomes empty.
  void clear_live();
  // Receives the live game's events (MctsPool's live step).
  EventSink* live_sink() { return &live_sink_; }

  // TreeListener: the tree was reset (node 0 gets the live heads) / node
  // `child` was made from `parent`; on_event then records the action's rows.
  void on_root() override;
  void on_child(int32_t parent, int32_t child) override;
  void on_event(const GameState& s, const WorldEvent& e) override;
  // A node's bound: P heads, and at most one entry per player for its action.
  int64_t bytes_per_node() const override { return int64_t(players_) * int64_t(sizeof(int32_t) + sizeof(Entry)); }

  int32_t live_head(int player) const { return live_heads_[size_t(player)]; }
  int32_t node_head(int32_t node, int player) const { return node_heads_[size_t(node) * size_t(players_) + size_t(player)]; }
  int32_t length(int32_t head) const { return head == kEmpty ? 0 : entry(head).length; }

  // Writes the H-row window ending at `head` right-aligned (newest at H - 1);
  // `extra`, when given, is one more row newer than head (a transient leaf).
  void pack(int32_t head, const int32_t* extra, int H, int32_t* rows, uint8_t* mask, int32_t* length) const;

  // Memory held (entries, node heads; capacities included).
  int64_t live_entries() const { return int64_t(live_.size()); }
  int64_t tree_entries() const { return int64_t(tree_.size()); }
  int64_t bytes() const;

 private:
  struct Entry {
    std::array<int32_t, kHistoryFeatures> row;
    int32_t prev;
    int32_t length;
  };
  static constexpr int32_t kTreeBit = int32_t(1) << 30;  // tree arena refs; live refs are plain indices
  const Entry& entry(int32_t ref) const {
    return (ref & kTreeBit) ? tree_[size_t(ref & ~kTreeBit)] : live_[size_t(ref)];
  }
  // Appends e's rows to the heads heads[0..P) in the live or tree arena.
  void record(const GameState& s, const WorldEvent& e, int32_t* heads, bool tree);

  struct LiveSink final : EventSink {
    GameHistory* owner = nullptr;
    void on_event(const GameState& s, const WorldEvent& e) override {
      owner->record(s, e, owner->live_heads_.data(), false);
    }
  };

  int players_ = 0;
  std::vector<Entry> live_, tree_;
  std::vector<int32_t> live_heads_;  // [P]
  std::vector<int32_t> node_heads_;  // [nodes * P]
  int32_t target_node_ = -1;         // the node the tree's next events belong to
  LiveSink live_sink_;
};

}  // namespace polyenv
