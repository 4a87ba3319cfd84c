#include "actions.hpp"

namespace polyenv {

namespace {
constexpr uint64_t kLayoutVersion = 1;
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
