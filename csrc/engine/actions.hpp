// actions.hpp — Action, action kinds and ActionSpace: the documented bijection
// between stable global ids and actions for a map size N and P players.
// Blocks in id order (T = N*N tiles, relative player r = 1..P-1 in turn order):
//   EndTurn 1 | Research 24 | LevelUp 2 | DeclareWar P-1 | SendStars (P-1)*14 |
//   BuildRoad T | Spawn T*8 | Build T*19 | TileAction T*5 | UnitSelf T*7 |
//   Attack/Convert T*49 (7x7 window around the unit) | Move T*T
// Canonical legal order = ascending id, so EndTurn (id 0) is always first.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "rules.hpp"

namespace polyenv {

enum ActionBlock : int8_t {
  kBlockEndTurn, kBlockResearch, kBlockLevelUp, kBlockDeclareWar, kBlockSendStars, kBlockBuildRoad,
  kBlockSpawn, kBlockBuild, kBlockTileAction, kBlockUnitSelf, kBlockAttack, kBlockMove,
};
inline constexpr int kNumBlocks = 12;

enum UnitSelfKind : int8_t { kCapture, kRecover, kDisband, kExamine, kHealOthers, kMakeVeteran, kUpgrade };
inline constexpr int kNumUnitSelf = 7;

// Fine-grained kind of an action: the `type_id` feature and the kind names of
// GameEnv.action_id(kind, ...). Attack and Convert share a block (by unit type).
enum ActionKind : int8_t {
  kEndTurnKind, kResearchKind, kLevelUpKind, kDeclareWarKind, kSendStarsKind, kBuildRoadKind, kSpawnKind,
  kBuildKind, kGatherKind, kClearForestKind, kBurnForestKind, kGrowForestKind, kDestroyKind,
  kCaptureKind, kRecoverKind, kDisbandKind, kExamineKind, kHealOthersKind, kMakeVeteranKind, kUpgradeKind,
  kAttackKind, kConvertKind, kMoveKind,
};
inline constexpr int kNumActionKinds = 23;
inline constexpr std::array<const char*, kNumActionKinds> kActionKindNames = {
    "end_turn", "research", "level_up", "declare_war", "send_stars", "build_road", "spawn",
    "build", "gather", "clear_forest", "burn_forest", "grow_forest", "destroy",
    "capture", "recover", "disband", "examine", "heal_others", "make_veteran", "upgrade",
    "attack", "convert", "move"};

// The attack / convert targets of a unit: a window of side 2 * radius + 1 (7x7: range <= 3) around it.
inline constexpr int kAttackRadius = kMaxUnitRange;
inline constexpr int kAttackWindow = 2 * kAttackRadius + 1;

// A decoded action. source/target are tile indices (-1 if unused); arg is the
// tech, reward option (0/1), relative player, building, unit type, tile action
// or unit-self kind; amount is the star count of SendStars.
struct Action {
  ActionBlock block = kBlockEndTurn;
  int16_t source = -1;
  int16_t target = -1;
  int16_t arg = -1;
  int16_t amount = 0;
  bool operator==(const Action&) const = default;
};

class ActionSpace {
 public:
  ActionSpace() = default;
  ActionSpace(int map_size, int num_players) : n_(map_size), p_(num_players), t_(map_size * map_size) {
    const std::array<int32_t, kNumBlocks> sizes = {
        1, kNumTechs, 2, p_ - 1, (p_ - 1) * kMaxSendStars, t_,
        t_ * kNumSpawnable, t_ * kNumBuildings, t_ * kNumTileActions, t_ * kNumUnitSelf,
        t_ * kAttackWindow * kAttackWindow, t_ * t_};
    offset_[0] = 0;
    for (int b = 0; b < kNumBlocks; ++b) offset_[b + 1] = offset_[b] + sizes[b];
  }

