// level_csv.cpp — Tribes' CSV level files (RULES.md §1.3) to and from Level.
//
// Format: one line per board row x, N lines of N comma-separated tokens
// `T:R` (T terrain char, R an optional resource char; for T = 'c', R is the
// decimal tribe key). Capitals are numbered in reading order. Every malformed
// input throws InvalidArgument naming the 1-based line and token.
#include <string>
#include <string_view>
#include <vector>

#include "game.hpp"

namespace polyenv {
namespace {

int terrain_of_char(char c) {
  for (int t = 0; t < kNumTerrains; ++t)
    if (kTerrainCsvChar[t] == c) return t;
  return -1;
}

// §1.3: an unknown resource char means "no resource".
int8_t resource_of_char(char c) {
  for (int r = 0; r < kNumResourceKeys; ++r)
    if (kResourceCsvChar[r] != 0 && kResourceCsvChar[r] == c) return int8_t(r);
  return kNoResource;
}

[[noreturn]] void fail(int line, int token, std::string_view text, const std::string& why) {
  std::string msg = "level CSV line " + std::to_string(line);
  if (token > 0) msg += ", token " + std::to_string(token) + " '" + std::string(text) + "'";
  throw InvalidArgument(msg + ": " + why);
}

// Splits into lines (LF or CRLF), dropping blank trailing lines.
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  auto blank = [](std::string_view l) { return l.find_first_not_of(" \t\r") == std::string_view::npos; };
  while (!lines.empty() && blank(lines.back())) lines.pop_back();
  return lines;
}

// Splits a line on ',', dropping trailing empty tokens (a trailing comma).
std::vector<std::string_view> split_tokens(std::string_view line) {
  std::vector<std::string_view> tokens;
  size_t start = 0;
  while (true) {
    size_t end = line.find(',', start);
    if (end == std::string_view::npos) { tokens.push_back(line.substr(start)); break; }
    tokens.push_back(line.substr(start, end - start));
    start = end + 1;
  }
  while (!tokens.empty() && tokens.back().empty()) tokens.pop_back();
  return tokens;
}

}  // namespace

Level parse_level_csv(std::string_view text) {
  const std::vector<std::string_view> lines = split_lines(text);
  const int n = int(lines.size());
  if (n < kMinMapSize || n > kMaxMapSize)
    throw InvalidArgument("level CSV has " + std::to_string(n) + " lines: the board size must be in [" +
                          std::to_string(kMinMapSize) + ", " + std::to_string(kMaxMapSize) + "]");
  Level level;
  level.size = n;
  level.terrain.assign(size_t(n * n), kPlain);
  level.resource.assign(size_t(n * n), kNoResource);
  std::vector<int> key_line(kNumTribes, 0);  // line where each tribe key appeared, 0 = not yet

  for (int x = 0; x < n; ++x) {
    const int line_no = x + 1;
    const std::vector<std::string_view> tokens = split_tokens(lines[size_t(x)]);
    if (int(tokens.size()) != n)
      fail(line_no, 0, {}, "expected " + std::to_string(n) + " tokens (one per column of the " + std::to_string(n) +
                               "x" + std::to_string(n) + " board), found " + std::to_string(tokens.size()));
    for (int y = 0; y < n; ++y) {
      const std::string_view tok = tokens[size_t(y)];
      const int tok_no = y + 1;
      if (tok.empty()) fail(line_no, tok_no, tok, "empty token, expected T:R");
      if (tok.size() < 2 || tok[1] != ':') fail(line_no, tok_no, tok, "expected T:R (terrain char, ':', resource)");
      const int terrain = terrain_of_char(tok[0]);
      if (terrain < 0)
        fail(line_no, tok_no, tok, "unknown terrain char '" + std::string(1, tok[0]) + "' (expected one of . s d m v c f)");
      const std::string_view rest = tok.substr(2);
      const int tile = x * n + y;
      level.terrain[size_t(tile)] = int8_t(terrain);
      if (terrain == kCity) {
        // The second field of a city is its tribe key, 0..11.
        if (rest.empty() || rest.size() > 2 || rest.find_first_not_of("0123456789") != std::string_view::npos)
          fail(line_no, tok_no, tok, "a city needs a tribe key 0.." + std::to_string(kNumTribes - 1));
        const int key = std::stoi(std::string(rest));
        if (key >= kNumTribes)
          fail(line_no, tok_no, tok, "tribe key " + std::to_string(key) + " is outside 0.." +
                                         std::to_string(kNumTribes - 1));
        if (key_line[size_t(key)] != 0)
          fail(line_no, tok_no, tok, "tribe key " + std::to_string(key) + " already has a capital (line " +
                                         std::to_string(key_line[size_t(key)]) + ")");
        key_line[size_t(key)] = line_no;
        level.capital_tiles.push_back(int16_t(tile));
        level.capital_tribes.push_back(int8_t(key));
      } else if (rest.size() > 1) {
        fail(line_no, tok_no, tok, "the resource must be a single char");
      } else if (rest.size() == 1) {
        level.resource[size_t(tile)] = resource_of_char(rest[0]);  // ' ' and unknown chars: none
      }
    }
  }
  if (level.capital_tiles.empty()) throw InvalidArgument("level CSV has no capital (no 'c:K' token)");
  return level;
}

std::string level_to_csv(const Level& level) {
  const int n = level.size;
  const size_t cells = size_t(n) * size_t(n);
  if (n < kMinMapSize || n > kMaxMapSize)
    throw InvalidArgument("level size " + std::to_string(n) + " is outside [" + std::to_string(kMinMapSize) + ", " +
                          std::to_string(kMaxMapSize) + "]");
  if (level.terrain.size() != cells || level.resource.size() != cells ||
      level.capital_tiles.size() != level.capital_tribes.size())
    throw InvalidArgument("level arrays do not match its size");
  std::vector<int> tribe_at(cells, -1);
  for (size_t i = 0; i < level.capital_tiles.size(); ++i) {
    const int tile = level.capital_tiles[i], key = level.capital_tribes[i];
    if (tile < 0 || size_t(tile) >= cells || level.terrain[size_t(tile)] != kCity || key < 0 || key >= kNumTribes)
      throw InvalidArgument("capital " + std::to_string(i) + " (tile " + std::to_string(tile) + ", tribe " +
                            std::to_string(key) + ") is not a city tile with a tribe key 0.." +
                            std::to_string(kNumTribes - 1));
    tribe_at[size_t(tile)] = key;
  }
  std::string out;
  out.reserve(cells * 4);
  for (int x = 0; x < n; ++x) {
    for (int y = 0; y < n; ++y) {
      const size_t tile = size_t(x * n + y);
      const int t = level.terrain[tile], r = level.resource[tile];
      if (t < 0 || t >= kNumTerrains) throw InvalidArgument("tile " + std::to_string(tile) + " has terrain " + std::to_string(t));
      if (y > 0) out += ',';
      out += kTerrainCsvChar[size_t(t)];
      out += ':';
      if (t == kCity) {
        if (tribe_at[tile] < 0) throw InvalidArgument("city tile " + std::to_string(tile) + " is not a capital");
        out += std::to_string(tribe_at[tile]);
      } else if (r != kNoResource) {
        if (r < 0 || r >= kNumResourceKeys || kResourceCsvChar[size_t(r)] == 0)
          throw InvalidArgument("tile " + std::to_string(tile) + " has resource " + std::to_string(r));
        out += kResourceCsvChar[size_t(r)];
      }
    }
    out += '\n';
  }
  return out;
}

}  // namespace polyenv
