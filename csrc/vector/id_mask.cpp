// id_mask.cpp — the dense legal-id mask update (id_mask.hpp).
#include "id_mask.hpp"

#include <algorithm>
#include <string>

#include "../engine/game.hpp"

namespace polyenv {

namespace {

// Every id of the first counts[r] entries of row r lies in [0, limit); counts lie in [0, width].
void check_rows(const int32_t* ids, const int32_t* counts, int64_t rows, int64_t width, int64_t limit,
                const char* name) {
  for (int64_t r = 0; r < rows; ++r) {
    if (counts[r] < 0 || counts[r] > width) {
      throw InvalidArgument(std::string(name) + " count " + std::to_string(counts[r]) + " of row " +
                            std::to_string(r) + " is outside [0, " + std::to_string(width) + "]");
    }
    for (int32_t j = 0; j < counts[r]; ++j) {
      const int32_t id = ids[r * width + j];
      if (id < 0 || id >= limit) {
        throw InvalidArgument(std::string(name) + " id " + std::to_string(id) + " in row " + std::to_string(r) +
                              " is outside [0, " + std::to_string(limit) + ")");
      }
    }
  }
}

}  // namespace

void update_id_mask(int8_t* mask, const int32_t* ids, const int32_t* counts, int32_t* marked, int32_t* marked_counts,
                    int64_t rows, int64_t width, int64_t limit) {
  check_rows(ids, counts, rows, width, limit, "action_id");
  check_rows(marked, marked_counts, rows, width, limit, "marked");
  for (int64_t r = 0; r < rows; ++r) {
    int8_t* row = mask + r * limit;
    int32_t* row_kept = marked + r * width;
    for (int32_t j = 0; j < marked_counts[r]; ++j) row[row_kept[j]] = 0;
    const int32_t* row_now = ids + r * width;
    for (int32_t j = 0; j < counts[r]; ++j) row[row_now[j]] = 1;
    std::copy(row_now, row_now + counts[r], row_kept);
    marked_counts[r] = counts[r];
  }
}

}  // namespace polyenv
