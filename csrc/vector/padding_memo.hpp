// padding_memo.hpp — which padding rows of a caller's buffers are still zero.
//
// Most of a step's bytes are padding action rows (about 230 of 256 rows at
// 11x11 2p), and their 80 bytes of features and arg mask are zero every time.
// When the caller hands back the same live arrays (the Python side checks
// object identity with weak references: BufferOrigin::kCallerKnown), the rows
// beyond the padding start of the env's last write into that buffer row are
// still zero and need not be written again. A memo records, per buffer set
// (keyed by the address and size of its action_features and action_arg_mask
// arrays) and per row, that padding start; the row writer clears only
// [new rows, old padding start).
//
// Safety:
// - a buffer set the caller did not vouch for (new objects, a different
//   address or row count) gets a fresh memo: every padding row is written;
// - any write of a call that touches a byte another memo describes (a view of
//   the same memory passed as another buffer set, ...) drops that memo;
// - a failed call drops every memo (a row may be half written);
// - action_id (-1) and action_mask (0) of padding rows — the seed-000 padding
//   contract — are always written; only the zero features / arg mask rely on
//   the caller not writing into the arrays between calls (documented;
//   VectorGameEnv.forget_buffers() declares such a write).
#pragma once
#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <vector>

#include "batch.hpp"

namespace polyenv {

class PaddingMemos {
 public:
  // The per-row padding starts to use for a call writing `dims` into `out`
  // (nullptr: write every padding row, e.g. freshly allocated outputs), after
  // dropping every other memo that this call's writes overlap.
  int* rows_for(const BatchView& out, const BatchDims& dims) {
    std::array<Range, kNumBatchFields> written{};
    for (int f = 0; f < dims.num_fields(); ++f) {
      written[size_t(f)] = {static_cast<const char*>(out.data[size_t(f)]), size_t(field_spec(dims, f).bytes())};
    }
    const Key key{written[kBActionFeatures], written[kBActionArgMask]};
    Memo* match = nullptr;
    for (Memo& m : memos_) {
      if (m.rows.empty()) continue;
      if (m.key == key && out.origin == BufferOrigin::kCallerKnown) {
        match = &m;
        continue;
      }
      for (int f = 0; f < dims.num_fields(); ++f) {
        if (written[size_t(f)].overlaps(m.key.features) || written[size_t(f)].overlaps(m.key.arg_mask)) {
          m.rows.clear();
          break;
        }
      }
    }
    if (out.origin == BufferOrigin::kAllocated || dims.rows == 0 || key.features.bytes == 0) return nullptr;
    if (!match) {  // a fresh memo, in the least recently used place: nothing known yet
      match = &*std::min_element(memos_.begin(), memos_.end(),
                                 [](const Memo& a, const Memo& b) { return a.used < b.used; });
      match->key = key;
      match->rows.assign(size_t(dims.rows), INT_MAX);
    }
    match->used = ++clock_;
    return match->rows.data();
  }

  void clear() {
    for (Memo& m : memos_) m.rows.clear();
  }

 private:
  struct Range {
    const char* data = nullptr;
    size_t bytes = 0;
    bool operator==(const Range&) const = default;
    bool overlaps(const Range& o) const {
      return bytes && o.bytes && data < o.data + o.bytes && o.data < data + bytes;
    }
  };
  struct Key {
    Range features, arg_mask;
    bool operator==(const Key&) const = default;
  };
  struct Memo {
    Key key;
    std::vector<int> rows;  // per buffer row: padding start of the last write (INT_MAX: unknown); empty = unused
    uint64_t used = 0;
  };
  std::array<Memo, 4> memos_;  // a few buffer sets: double buffering, pipeline slots
  uint64_t clock_ = 0;
};

}  // namespace polyenv
