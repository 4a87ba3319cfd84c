// names.cpp — the exported column names of the encoder's layouts (seed 000).
#include "encode.hpp"

namespace polyenv {

// Map token columns; see map_tokens.cpp for the exact meaning of each column.
const std::array<const char*, kMapTokenFeatures> kMapTokenFeatureNames = {
    "explored",       "terrain",         "resource",          "building",         "building_level",
    "road",           "territory_owner", "territory_city_tile", "city_owner",     "city_level",
    "city_population", "city_flags",     "city_production",   "unit_owner",       "unit_type",
    "unit_hp",        "unit_max_hp",     "unit_status",       "unit_flags",       "unit_kills",
    "unit_carried_type", "observed_unit_id", "unit_home_city_tile"};

// Seed 000 state fields, in order.
const std::array<const char*, kStateFeatures> kStateFeatureNames = {
    "turn",       "current_player", "game_over",         "winner",           "player_stars",
    "owns_units", "own_cities",     "next_turn_star_income", "pending_city_id", "pending_upgrade_a",
    "pending_upgrade_b"};

// Seed 000 action_features fields, in order.
const std::array<const char*, kActionFeatures> kActionFeatureNames = {
    "type_id",     "source_index", "target_index", "city",      "tech",         "building",
    "spawn_type",  "upgrade",      "tile_action",  "unit_upgrade", "unit_id",   "population_gain",
    "cost_stars",  "stars_before", "affordable",   "damage_dealt", "damage_received"};

// action_arg_mask column j flags action_features column j + 1.
const std::array<const char*, kActionArgFeatures> kActionArgMaskNames = {
    "source_index", "target_index", "city",         "tech",    "building",        "spawn_type",
    "upgrade",      "tile_action",  "unit_upgrade", "unit_id", "population_gain", "cost_stars"};

}  // namespace polyenv
