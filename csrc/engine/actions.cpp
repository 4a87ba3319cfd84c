#include "actions.hpp"

namespace polyenv {

namespace {
constexpr uint64_t kLayoutVersion = 1;
}

int ActionSpace::block_of(int32_t id) const {
  int b = 0;  // the number of later blocks starting at or before id: no data-dependent branch
  for (int k = 1; k < kNumBlocks; ++k) b += id >= offset_[k];
  return b;
}

uint64_t ActionSpace::fingerprint() const {
  uint64_t h = 1469598103934665603ull ^ kLayoutVersion;
  for (int32_t o : offset_) { h ^= uint64_t(uint32_t(o)); h *= 1099511628211ull; }
  h ^= uint64_t(n_) << 8 | uint64_t(p_);
  h *= 1099511628211ull;
  return h;
}

int32_t ActionSpace::attack(int tile, int target) const {
  int dx = target / n_ - tile / n_, dy = target % n_ - tile % n_;
  if (dx < -kAttackRadius || dx > kAttackRadius || dy < -kAttackRadius || dy > kAttackRadius) return -1;
  int cell = (dx + kAttackRadius) * kAttackWindow + (dy + kAttackRadius);
  return offset_[kBlockAttack] + tile * kAttackWindow * kAttackWindow + cell;
}

Action ActionSpace::decode(int32_t id) const {
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

int32_t ActionSpace::encode(const Action& a) const {
  switch (a.block) {
    case kBlockEndTurn: return end_turn();
    case kBlockResearch: return research(a.arg);
    case kBlockLevelUp: return level_up(a.arg);
    case kBlockDeclareWar: return declare_war(a.arg);
    case kBlockSendStars: return send_stars(a.arg, a.amount);
    case kBlockBuildRoad: return build_road(a.target);
    case kBlockSpawn: return spawn(a.source, a.arg);
    case kBlockBuild: return build(a.target, a.arg);
    case kBlockTileAction: return tile_action(a.target, a.arg);
    case kBlockUnitSelf: return unit_self(a.source, a.arg);
    case kBlockAttack: return attack(a.source, a.target);
    case kBlockMove: return move(a.source, a.target);
  }
  return -1;
}

}  // namespace polyenv
