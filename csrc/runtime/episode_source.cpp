// episode_source.cpp — a stand-alone game's episode source (episode_source.hpp).
#include "episode_source.hpp"

#include <utility>

namespace polyenv {

EpisodeSource EpisodeSource::generated(GameConfig config) {
  EpisodeSource source;
  source.config = std::move(config);
  return source;
}

EpisodeSource EpisodeSource::of_level(Level level, GameConfig config) {
  EpisodeSource source;
  source.kind = Kind::kLevel;
  source.config = std::move(config);
  source.level = std::move(level);
  return source;
}

EpisodeSource EpisodeSource::blank(GameConfig config, int terrain, bool revealed) {
  EpisodeSource source;
  source.kind = Kind::kBlank;
  source.config = std::move(config);
  source.blank_terrain = terrain;
  source.blank_revealed = revealed;
  return source;
}

void EpisodeSource::start(GameState& s, uint64_t seed) const {
  switch (kind) {
    case Kind::kGenerated: new_game(s, config, seed); break;
    case Kind::kLevel: setup_game(s, level, config, seed); break;
    case Kind::kBlank:
      blank_game(s, config.map_size, config.tribes, blank_terrain, config.mode, config.max_turns, seed, blank_revealed,
                 config.full_observability);
      break;
  }
}

void SourcedGame::new_episode(uint64_t new_seed) {
  seed = new_seed;
  source.start(state, seed);
  new_episode_id();
  touched();
  journal.configure(state.num_players, 0);
}

}  // namespace polyenv
