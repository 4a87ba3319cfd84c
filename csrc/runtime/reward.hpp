// reward.hpp — the one reward of an accepted action (VectorGameEnv; the
// Gymnasium env pays it too, through polyenv._core.action_reward).
#pragma once
#include "../engine/game.hpp"

namespace polyenv {

// For the player who took the action (`actor`), measured once the action and
// the replies that followed it are applied (`after`): the change of
// score_margin(actor) since `margin_before`, divided by score_scale when
// score_scale > 0 (else nothing), plus +1 / -1 when the game ended with the
// actor's win / loss.
inline float action_reward(const GameState& after, int actor, int margin_before, double score_scale) {
  float reward = 0.0f;
  if (score_scale > 0) reward = float((score_margin(after, actor) - margin_before) / score_scale);
  if (after.game_over) reward += after.winner == actor ? 1.0f : -1.0f;
  return reward;
}

}  // namespace polyenv
