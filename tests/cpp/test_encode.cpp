// test_encode.cpp — checks of the encoder on a hand-built GameState: fog
// blanking, relative ownership, hidden columns and resources, state fields,
// action-row padding and truncation. Standalone; exits non-zero on failure.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "check.hpp"
#include "encode/encode.hpp"
#include "engine/game.hpp"

using namespace polyenv;

namespace {

int col(const char* name) {
  for (int j = 0; j < kMapTokenFeatures; ++j)
    if (std::strcmp(kMapTokenFeatureNames[j], name) == 0) return j;
  std::fprintf(stderr, "no map token column %s\n", name);
  std::exit(2);
}
int fcol(const char* name) {
  for (int j = 0; j < kActionFeatures; ++j)
    if (std::strcmp(kActionFeatureNames[j], name) == 0) return j;
  std::fprintf(stderr, "no action feature %s\n", name);
  std::exit(2);
}

void set_explored(GameState& s, int player, int tile) {
  s.explored[size_t(player) * s.explored_words() + (tile >> 6)] |= uint64_t(1) << (tile & 63);
}

// 5x5 board, 3 players (turn order 0, 1, 2), observer 0 is current.
//   city 0 (player 0) centre (1,1)=6, territory x0..2 y0..2, capital + workshop
//   city 1 (player 1) centre (3,3)=18, territory x3..4 y3..4, level 2, walls
//   resources: crops (0,4)=4, ore (4,0)=20 on a mountain, whales (2,4)=14 on
//   shallow water, fish (4,1)=21 on shallow water
//   units: slot 0 warrior of P0 on 6 (home city 0, 2 kills, veteran)
//          slot 1 rider of P1 on 17; slot 2 boat of P2 carrying an archer on 14
//   techs: P0 hunting+fishing, P1 organization, P2 climbing
//   explored: P0 tiles with x <= 3 (0..19); P1 and P2 everything.
GameState make_state() {
  GameState s;
  s.map_size = 5;
  s.num_players = 3;
  s.num_tiles = 25;
  s.tick = 7;
  s.turns_played = 22;
  s.current_player = 0;
  s.tiles.assign(25, Tile{});
  s.players.assign(3, Player{});
  s.players[0].tribe = kBardur;
  s.players[1].tribe = kImperius;
  s.players[2].tribe = kXinXi;
  s.players[0].techs = (1u << kHunting) | (1u << kFishing);
  s.players[1].techs = 1u << kOrganization;
  s.players[2].techs = 1u << kClimbing;
  s.players[0].stars = 9;
  s.players[1].stars = 4;
  s.players[2].stars = 6;

  s.cities.resize(2);
  City& c0 = s.cities[0];
  c0.uid = 100; c0.tile = 6; c0.owner = 0; c0.level = 1; c0.population = 1; c0.bound = 1;
  c0.flags = kCityCapital | kCityOriginalCapital; c0.workshops = 1; c0.supported = 1;
  City& c1 = s.cities[1];
  c1.uid = 101; c1.tile = 18; c1.owner = 1; c1.level = 2; c1.population = 3; c1.bound = 1;
  c1.flags = kCityCapital | kCityOriginalCapital | kCityWalls; c1.connected = 0; c1.supported = 0;
  s.players[0].capital_city = 0; s.players[0].num_cities = 1;
  s.players[1].capital_city = 1; s.players[1].num_cities = 1;

  for (int x = 0; x <= 2; ++x)
    for (int y = 0; y <= 2; ++y) s.tiles[s.tile_index(x, y)].city = 0;
  for (int x = 3; x <= 4; ++x)
    for (int y = 3; y <= 4; ++y) s.tiles[s.tile_index(x, y)].city = 1;
  s.tiles[6].terrain = kCity;
  s.tiles[18].terrain = kCity;
  s.tiles[4].resource = kCrops;
  s.tiles[20].terrain = kMountain;
  s.tiles[20].resource = kOre;
  s.tiles[14].terrain = kShallow;
  s.tiles[14].resource = kWhales;
  s.tiles[21].terrain = kShallow;
  s.tiles[21].resource = kFish;
  s.tiles[0].building = kTemple;
  s.tiles[0].building_level = 2;
  s.tiles[7].road = 1;

  s.units.resize(3);
  Unit& w = s.units[0];
  w.uid = 11; w.type = kWarrior; w.owner = 0; w.status = kFresh; w.hp = 10; w.max_hp = 10; w.tile = 6;
  w.home_city = 0; w.kills = 2; w.veteran = 1;
  Unit& r = s.units[1];
  r.uid = 12; r.type = kRider; r.owner = 1; r.status = kMoved; r.hp = 7; r.max_hp = 10; r.tile = 17;
  r.home_city = 1; r.kills = 1;
  Unit& b = s.units[2];
  b.uid = 13; b.type = kBoat; b.owner = 2; b.status = kFresh; b.land_type = kArcher; b.hp = 10; b.max_hp = 10;
  b.tile = 14; b.home_city = -1;
  s.tiles[6].unit = 0;
  s.tiles[17].unit = 1;
  s.tiles[14].unit = 2;
  s.next_uid = 200;

  s.explored.assign(size_t(3) * s.explored_words(), 0);
  for (int t = 0; t < 25; ++t) {
    if (s.tile_x(t) <= 3) set_explored(s, 0, t);
    set_explored(s, 1, t);
    set_explored(s, 2, t);
  }
  s.unit_alias.assign(s.units.size() * 3, 0);
  rebuild_derived_state(s);  // a state put together by hand: its bitsets, road links, observed ids
  // Observed unit ids are given at first sight in tile order: 6, 14, 17.
  CHECK_EQ(observed_unit_id(s, 0, 0), 1);
  CHECK_EQ(observed_unit_id(s, 0, 2), 2);
  CHECK_EQ(observed_unit_id(s, 0, 1), 3);
  return s;
}

void test_names() {
  CHECK(std::string(kMapTokenFeatureNames[0]) == "explored");
  CHECK(std::string(kMapTokenFeatureNames[22]) == "unit_home_city_tile");
  CHECK(std::string(kStateFeatureNames[0]) == "turn");
  CHECK(std::string(kStateFeatureNames[10]) == "pending_upgrade_b");
  CHECK(std::string(kActionFeatureNames[0]) == "type_id");
  CHECK(std::string(kActionFeatureNames[16]) == "damage_received");
  for (int j = 0; j < kActionArgFeatures; ++j)
    CHECK(std::strcmp(kActionArgMaskNames[j], kActionFeatureNames[j + 1]) == 0);
}

void test_map_tokens() {
  GameState s = make_state();
  std::vector<int32_t> tok(size_t(s.num_tiles) * kMapTokenFeatures, 0x55555555);
  auto at = [&](int tile, const char* name) { return tok[size_t(tile) * kMapTokenFeatures + col(name)]; };

  // ---- observer 0, fog on
  encode_map_tokens(s, 0, tok.data());
  for (int t = 0; t < 25; ++t) {
    bool explored = s.tile_x(t) <= 3;
    CHECK_EQ(at(t, "explored"), explored ? 1 : 0);
    if (!explored)
      for (int j = 0; j < kMapTokenFeatures; ++j) CHECK_EQ(tok[size_t(t) * kMapTokenFeatures + j], 0);
  }
  // neutral plain tile (0,3)=3
  CHECK_EQ(at(3, "terrain"), kPlain);
  CHECK_EQ(at(3, "resource"), -1);
  CHECK_EQ(at(3, "building"), -1);
  CHECK_EQ(at(3, "building_level"), 0);
  CHECK_EQ(at(3, "territory_owner"), 0);
  CHECK_EQ(at(3, "territory_city_tile"), -1);
  CHECK_EQ(at(3, "city_owner"), 0);
  CHECK_EQ(at(3, "city_level"), -1);
  CHECK_EQ(at(3, "unit_owner"), 0);
  CHECK_EQ(at(3, "unit_type"), -1);
  CHECK_EQ(at(3, "observed_unit_id"), -1);
  // temple, road
  CHECK_EQ(at(0, "building"), kTemple);
  CHECK_EQ(at(0, "building_level"), 2);
  CHECK_EQ(at(7, "road"), 1);
  CHECK_EQ(at(8, "road"), 0);
  // own city and territory
  CHECK_EQ(at(6, "terrain"), kCity);
  CHECK_EQ(at(6, "territory_owner"), 1);
  CHECK_EQ(at(6, "territory_city_tile"), 6);
  CHECK_EQ(at(0, "territory_owner"), 1);
  CHECK_EQ(at(0, "territory_city_tile"), 6);
  CHECK_EQ(at(0, "city_owner"), 0);
  CHECK_EQ(at(6, "city_owner"), 1);
  CHECK_EQ(at(6, "city_level"), 1);
  CHECK_EQ(at(6, "city_population"), 1);
  CHECK_EQ(at(6, "city_flags"), 1 | 4);  // capital + workshop
  CHECK_EQ(at(6, "city_production"), city_production(s, 0));
  // opponent city (player 1 = relative 1 -> owner column 2): population / production hidden
  CHECK_EQ(at(18, "city_owner"), 2);
  CHECK_EQ(at(18, "territory_owner"), 2);
  CHECK_EQ(at(18, "territory_city_tile"), 18);
  CHECK_EQ(at(18, "city_level"), 2);
  CHECK_EQ(at(18, "city_population"), -1);
  CHECK_EQ(at(18, "city_production"), -1);
  CHECK_EQ(at(18, "city_flags"), 1 | 2);  // capital + walls
  // own unit: everything real
  CHECK_EQ(at(6, "unit_owner"), 1);
  CHECK_EQ(at(6, "unit_type"), kWarrior);
  CHECK_EQ(at(6, "unit_hp"), 10);
  CHECK_EQ(at(6, "unit_max_hp"), 10);
  CHECK_EQ(at(6, "unit_status"), kFresh);
  CHECK_EQ(at(6, "unit_flags"), 1);
  CHECK_EQ(at(6, "unit_kills"), 2);
  CHECK_EQ(at(6, "unit_carried_type"), -1);
  CHECK_EQ(at(6, "observed_unit_id"), observed_unit_id(s, 0, 0));
  CHECK_EQ(at(6, "unit_home_city_tile"), 6);
  // opponent rider (player 1 -> 2): kills and home city hidden
  CHECK_EQ(at(17, "unit_owner"), 2);
  CHECK_EQ(at(17, "unit_type"), kRider);
  CHECK_EQ(at(17, "unit_hp"), 7);
  CHECK_EQ(at(17, "unit_status"), kMoved);
  CHECK_EQ(at(17, "unit_flags"), 0);
  CHECK_EQ(at(17, "unit_kills"), -1);
  CHECK_EQ(at(17, "unit_home_city_tile"), -1);
  CHECK_EQ(at(17, "observed_unit_id"), observed_unit_id(s, 0, 1));
  // player 2's boat (relative 2 -> owner column 3), carrying an archer
  CHECK_EQ(at(14, "unit_owner"), 3);
  CHECK_EQ(at(14, "unit_type"), kBoat);
  CHECK_EQ(at(14, "unit_carried_type"), kArcher);
  // resources for P0 (hunting + fishing): whales and fish visible, crops hidden
  CHECK_EQ(at(14, "resource"), kWhales);
  CHECK_EQ(at(4, "resource"), -1);

  // ---- observer 1 (explored everywhere): relative seats rotate
  encode_map_tokens(s, 1, tok.data());
  CHECK_EQ(at(6, "city_owner"), 3);   // player 0 is relative 2 from player 1
  CHECK_EQ(at(18, "city_owner"), 1);
  CHECK_EQ(at(14, "unit_owner"), 2);  // player 2 is next after player 1
  CHECK_EQ(at(17, "unit_owner"), 1);
  CHECK_EQ(at(17, "unit_kills"), 1);
  CHECK_EQ(at(17, "unit_home_city_tile"), 18);
  CHECK_EQ(at(6, "unit_kills"), -1);
  CHECK_EQ(at(6, "unit_home_city_tile"), -1);
  CHECK_EQ(at(6, "city_population"), -1);
  CHECK_EQ(at(6, "city_production"), -1);
  CHECK_EQ(at(18, "city_population"), 3);
  CHECK_EQ(at(18, "city_production"), city_production(s, 1));
  CHECK_EQ(at(17, "observed_unit_id"), observed_unit_id(s, 1, 1));
  // organization only: crops visible, ore and whales hidden
  CHECK_EQ(at(4, "resource"), kCrops);
  CHECK_EQ(at(20, "resource"), -1);
  CHECK_EQ(at(20, "terrain"), kMountain);
  CHECK_EQ(at(14, "resource"), -1);
  CHECK_EQ(at(21, "resource"), kFish);

  // ---- observer 2: climbing reveals ore
  encode_map_tokens(s, 2, tok.data());
  CHECK_EQ(at(20, "resource"), kOre);
  CHECK_EQ(at(4, "resource"), -1);
  CHECK_EQ(at(14, "unit_owner"), 1);
  CHECK_EQ(at(6, "city_owner"), 2);

  // ---- full observability lifts fog but not the resource rule
  s.full_observability = 1;
  encode_map_tokens(s, 0, tok.data());
  for (int t = 0; t < 25; ++t) CHECK_EQ(at(t, "explored"), 1);
  CHECK_EQ(at(20, "terrain"), kMountain);
  CHECK_EQ(at(20, "resource"), -1);  // ore still hidden without climbing
  CHECK_EQ(at(23, "territory_owner"), 2);
  CHECK_EQ(at(21, "resource"), kFish);
}

void test_state() {
  GameState s = make_state();
  int32_t st[kStateFeatures];
  encode_state(s, 0, st);
  CHECK_EQ(st[0], 7);
  CHECK_EQ(st[1], 0);
  CHECK_EQ(st[2], 0);
  CHECK_EQ(st[3], -1);
  CHECK_EQ(st[4], 9);
  CHECK_EQ(st[5], 1);
  CHECK_EQ(st[6], 1);
  CHECK_EQ(st[7], star_income(s, 0));
  CHECK_EQ(st[8], -1);
  CHECK_EQ(st[9], -1);
  CHECK_EQ(st[10], -1);
  encode_state(s, 2, st);
  CHECK_EQ(st[1], 0);  // absolute current player
  CHECK_EQ(st[4], 6);
  CHECK_EQ(st[5], 1);
  CHECK_EQ(st[6], 0);

  // a pending level-up choice of city 1 (level 2 -> 3) while player 1 is to move
  s.current_player = 1;
  s.pending_city = 1;
  encode_state(s, 1, st);
  CHECK_EQ(st[1], 1);
  CHECK_EQ(st[8], 18);
  CHECK_EQ(st[9], kCityWall);
  CHECK_EQ(st[10], kResources);
  encode_state(s, 0, st);  // not the current player: no pending fields
  CHECK_EQ(st[8], -1);
  CHECK_EQ(st[9], -1);
  CHECK_EQ(st[10], -1);

  s.game_over = 1;
  s.winner = 2;
  encode_state(s, 0, st);
  CHECK_EQ(st[2], 1);
  CHECK_EQ(st[3], 2);
}

struct Rows {
  int cap;
  std::vector<int32_t> id;
  std::vector<int32_t> feat;
  std::vector<uint8_t> arg;
  std::vector<uint8_t> mask;
  explicit Rows(int c)
      : cap(c), id(size_t(c), 0x55555555), feat(size_t(c) * kActionFeatures, 0x55555555),
        arg(size_t(c) * kActionArgFeatures, 0x55), mask(size_t(c), 0x55) {}
  ActionRows encode(const GameState& s, int observer, bool preview = false) {
    return encode_action_rows(s, observer, cap, preview, id.data(), feat.data(), arg.data(), mask.data());
  }
  void check_padding(int from) {
    for (int i = from; i < cap; ++i) {
      CHECK_EQ(id[i], -1);
      CHECK_EQ(mask[i], 0);
      for (int j = 0; j < kActionFeatures; ++j) CHECK_EQ(feat[size_t(i) * kActionFeatures + j], 0);
      for (int j = 0; j < kActionArgFeatures; ++j) CHECK_EQ(arg[size_t(i) * kActionArgFeatures + j], 0);
    }
  }
};

void test_action_rows() {
  GameState s = make_state();
  const int cap = 64;

  // Not the observer's turn: empty, all padding.
  {
    Rows r(cap);
    ActionRows ar = r.encode(s, 1);
    CHECK_EQ(ar.rows, 0);
    CHECK_EQ(ar.total, 0);
    CHECK(!ar.truncated);
    r.check_padding(0);
  }

  // The current player: exactly the legal list (ascending), then padding.
  std::vector<int32_t> legal(size_t(action_space(s).size()));
  const int total = legal_actions(s, legal.data(), int(legal.size()));
  std::printf("hand-built state: %d legal actions for player 0\n", total);
  CHECK(total >= 1);
  CHECK_EQ(legal[0], 0);  // EndTurn
  {
    Rows r(cap);
    ActionRows ar = r.encode(s, 0);
    CHECK_EQ(ar.total, total);
    CHECK_EQ(ar.rows, total < cap ? total : cap);
    CHECK_EQ(ar.truncated, total > cap);
    for (int i = 0; i < ar.rows; ++i) {
      CHECK_EQ(r.id[i], legal[i]);
      CHECK_EQ(r.mask[i], 1);
      const int32_t* f = &r.feat[size_t(i) * kActionFeatures];
      const uint8_t* m = &r.arg[size_t(i) * kActionArgFeatures];
      const Action a = action_space(s).decode(r.id[i]);
      CHECK_EQ(f[fcol("type_id")], action_kind(s, a));
      CHECK_EQ(f[fcol("stars_before")], 9);
      CHECK_EQ(f[fcol("affordable")], f[fcol("cost_stars")] <= 9 ? 1 : 0);
      CHECK_EQ(f[fcol("damage_dealt")], -1);  // previews off
      CHECK_EQ(f[fcol("damage_received")], -1);
      for (int j = 0; j < 10; ++j) CHECK_EQ(m[j], f[j + 1] != -1 ? 1 : 0);
      int32_t one_f[kActionFeatures];
      uint8_t one_m[kActionArgFeatures];
      encode_action(s, 0, r.id[i], false, one_f, one_m);
      CHECK(std::memcmp(one_f, f, sizeof one_f) == 0);
      CHECK(std::memcmp(one_m, m, sizeof one_m) == 0);
      if (i > 0) CHECK(r.id[i] > r.id[i - 1]);
    }
    CHECK_EQ(r.id[0], 0);
    r.check_padding(ar.rows);
  }

  // Truncation: keep the canonical prefix, EndTurn stays in it.
  if (total > 2) {
    Rows r(2);
    ActionRows ar = r.encode(s, 0);
    CHECK_EQ(ar.total, total);
    CHECK_EQ(ar.rows, 2);
    CHECK(ar.truncated);
    CHECK_EQ(r.id[0], 0);
    CHECK_EQ(r.id[1], legal[1]);
    CHECK_EQ(r.mask[0], 1);
    CHECK_EQ(r.mask[1], 1);
  }
  // Capacity 1: only EndTurn.
  {
    Rows r(1);
    ActionRows ar = r.encode(s, 0);
    CHECK_EQ(ar.rows, 1);
    CHECK_EQ(ar.truncated, total > 1);
    CHECK_EQ(r.id[0], 0);
  }

  // Game over: empty even for the current player.
  {
    GameState g = s;
    g.game_over = 1;
    g.winner = 0;
    Rows r(cap);
    ActionRows ar = r.encode(g, 0);
    CHECK_EQ(ar.rows, 0);
    CHECK_EQ(ar.total, 0);
    r.check_padding(0);
  }

  // Single-action encodings of chosen ids.
  const ActionSpace sp = action_space(s);
  int32_t f[kActionFeatures];
  uint8_t m[kActionArgFeatures];
  {
    encode_action(s, 0, sp.end_turn(), false, f, m);
    CHECK_EQ(f[fcol("type_id")], kEndTurnKind);
    for (int j = 1; j <= 10; ++j) CHECK_EQ(f[j], -1);
    for (int j = 0; j < 10; ++j) CHECK_EQ(m[j], 0);
  }
  {
    encode_action(s, 0, sp.research(kArchery), false, f, m);
    CHECK_EQ(f[fcol("type_id")], kResearchKind);
    CHECK_EQ(f[fcol("tech")], kArchery);
    CHECK_EQ(m[fcol("tech") - 1], 1);
    CHECK_EQ(f[fcol("source_index")], -1);
    CHECK_EQ(f[fcol("cost_stars")], tech_cost(s, 0, kArchery));
  }
  {
    encode_action(s, 0, sp.send_stars(2, 3), false, f, m);
    CHECK_EQ(f[fcol("type_id")], kSendStarsKind);
    CHECK_EQ(f[fcol("target_index")], 2);
    CHECK_EQ(f[fcol("cost_stars")], 3);
    CHECK_EQ(m[fcol("target_index") - 1], 1);
    CHECK_EQ(m[fcol("cost_stars") - 1], 1);
    CHECK_EQ(f[fcol("affordable")], 1);
  }
  {
    encode_action(s, 0, sp.declare_war(1), false, f, m);
    CHECK_EQ(f[fcol("type_id")], kDeclareWarKind);
    CHECK_EQ(f[fcol("target_index")], 1);
  }
  {
    encode_action(s, 0, sp.spawn(6, kWarrior), false, f, m);
    CHECK_EQ(f[fcol("type_id")], kSpawnKind);
    CHECK_EQ(f[fcol("source_index")], 6);
    CHECK_EQ(f[fcol("city")], 6);
    CHECK_EQ(f[fcol("spawn_type")], kWarrior);
    CHECK_EQ(f[fcol("cost_stars")], 2);
    CHECK_EQ(f[fcol("unit_id")], -1);
  }
  {
    encode_action(s, 0, sp.build(2, kFarm), false, f, m);
    CHECK_EQ(f[fcol("type_id")], kBuildKind);
    CHECK_EQ(f[fcol("target_index")], 2);
    CHECK_EQ(f[fcol("city")], 6);
    CHECK_EQ(f[fcol("building")], kFarm);
  }
  {
    encode_action(s, 0, sp.tile_action(1, kClearForest), false, f, m);
    CHECK_EQ(f[fcol("type_id")], kClearForestKind);
    CHECK_EQ(f[fcol("tile_action")], kClearForest);
    CHECK_EQ(f[fcol("city")], 6);
  }
  {
    encode_action(s, 0, sp.move(6, 12), false, f, m);
    CHECK_EQ(f[fcol("type_id")], kMoveKind);
    CHECK_EQ(f[fcol("source_index")], 6);
    CHECK_EQ(f[fcol("target_index")], 12);
    CHECK_EQ(f[fcol("unit_id")], observed_unit_id(s, 0, 0));
    CHECK_EQ(m[fcol("unit_id") - 1], 1);
  }
  {
    GameState g = s;
    g.current_player = 2;
    encode_action(g, 2, sp.unit_self(14, kUpgrade), false, f, m);
    CHECK_EQ(f[fcol("type_id")], kUpgradeKind);
    CHECK_EQ(f[fcol("unit_upgrade")], kShip);
    CHECK_EQ(f[fcol("unit_id")], observed_unit_id(g, 2, 2));
  }
  {
    GameState g = s;
    g.pending_city = 0;  // city 0 at level 1: choosing the level-2 reward
    encode_action(g, 0, sp.level_up(0), false, f, m);
    CHECK_EQ(f[fcol("type_id")], kLevelUpKind);
    CHECK_EQ(f[fcol("city")], 6);
    CHECK_EQ(f[fcol("upgrade")], kWorkshop);
    encode_action(g, 0, sp.level_up(1), false, f, m);
    CHECK_EQ(f[fcol("upgrade")], kExplorer);
  }
  {
    // Attack previews: the rider of player 1 moved next to the warrior on 6.
    GameState g = s;
    g.tiles[17].unit = -1;
    g.tiles[12].unit = 1;
    g.units[1].tile = 12;
    rebuild_derived_state(g);
    const int32_t id = sp.attack(6, 12);
    encode_action(g, 0, id, false, f, m);
    CHECK_EQ(f[fcol("type_id")], kAttackKind);
    CHECK_EQ(f[fcol("source_index")], 6);
    CHECK_EQ(f[fcol("target_index")], 12);
    CHECK_EQ(f[fcol("damage_dealt")], -1);
    CHECK_EQ(f[fcol("damage_received")], -1);
    encode_action(g, 0, id, true, f, m);
    const CombatOutcome out = combat_preview(g, 6, 12);
    CHECK_EQ(f[fcol("damage_dealt")], out.dealt);
    CHECK_EQ(f[fcol("damage_received")], out.retaliation);
    encode_action(g, 0, sp.move(6, 7), true, f, m);  // not an attack: no preview
    CHECK_EQ(f[fcol("damage_dealt")], -1);
  }
}

// Random games through the real engine: every encoding of every observer
// keeps the fog, padding and arg-mask contracts, and the rows are exactly the
// legal list (capacity large enough: no truncation).
void test_random_games() {
  struct Cfg { int size; std::vector<int8_t> tribes; bool full; };
  const Cfg cfgs[] = {{8, {kBardur, kImperius}, false},
                      {11, {kXinXi, kOumaji, kKickoo}, false},
                      {6, {kHoodrick, kVengir}, true}};
  uint64_t rng = 0x1234567;
  auto next = [&]() { rng = rng * 6364136223846793005ull + 1442695040888963407ull; return uint32_t(rng >> 33); };
  int steps_total = 0, rows_total = 0, attack_rows = 0, level_up_rows = 0;
  for (const Cfg& c : cfgs) {
    GameConfig cfg;
    cfg.map_size = c.size;
    cfg.tribes = c.tribes;
    cfg.full_observability = c.full;
    GameState s;
    new_game(s, cfg, 99 + c.size);
    const int cap = action_space(s).size();
    Rows r(cap);
    std::vector<int32_t> legal(static_cast<size_t>(cap));
    std::vector<int32_t> tok(static_cast<size_t>(s.num_tiles) * kMapTokenFeatures);
    int32_t st[kStateFeatures];
    for (int step = 0; step < 1500 && !s.game_over; ++step, ++steps_total) {
      for (int obs = 0; obs < s.num_players; ++obs) {
        encode_map_tokens(s, obs, tok.data());
        for (int t = 0; t < s.num_tiles; ++t) {
          const int32_t* o = &tok[size_t(t) * kMapTokenFeatures];
          const bool seen = c.full || s.explored_by(obs, t);
          CHECK_EQ(o[0], seen ? 1 : 0);
          if (!seen) {
            for (int j = 1; j < kMapTokenFeatures; ++j) CHECK_EQ(o[j], 0);
          } else {
            CHECK(o[col("territory_owner")] >= 0 && o[col("territory_owner")] <= s.num_players);
            CHECK(o[col("unit_owner")] >= 0 && o[col("unit_owner")] <= s.num_players);
            if (o[col("unit_owner")] > 1) CHECK_EQ(o[col("unit_kills")], -1);
            if (o[col("city_owner")] > 1) CHECK_EQ(o[col("city_population")], -1);
          }
        }
        encode_state(s, obs, st);
        CHECK_EQ(st[1], s.current_player);
        const bool preview = (step & 1) != 0;
        ActionRows ar = r.encode(s, obs, preview);
        if (obs != s.current_player) {
          CHECK_EQ(ar.rows, 0);
          CHECK_EQ(r.id[0], -1);
          CHECK_EQ(st[8], -1);
          continue;
        }
        const int total = legal_actions(s, legal.data(), cap);
        CHECK_EQ(ar.total, total);
        CHECK_EQ(ar.rows, total);
        CHECK(!ar.truncated);
        CHECK_EQ(st[8] >= 0, s.pending_city >= 0);
        for (int i = 0; i < ar.rows; ++i) {
          CHECK_EQ(r.id[i], legal[i]);
          CHECK_EQ(r.mask[i], 1);
          const int32_t* f = &r.feat[size_t(i) * kActionFeatures];
          const uint8_t* m = &r.arg[size_t(i) * kActionArgFeatures];
          for (int j = 0; j < 10; ++j) CHECK_EQ(m[j], f[j + 1] != -1 ? 1 : 0);
          CHECK_EQ(f[fcol("affordable")], f[fcol("cost_stars")] <= f[fcol("stars_before")] ? 1 : 0);
          // The row writer's fast paths (moves) write exactly the one-action encoding.
          int32_t one_f[kActionFeatures];
          uint8_t one_m[kActionArgFeatures];
          encode_action(s, obs, r.id[i], preview, one_f, one_m);
          CHECK(std::memcmp(one_f, f, sizeof one_f) == 0);
          CHECK(std::memcmp(one_m, m, sizeof one_m) == 0);
          const bool attack = f[fcol("type_id")] == kAttackKind;
          if (!preview || !attack) CHECK_EQ(f[fcol("damage_dealt")], -1);
          if (preview && attack) CHECK(f[fcol("damage_dealt")] >= 0);
          attack_rows += attack;
          if (f[fcol("type_id")] == kLevelUpKind) {
            ++level_up_rows;
            CHECK_EQ(f[fcol("city")], st[8]);
            CHECK_EQ(f[fcol("upgrade")], st[9 + (r.id[i] - action_space(s).level_up(0))]);
          }
        }
        if (ar.rows < cap) CHECK_EQ(r.id[ar.rows], -1);
        rows_total += ar.rows;
        // A truncated encoding of the same position keeps the prefix.
        Rows small(3);
        ActionRows sr = small.encode(s, obs);
        CHECK_EQ(sr.truncated, total > 3);
        for (int i = 0; i < sr.rows; ++i) CHECK_EQ(small.id[i], legal[i]);
        apply_action(s, legal[next() % uint32_t(total)]);
      }
    }
  }
  std::printf("random games: %d steps, %d action rows encoded (%d attacks, %d level-up choices)\n", steps_total,
              rows_total, attack_rows, level_up_rows);
}

}  // namespace

int main() {
  test_names();
  test_map_tokens();
  test_state();
  test_action_rows();
  test_random_games();
  if (g_failures) {
    std::fprintf(stderr, "test_encode: %d of %d checks FAILED\n", g_failures, g_checks);
    return 1;
  }
  std::printf("test_encode: all %d checks passed\n", g_checks);
  return 0;
}
