// buffer_memo.hpp — which parts of a caller's reused buffers are still zero.
//
// Most bytes of a row are zeros that were already there: padding action rows
// (about 230 of 256 rows at 11x11 2p; 80 bytes of features and arg mask each)
// and the map tokens of unexplored tiles (92 bytes each; fog only recedes).
// By default every call writes them all: the caller may have written into its
// arrays. Only when the caller promises that nothing wrote into them since this
// env did (VectorGameEnv's `buffers_untouched=True`) and hands back the very
// arrays it wrote last (the Python side checks object identity with weak
// references), the view is BufferOrigin::kCallerKnown and those zeros are not
// written again. A memo records, per buffer set (keyed by the address and size
// of its map_tokens, action_features and action_arg_mask arrays) and per row,
// what the last write left zero: the first padding action row
// (RowMemo::padding_from) and the all-zero tiles (RowMemo::zero_tiles).
//
// Safety:
// - a buffer set the caller did not vouch for (no promise, new objects, a
//   different address or row count) gets a fresh memo: everything is written,
//   and the memo then describes what that full write left;
// - any write of a call that touches a byte another memo describes (a view of
//   the same memory passed as another buffer set, ...) drops that memo;
// - a failed call drops every memo (a row may be half written);
// - action_id (-1) and action_mask (0) of padding rows — the seed-000 padding
//   contract — are always written, and so is every explored tile and every
//   other field; only zeros the env wrote itself are relied on, and only under
//   the caller's promise (VectorGameEnv.forget_buffers() withdraws it for the
//   arrays written so far).
#pragma once
#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <vector>

#include "batch.hpp"

namespace polyenv {

class BufferMemos {
 public:
  struct Memo {
    std::array<const char*, 3> data{};  // map_tokens, action_features, action_arg_mask
    std::array<size_t, 3> bytes{};
    int words = 0;                      // zero_tiles words per row
    std::vector<int> padding_from;      // per row (INT_MAX: unknown); empty = unused memo
    std::vector<uint64_t> zero_tiles;   // per row, `words` words (0: unknown)
    uint64_t used = 0;
    RowMemo row(int r) { return {&padding_from[size_t(r)], zero_tiles.data() + size_t(r) * size_t(words)}; }
  };

  // The memo to use for a call writing `dims` into `out` (nullptr: write
  // everything, e.g. freshly allocated outputs), after dropping every other
  // memo that this call's writes overlap.
  Memo* memo_for(const BatchView& out, const BatchDims& dims) {
    std::array<const char*, kNumBatchFields> begin{};
    std::array<size_t, kNumBatchFields> bytes{};
    for (int f = 0; f < dims.num_fields(); ++f) {
      begin[size_t(f)] = static_cast<const char*>(out.data[size_t(f)]);
      bytes[size_t(f)] = size_t(field_spec(dims, f).bytes());
    }
    constexpr std::array<int, 3> kFields = {kBMapTokens, kBActionFeatures, kBActionArgMask};
    Memo* match = nullptr;
    for (Memo& m : memos_) {
      if (m.padding_from.empty()) continue;
      bool same = true;
      for (size_t i = 0; i < kFields.size(); ++i) {
        same = same && m.data[i] == begin[size_t(kFields[i])] && m.bytes[i] == bytes[size_t(kFields[i])];
      }
      if (same && out.origin == BufferOrigin::kCallerKnown) {
        match = &m;
        continue;
      }
      bool overlap = false;
      for (int f = 0; f < dims.num_fields() && !overlap; ++f) {
        for (size_t i = 0; i < kFields.size(); ++i) {
          overlap = overlap || overlaps(begin[size_t(f)], bytes[size_t(f)], m.data[i], m.bytes[i]);
        }
      }
      if (overlap) m.padding_from.clear();
    }
    if (out.origin == BufferOrigin::kAllocated || dims.rows == 0) return nullptr;
    if (!match) {  // a fresh memo, in the least recently used place: nothing known yet
      match = &*std::min_element(memos_.begin(), memos_.end(),
                                 [](const Memo& a, const Memo& b) { return rank(a) < rank(b); });
      for (size_t i = 0; i < kFields.size(); ++i) {
        match->data[i] = begin[size_t(kFields[i])];
        match->bytes[i] = bytes[size_t(kFields[i])];
      }
      match->words = (dims.tiles + 63) / 64;
      match->padding_from.assign(size_t(dims.rows), INT_MAX);
      match->zero_tiles.assign(size_t(dims.rows) * size_t(match->words), 0);
    }
    match->used = ++clock_;
    return match;
  }

  void clear() {
    for (Memo& m : memos_) m.padding_from.clear();
  }

 private:
  static uint64_t rank(const Memo& m) { return m.padding_from.empty() ? 0 : m.used; }
  static bool overlaps(const char* a, size_t na, const char* b, size_t nb) {
    return na && nb && a < b + nb && b < a + na;
  }
  std::array<Memo, 4> memos_;  // a few buffer sets: double buffering, pipeline slots
  uint64_t clock_ = 0;
};

}  // namespace polyenv
