// Developer tool: random playouts for profiling the engine (perf record ./profile_playout,
// valgrind --tool=callgrind ./profile_playout 5 11 2 m).
// Arguments: games size players [m: use a MoveCache | c: also compare with a fresh list] [f: full observability].
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "engine/game.hpp"

int main(int argc, char** argv) {
  using namespace polyenv;
  const int games = argc > 1 ? std::atoi(argv[1]) : 200;
  const int size = argc > 2 ? std::atoi(argv[2]) : 11;
  const int players = argc > 3 ? std::atoi(argv[3]) : 2;
  GameConfig cfg;
  cfg.map_size = size;
  cfg.tribes.clear();
  for (int i = 0; i < players; ++i) cfg.tribes.push_back(int8_t((2 + i) % kNumTribes));
  cfg.full_observability = argc > 5 && argv[5][0] == 'f';  // "f": full observability
  const bool check = argc > 4 && argv[4][0] == 'c';  // compare the cached list with a fresh one
  const bool cached = argc > 4;
  std::vector<int32_t> legal(1 << 16), fresh(1 << 16);
  MoveCache cache;
  GameState s;
  Rng rng;
  rng.seed(7);
  long actions = 0, decisions_sum = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (int g = 0; g < games; ++g) {
    new_game(s, cfg, uint64_t(g));
    int n = legal_actions(s, legal.data(), int(legal.size()), cached ? &cache : nullptr);
    while (!s.game_over) {
      if (check) {
        int m = legal_actions(s, fresh.data(), int(fresh.size()));
        if (m != n || !std::equal(legal.begin(), legal.begin() + n, fresh.begin())) {
          std::printf("cache mismatch in game %d after %lld actions\n", g, static_cast<long long>(s.actions_applied));
          return 1;
        }
      }
      decisions_sum += n;
      // As random_playout: the action, the automatic End Turn and the next list in one call.
      n = apply_action_and_list(s, legal[rng.below(uint32_t(n))], legal.data(), int(legal.size()),
                                cached ? &cache : nullptr);
      ++actions;
    }
  }
  double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%d games, %ld actions, %.0f actions/s, mean legal %.1f\n", games, actions, actions / dt,
              double(decisions_sum) / actions);
}