  int map_size() const { return n_; }
  int num_players() const { return p_; }
  int size() const { return offset_[kNumBlocks]; }
  int block_offset(int block) const { return offset_[block]; }
  int block_of(int32_t id) const;
  // A fingerprint of the layout (changes if the layout or its version changes).
  uint64_t fingerprint() const;

  int32_t end_turn() const { return 0; }
  int32_t research(int tech) const { return offset_[kBlockResearch] + tech; }
  int32_t level_up(int option) const { return offset_[kBlockLevelUp] + option; }
  int32_t declare_war(int rel) const { return offset_[kBlockDeclareWar] + rel - 1; }
  int32_t send_stars(int rel, int n) const { return offset_[kBlockSendStars] + (rel - 1) * kMaxSendStars + n - 1; }
  int32_t build_road(int tile) const { return offset_[kBlockBuildRoad] + tile; }
  int32_t spawn(int tile, int unit_type) const { return offset_[kBlockSpawn] + tile * kNumSpawnable + unit_type; }
  int32_t build(int tile, int building) const { return offset_[kBlockBuild] + tile * kNumBuildings + building; }
  int32_t tile_action(int tile, int kind) const { return offset_[kBlockTileAction] + tile * kNumTileActions + kind; }
  int32_t unit_self(int tile, int kind) const { return offset_[kBlockUnitSelf] + tile * kNumUnitSelf + kind; }
  // Attack (or Convert) from `tile` on `target`; -1 if the target is outside the window.
  int32_t attack(int tile, int target) const;
  int32_t move(int tile, int target) const { return offset_[kBlockMove] + tile * t_ + target; }

  // Decodes any id in [0, size()); the caller checks the range.
  Action decode(int32_t id) const;
  int32_t encode(const Action& a) const;

 private:
  int n_ = 0, p_ = 0, t_ = 0;
  std::array<int32_t, kNumBlocks + 1> offset_{};
};

// Inline: the transition switches on the decoded block right after decoding.
inline int ActionSpace::block_of(int32_t id) const {
  int b = 0;  // the number of later blocks starting at or before id: no data-dependent branch
  for (int k = 1; k < kNumBlocks; ++k) b += id >= offset_[k];
  return b;
}

inline Action ActionSpace::decode(int32_t id) const {
  Action a;
  a.block = ActionBlock(block_of(id));
  int32_t r = id - offset_[a.block];
  switch (a.block) {
    case kBlockEndTurn: break;
    case kBlockResearch: a.arg = int16_t(r); break;
    case kBlockLevelUp: a.arg = int16_t(r); break;
    case kBlockDeclareWar: a.arg = int16_t(r + 1); break;
    case kBlockSendStars: a.arg = int16_t(r / kMaxSendStars + 1); a.amount = int16_t(r % kMaxSendStars + 1); break;
    case kBlockBuildRoad: a.target = int16_t(r); break;
    case kBlockSpawn: a.source = int16_t(r / kNumSpawnable); a.target = a.source; a.arg = int16_t(r % kNumSpawnable); break;
    case kBlockBuild: a.target = int16_t(r / kNumBuildings); a.arg = int16_t(r % kNumBuildings); break;
    case kBlockTileAction: a.target = int16_t(r / kNumTileActions); a.arg = int16_t(r % kNumTileActions); break;
    case kBlockUnitSelf: a.source = int16_t(r / kNumUnitSelf); a.target = a.source; a.arg = int16_t(r % kNumUnitSelf); break;
    case kBlockAttack: {
      constexpr int w2 = kAttackWindow * kAttackWindow;
      a.source = int16_t(r / w2);
      int cell = r % w2;
      int x = a.source / n_ + cell / kAttackWindow - kAttackRadius;
      int y = a.source % n_ + cell % kAttackWindow - kAttackRadius;
      a.target = (x >= 0 && y >= 0 && x < n_ && y < n_) ? int16_t(x * n_ + y) : int16_t(-1);
      break;
    }
    case kBlockMove: a.source = int16_t(r / t_); a.target = int16_t(r % t_); break;
  }
  return a;
}

}  // namespace polyenv
