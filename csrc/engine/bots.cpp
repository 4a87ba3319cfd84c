// Built-in bots (bots.hpp). "random" picks uniformly among the legal actions.
// "greedy" is a one-ply search: every legal action is applied to a scratch
// copy of the state and the result is scored from the acting player's view
// with a hand-made evaluation (material, cities, growth, research, approach to
// villages and enemy cities); the best action wins, ties broken at random, and
// End Turn is played when no action improves the evaluation.
#include "bots.hpp"

#include <algorithm>

#include "mechanics.hpp"

namespace polyenv {

namespace {

// ---- evaluation weights (units: roughly "a 10-HP warrior is worth 46")
constexpr double kWinValue = 1e7;
constexpr double kCityValue = 500;         // a city (captures come first)
constexpr double kCityLevelValue = 50;     // per city level
constexpr double kPopulationValue = 12;    // per population point (growth)
constexpr double kProductionValue = 20;    // per star of production
constexpr double kWallsValue = 20;
constexpr double kOccupiedCityPenalty = 200;  // an enemy unit stands on one of our city centres
constexpr double kGuardValue = 25;         // own unit on a threatened own city centre
constexpr int kThreatRadius = 2;
constexpr double kTechValue = 25;          // per known tech (research)
constexpr double kScoreWeight = 0.15;      // Tribes score (decides games at the turn limit)
constexpr double kStarValue = 2;           // per own star (spending must buy something)
constexpr double kExploreValue = 1;        // per tile revealed
constexpr double kEnemyMaterialWeight = 1.2;  // enemy losses count a bit more: trading is good
constexpr double kApproachValue = 4;       // per tile closer to the nearest target
constexpr int kApproachRange = 15;
constexpr double kOnTargetValue = 20;      // standing on a village / enemy city / ruins
constexpr double kImprovement = 1e-6;      // smallest change that beats End Turn

// Value of a unit: its type (boats: what they carry, plus the upgrades paid),
// scaled by health.
double unit_value(const Unit& u) {
  int type = u.type;
  double bonus = 0;
  if (is_naval(type)) {
    bonus = type == kShip ? 15 : type == kBattleship ? 40 : 0;
    type = u.land_type >= 0 ? int(u.land_type) : int(kWarrior);
  }
  const double base = 30 + 8.0 * kUnits[type].cost + bonus;
  const double health = u.max_hp > 0 ? double(std::max<int>(u.hp, 0)) / u.max_hp : 0;
  return base * (0.4 + 0.6 * health);
}

// Tiles the player wants to reach: villages, enemy city centres and ruins it can see.
int collect_targets(const GameState& s, int me, int16_t* out) {
  int count = 0;
  for (int t = 0; t < s.num_tiles; ++t) {
    const Tile& tile = s.tiles[t];
    bool target = tile.terrain == kVillage || tile.resource == kRuins ||
                  (tile.terrain == kCity && s.cities[tile.city].owner != me);
    if (target && sees_tile(s, me, t)) out[count++] = int16_t(t);
  }
  return count;
}

// The acting player's view of a state: higher is better for `me`.
double evaluate(const GameState& s, int me) {
  if (s.game_over) return s.winner == me ? kWinValue : -kWinValue;
  const Player& self = s.players[me];
  if (!self.alive) return -kWinValue;
  double v = 0;
  for (int q = 0; q < s.num_players; ++q) {
    const Player& p = s.players[q];
    if (!p.alive) continue;
    const double sign = q == me ? 1.0 : -kEnemyMaterialWeight;
    v += sign * (kTechValue * count_known_techs(p) + kScoreWeight * p.score);
  }
  v += kStarValue * self.stars + kExploreValue * self.explored_count;

  for (int c = 0; c < int(s.cities.size()); ++c) {
    const City& city = s.cities[c];
    if (city.owner < 0) continue;
    const double sign = city.owner == me ? 1.0 : -kEnemyMaterialWeight;
    double value = kCityValue + kCityLevelValue * city.level + kPopulationValue * city.population +
                   kProductionValue * city_production(s, c) + (city.walls() ? kWallsValue : 0);
    v += sign * value;
    if (city.owner != me) continue;
    const Unit* occupant = s.unit_at(city.tile);
    if (occupant && occupant->owner != me) {
      v -= kOccupiedCityPenalty;
    } else if (occupant) {
      bool threatened = false;
      for_each_in_radius(s, city.tile, kThreatRadius, [&](int t) {
        const Unit* u = s.unit_at(t);
        if (u && u->owner != me && sees_tile(s, me, t)) threatened = true;
      });
      if (threatened) v += kGuardValue;
    }
  }

  int16_t targets[kMaxTiles];
  const int num_targets = collect_targets(s, me, targets);
  for (const Unit& u : s.units) {
    if (!u.alive()) continue;
    if (u.owner != me) {
      v -= kEnemyMaterialWeight * unit_value(u);
      continue;
    }
    v += unit_value(u);
    int nearest = kApproachRange;
    for (int i = 0; i < num_targets && nearest > 0; ++i) nearest = std::min(nearest, s.distance(u.tile, targets[i]));
    v += kApproachValue * (kApproachRange - nearest);
    if (nearest == 0) v += kOnTargetValue;
  }
  return v;
}

int32_t random_action(const GameState& s, Rng& rng, BotScratch& scratch) {
  if (scratch.legal.empty()) scratch.legal.resize(1024);
  int total = legal_actions(s, scratch.legal.data(), int(scratch.legal.size()));
  if (total > int(scratch.legal.size())) {
    scratch.legal.resize(size_t(total) * 2);
    total = legal_actions(s, scratch.legal.data(), int(scratch.legal.size()));
  }
  return scratch.legal[rng.below(uint32_t(total))];
}

int32_t greedy_action(const GameState& s, Rng& rng, BotScratch& scratch) {
  if (scratch.legal.empty()) scratch.legal.resize(1024);
  int total = legal_actions(s, scratch.legal.data(), int(scratch.legal.size()));
  if (total > int(scratch.legal.size())) {
    scratch.legal.resize(size_t(total) * 2);
    total = legal_actions(s, scratch.legal.data(), int(scratch.legal.size()));
  }
  const int me = s.current_player;
  const double base = evaluate(s, me);
  // Branches replay chance events (ruins, explorers, meetings) from a stream of
  // the bot's own, so the bot cannot peek at the game's future random draws.
  const uint64_t branch_seed = (uint64_t(rng.next()) << 32) | rng.next();
  int32_t best = -1;
  double best_gain = 0;
  uint32_t ties = 0;
  const bool end_turn_legal = total > 0 && scratch.legal[0] == 0;
  for (int i = 0; i < total; ++i) {
    const int32_t id = scratch.legal[i];
    double gain;
    if (id == 0) {
      gain = 0;  // End Turn: the reference point
    } else {
      scratch.branch = s;
      scratch.branch.rng.seed(branch_seed, 0x5EED);
      apply_action(scratch.branch, id);
      gain = evaluate(scratch.branch, me) - base;
    }
    if (best < 0 || gain > best_gain + kImprovement) {
      best = id;
      best_gain = gain;
      ties = 1;
    } else if (gain >= best_gain - kImprovement && rng.below(++ties) == 0) {
      best = id;  // reservoir sampling among equal gains
    }
  }
  // End Turn when nothing improves the position (it is always preferred on a tie with 0).
  if (end_turn_legal && best_gain <= kImprovement) return 0;
  return best;
}

}  // namespace

double bot_evaluation(const GameState& s, int player) { return evaluate(s, player); }

int32_t bot_action(const GameState& s, BotKind bot, Rng& rng, BotScratch& scratch) {
  return bot == kGreedyBot ? greedy_action(s, rng, scratch) : random_action(s, rng, scratch);
}

Rng bot_rng(uint64_t seed) {
  Rng rng;
  rng.seed(splitmix64(seed), 0xB07);
  return rng;
}

Rng bot_rng_for_position(const GameState& s) {
  return bot_rng(s.rng.state ^ (s.rng.inc << 1) ^ uint64_t(s.actions_applied) * 0x9E3779B97F4A7C15ull);
}

}  // namespace polyenv
