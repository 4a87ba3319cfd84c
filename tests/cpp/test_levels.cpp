// test_levels.cpp — self-test of the CSV level format (RULES.md §1.3) and the
// level generator (§1.4). Prints each failure and a table of generator
// statistics; exits non-zero when anything failed.
//
// Usage: test_levels [levels_dir]   (default: polyenv/levels next to the sources)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/game.hpp"

using namespace polyenv;

namespace {

int g_failures = 0;
int g_checks = 0;

#define CHECK(cond, ...)                                         \
  do {                                                           \
    ++g_checks;                                                  \
    if (!(cond)) {                                               \
      ++g_failures;                                              \
      std::printf("FAIL %s:%d: %s — ", __FILE__, __LINE__, #cond); \
      std::printf(__VA_ARGS__);                                  \
      std::printf("\n");                                         \
    }                                                            \
  } while (0)

bool same_level(const Level& a, const Level& b) {
  return a.size == b.size && a.terrain == b.terrain && a.resource == b.resource &&
         a.capital_tiles == b.capital_tiles && a.capital_tribes == b.capital_tribes;
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int count_terrain(const Level& l, int t) { return int(std::count(l.terrain.begin(), l.terrain.end(), t)); }
int count_resource(const Level& l, int r) { return int(std::count(l.resource.begin(), l.resource.end(), r)); }
int java_round(double v) { return int(std::floor(v + 0.5)); }

// ------------------------------------------------------------------ CSV
void test_minimal(const std::filesystem::path& dir) {
  const Level l = parse_level_csv(read_text(dir / "minimal.csv"));
  CHECK(l.size == 8, "size %d", l.size);
  CHECK(l.capital_tiles.size() == 1 && l.capital_tiles[0] == 1 * 8 + 2, "capitals %zu", l.capital_tiles.size());
  CHECK(l.capital_tribes.size() == 1 && l.capital_tribes[0] == kXinXi, "capital tribe");
  CHECK(l.terrain[1 * 8 + 2] == kCity, "capital terrain %d", l.terrain[10]);
  CHECK(l.terrain[3 * 8 + 4] == kVillage && l.terrain[5 * 8 + 6] == kVillage, "villages");
  CHECK(count_terrain(l, kVillage) == 2 && count_terrain(l, kPlain) == 61, "terrain counts");
  CHECK(count_resource(l, kNoResource) == 64, "resources");
}

void test_shipped(const std::filesystem::path& dir) {
  struct Expect { const char* file; int size; int capitals; };
  for (const Expect& e : {Expect{"minimal.csv", 8, 1}, Expect{"duel_11.csv", 11, 2}, Expect{"four_16.csv", 16, 4},
                          Expect{"archipelago_14.csv", 14, 2}}) {
    const std::string text = read_text(dir / e.file);
    CHECK(!text.empty(), "%s is missing or empty", e.file);
    if (text.empty()) continue;
    try {
      const Level l = parse_level_csv(text);
      CHECK(l.size == e.size, "%s size %d", e.file, l.size);
      CHECK(int(l.capital_tiles.size()) == e.capitals, "%s capitals %zu", e.file, l.capital_tiles.size());
      const std::string out = level_to_csv(l);
      CHECK(out == text, "%s is not in canonical form", e.file);
      CHECK(same_level(parse_level_csv(out), l), "%s round trip", e.file);
    } catch (const InvalidArgument& ex) {
      CHECK(false, "%s: %s", e.file, ex.what());
    }
  }
}

// Builds an n x n all-plain CSV with a capital of key 0 at (1,1).
std::vector<std::string> plain_rows(int n) {
  std::vector<std::string> rows(static_cast<size_t>(n));
  for (int x = 0; x < n; ++x)
    for (int y = 0; y < n; ++y) rows[size_t(x)] += (y ? ",." : ".") + std::string(":");
  rows[1] = ".:,c:0," + rows[1].substr(6);
  return rows;
}
std::string join(const std::vector<std::string>& rows, const char* eol = "\n") {
  std::string s;
  for (const std::string& r : rows) s += r + eol;
  return s;
}
std::string set_token(std::vector<std::string> rows, int x, int y, const std::string& tok) {
  std::vector<std::string> toks;
  std::stringstream ss(rows[size_t(x)]);
  for (std::string t; std::getline(ss, t, ',');) toks.push_back(t);
  toks[size_t(y)] = tok;
  std::string line;
  for (size_t i = 0; i < toks.size(); ++i) line += (i ? "," : "") + toks[i];
  rows[size_t(x)] = line;
  return join(rows);
}

void expect_error(const std::string& text, std::vector<std::string> fragments, const char* what) {
  try {
    parse_level_csv(text);
    CHECK(false, "%s: no exception", what);
  } catch (const InvalidArgument& e) {
    const std::string msg = e.what();
    for (const std::string& f : fragments)
      CHECK(msg.find(f) != std::string::npos, "%s: message \"%s\" lacks \"%s\"", what, msg.c_str(), f.c_str());
  }
}

void test_csv_errors() {
  const std::vector<std::string> rows = plain_rows(8);
  expect_error(set_token(rows, 1, 3, "x:"), {"line 2", "token 4", "'x:'", "unknown terrain"}, "unknown terrain");
  expect_error(set_token(rows, 4, 5, "c:0"), {"line 5", "token 6", "already has a capital", "line 2"}, "repeated key");
  expect_error(set_token(rows, 4, 5, "c:12"), {"line 5", "token 6", "outside"}, "key out of range");
  expect_error(set_token(rows, 2, 0, "c:"), {"line 3", "token 1", "tribe key"}, "city without key");
  expect_error(set_token(rows, 2, 0, "c:a"), {"line 3", "token 1", "tribe key"}, "city with letter key");
  expect_error(set_token(rows, 2, 0, "c:-1"), {"line 3", "token 1"}, "negative key");
  expect_error(set_token(rows, 6, 7, "."), {"line 7", "token 8", "T:R"}, "token without colon");
  expect_error(set_token(rows, 6, 7, ".:ff"), {"line 7", "token 8", "single char"}, "two-char resource");
  expect_error(set_token(rows, 0, 2, ""), {"line 1", "token 3", "empty"}, "empty token");
  {
    std::vector<std::string> r = rows;
    r[3] += ",.:";
    expect_error(join(r), {"line 4", "expected 8 tokens", "found 9"}, "too many tokens");
    r = rows;
    r[5] = r[5].substr(0, r[5].size() - 3);
    expect_error(join(r), {"line 6", "found 7"}, "too few tokens");
    r = rows;
    r[4] = "";
    expect_error(join(r), {"line 5", "found 0"}, "blank middle line");
    r = rows;
    r.pop_back();
    expect_error(join(r), {"line 1", "expected 7 tokens"}, "not square");
  }
  expect_error(join(plain_rows(8)).replace(join(plain_rows(8)).find("c:0"), 3, ".:"), {"no capital"}, "no capital");
  expect_error(join(plain_rows(3)), {"3 lines", "board size"}, "too small");
  expect_error(join(plain_rows(41)), {"41 lines", "board size"}, "too big");
  expect_error("", {"0 lines"}, "empty text");

  // Tolerated variants: CRLF, trailing commas, blank trailing lines, ' ' or
  // unknown resource chars (= none), missing final newline.
  try {
    const Level base = parse_level_csv(join(rows));
    std::vector<std::string> r = rows;
    for (std::string& line : r) line += ",";
    CHECK(same_level(parse_level_csv(join(r, "\r\n") + "\r\n\n  \n"), base), "CRLF/trailing comma/blank lines");
    CHECK(same_level(parse_level_csv(join(rows).substr(0, join(rows).size() - 1)), base), "no final newline");
    const Level sp = parse_level_csv(set_token(rows, 7, 7, "d: "));
    CHECK(sp.terrain[63] == kDeep && sp.resource[63] == kNoResource, "space resource");
    const Level unk = parse_level_csv(set_token(rows, 7, 7, "m:z"));
    CHECK(unk.terrain[63] == kMountain && unk.resource[63] == kNoResource, "unknown resource char");
    const Level wh = parse_level_csv(set_token(rows, 7, 6, "d:w"));
    CHECK(wh.resource[62] == kWhales, "whales");
    // Capitals are numbered in reading order.
    const Level two = parse_level_csv(set_token(rows, 0, 5, "c:11"));
    CHECK(two.capital_tiles.size() == 2 && two.capital_tiles[0] == 5 && two.capital_tribes[0] == kYadakk &&
              two.capital_tiles[1] == 9 && two.capital_tribes[1] == kXinXi,
          "reading order");
  } catch (const InvalidArgument& e) {
    CHECK(false, "tolerated variant threw: %s", e.what());
  }
}

// ------------------------------------------------------------------ generator
struct Stats { double land = 0, villages = 0, ruins = 0, forest = 0, mountain = 0, shallow = 0, resources = 0; int n = 0; };

void check_generated(const Level& l, int size, const std::vector<int8_t>& tribes, uint64_t seed, Stats& st) {
  const int players = int(tribes.size());
  const int cells = size * size;
  char tag[64];
  std::snprintf(tag, sizeof tag, "N=%d P=%d seed=%llu", size, players, (unsigned long long)seed);
  CHECK(l.size == size && int(l.terrain.size()) == cells && int(l.resource.size()) == cells, "%s shape", tag);
  CHECK(int(l.capital_tiles.size()) == players && l.capital_tribes == tribes, "%s capitals %zu", tag,
        l.capital_tiles.size());
  CHECK(count_terrain(l, kCity) == players, "%s city tiles %d", tag, count_terrain(l, kCity));
  const int side = size - 4, half = (side + 1) / 2;
  const bool spaced = players <= half * half;
  for (size_t i = 0; i < l.capital_tiles.size(); ++i) {
    const int c = l.capital_tiles[i], x = c / size, y = c % size;
    CHECK(l.terrain[size_t(c)] == kCity, "%s capital %zu not a city", tag, i);
    CHECK(x >= 2 && y >= 2 && x <= size - 3 && y <= size - 3, "%s capital %zu at (%d,%d)", tag, i, x, y);
    for (size_t j = 0; j < i; ++j) {
      const int d = l.capital_tiles[j];
      const int cheb = std::max(std::abs(x - d / size), std::abs(y - d % size));
      CHECK(cheb >= 1, "%s capitals %zu and %zu share a tile", tag, i, j);
      if (spaced) CHECK(cheb >= 2, "%s capitals %zu and %zu adjacent", tag, i, j);
    }
    // §1.4 step 10: Imperius fruit / Bardur animals around the capital.
    const int want = tribes[i] == kImperius ? kFruit : tribes[i] == kBardur ? kAnimal : -1;
    if (want >= 0) {
      int have = 0;
      for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy)
          if (dx || dy) have += l.resource[size_t((x + dx) * size + y + dy)] == want;
      CHECK(!spaced || have >= 2, "%s capital %zu has %d fix-up resources", tag, i, have);
    }
  }
  const int wanted_ruins = java_round(cells / 40.0);
  int ruins = 0, water_ruins = 0;
  for (int c = 0; c < cells; ++c) {
    const int t = l.terrain[size_t(c)], r = l.resource[size_t(c)];
    if (r == kRuins) { ++ruins; water_ruins += is_water(t); }
    bool ok = true;
    switch (r) {
      case kNoResource: break;
      case kRuins: ok = t != kCity && t != kVillage; break;
      case kFruit: case kCrops: ok = t == kPlain; break;
      case kAnimal: ok = t == kForest; break;
      case kFish: ok = t == kShallow; break;
      case kWhales: ok = is_water(t); break;  // fix-up may turn a whale cell shallow
      case kOre: ok = t == kMountain; break;
      default: ok = false;
    }
    CHECK(ok, "%s tile %d: resource %d on terrain %d", tag, c, r, t);
  }
  CHECK(ruins == wanted_ruins, "%s ruins %d, want %d", tag, ruins, wanted_ruins);
  CHECK(water_ruins <= java_round(wanted_ruins / 3.0), "%s water ruins %d", tag, water_ruins);

  // CSV round trip of a generated level: same board; capitals re-numbered in reading order.
  std::vector<int8_t> sorted = tribes;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()) {
    const Level back = parse_level_csv(level_to_csv(l));
    std::vector<std::pair<int, int>> a, b;
    for (size_t i = 0; i < l.capital_tiles.size(); ++i) a.push_back({l.capital_tiles[i], l.capital_tribes[i]});
    for (size_t i = 0; i < back.capital_tiles.size(); ++i) b.push_back({back.capital_tiles[i], back.capital_tribes[i]});
    std::sort(a.begin(), a.end());
    CHECK(back.terrain == l.terrain && back.resource == l.resource && a == b, "%s CSV round trip", tag);
  }

  st.land += double(cells - count_terrain(l, kDeep) - count_terrain(l, kShallow)) / cells;
  st.shallow += double(count_terrain(l, kShallow)) / cells;
  st.villages += count_terrain(l, kVillage);
  st.ruins += ruins;
  st.forest += count_terrain(l, kForest);
  st.mountain += count_terrain(l, kMountain);
  st.resources += cells - count_resource(l, kNoResource) - ruins;
  st.n += 1;
}

void test_generator() {
  std::printf("generator statistics (mean over players 2..min(16,feasible) x 3 seeds):\n");
  std::printf("  N  maps  land  shallow  villages  ruins  forest  mountain  resources\n");
  for (int size = 8; size <= 24; ++size) {
    Stats st;
    const int side = size - 4;
    for (int players = 2; players <= kMaxPlayers && players <= side * side; ++players) {
      std::vector<int8_t> tribes;
      for (int i = 0; i < players; ++i) tribes.push_back(int8_t((i + size) % kNumTribes));
      for (uint64_t seed : {1ull, 2ull, 12345ull}) {
        try {
          check_generated(generate_level(size, tribes, seed), size, tribes, seed, st);
        } catch (const std::exception& e) {
          CHECK(false, "N=%d P=%d seed=%llu threw: %s", size, players, (unsigned long long)seed, e.what());
        }
      }
    }
    if (st.n)
      std::printf("  %2d  %4d  %.2f  %.2f     %6.1f   %4.1f  %6.1f  %6.1f    %6.1f\n", size, st.n, st.land / st.n,
                  st.shallow / st.n, st.villages / st.n, st.ruins / st.n, st.forest / st.n, st.mountain / st.n,
                  st.resources / st.n);
  }
  // Larger sizes: a few configurations up to the maximum map size.
  for (int size : {30, 40}) {
    Stats st;
    std::vector<int8_t> tribes;
    for (int i = 0; i < kMaxPlayers; ++i) tribes.push_back(int8_t(i % kNumTribes));
    check_generated(generate_level(size, tribes, 7), size, tribes, 7, st);
    check_generated(generate_level(size, {kImperius, kBardur}, 7), size, {kImperius, kBardur}, 7, st);
  }

  // Determinism: same seed same level, different seed different level.
  const std::vector<int8_t> duo = {kBardur, kImperius};
  for (int size : {8, 11, 16, 24}) {
    const Level a = generate_level(size, duo, 42), b = generate_level(size, duo, 42), c = generate_level(size, duo, 43);
    CHECK(same_level(a, b), "N=%d same seed differs", size);
    CHECK(!same_level(a, c), "N=%d seeds 42 and 43 give the same level", size);
  }
  // Infeasible or invalid requests.
  auto expect_throw = [](int size, std::vector<int8_t> tribes, const char* fragment) {
    try {
      generate_level(size, tribes, 1);
      CHECK(false, "N=%d P=%zu: no exception", size, tribes.size());
    } catch (const InvalidArgument& e) {
      CHECK(std::string(e.what()).find(fragment) != std::string::npos, "message \"%s\" lacks \"%s\"", e.what(),
            fragment);
    }
  };
  expect_throw(6, {0, 1, 2, 3, 4}, "map_size 6 is too small for 5 players");
  expect_throw(7, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, "map_size 7 is too small for 10 players");
  expect_throw(41, {0, 1}, "map_size 41");
  expect_throw(11, {0, 12}, "tribe key 12");
  expect_throw(11, {}, "2 to 16 players, got 0");
  expect_throw(11, {0}, "2 to 16 players, got 1");
  expect_throw(24, std::vector<int8_t>(17, 0), "2 to 16 players, got 17");
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path dir = argc > 1 ? std::filesystem::path(argv[1])
                                       : std::filesystem::path(__FILE__).parent_path() / ".." / ".." / "polyenv" / "levels";
  try {
    test_minimal(dir);
  } catch (const std::exception& e) {
    CHECK(false, "minimal.csv: %s", e.what());
  }
  test_shipped(dir);
  test_csv_errors();
  test_generator();
  std::printf("%d checks, %d failed\n", g_checks, g_failures);
  return g_failures ? 1 : 0;
}
