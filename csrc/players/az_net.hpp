// az_net.hpp — native inference of the "az" player's policy/value network.
//
// The network is defined once, in Python (polyenv/az_network.py: the feature
// spec and the weight file; polyenv/train/az_net.py: the torch module that is
// trained); this file runs the same forward pass in plain float32 loops:
//
//   tiles   e_t = relu(sum of the tile's categorical embeddings + W_num num_t + W_f f_t + b)  [T, D]
//           (f_t: distance fields, min(Chebyshev distance to the nearest tile of a kind, cap) / cap)
//           L times: h_t += relu(A h_t + B mean(h_n : n an in-board 8-neighbour of t) + c)
//   global  g = relu(W2 relu(W1 [mean_t h, max_t h, state features] + b1) + b2)          [G]
//   rows    r = relu(row embeddings + W_num num + W_src h_src + W_tgt h_tgt + W_g g + b)  [R]
//           logit = w3 . relu(W2 r + b2) + b3                                            one per row
//   value   v = tanh(V2 relu(V1 g + c1) + c2)                                            [16] by relative seat
//
// (h_src / h_tgt: the tile encodings of the row's source / target tile, zero when the
// row has none or its target is a player.) Which observation columns feed the
// embeddings and how numeric columns are scaled is read from the weight file too
// (feature ops), so the two implementations cannot disagree on a column.
//
// Weights are stored [in, out] so every layer is a run of axpy loops over the
// output dimension that the compiler vectorises. Nothing is allocated per call
// once the scratch is warm.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../engine/game.hpp"

namespace polyenv {

// One numeric input: kLinear clamp(x[col] * scale, lo, hi); kBit (x[col] >> arg) & 1;
// kDiff clamp((x[col] - x[arg]) * scale, lo, hi); kNonNegative x[col] >= 0.
struct AzNumericOp {
  enum Kind : int32_t { kLinear = 0, kBit = 1, kDiff = 2, kNonNegative = 3 };
  int32_t kind = kLinear, col = 0, arg = 0;
  float scale = 1, lo = 0, hi = 0;
};
// One categorical input: row clamp(x[col] + shift, 0, size - 1) + offset of the embedding table.
struct AzCategory {
  int32_t col = 0, shift = 0, size = 1, offset = 0;
};
// One distance field: the tiles with lo <= x[col] <= hi are measured to.
struct AzField {
  int32_t col = 0, lo = 0, hi = 0;
};

// Scratch of one evaluation (reused; grows to the largest position seen).
struct AzScratch {
  std::vector<float> h, mix, tmp;       // [T, D] tile encodings, neighbour means, layer output
  std::vector<float> fields;            // [T, F] distance fields
  std::vector<int32_t> sources;         // tiles of one field's kind
  std::vector<float> global, hidden;    // [G], [max(G, H)]
  std::vector<float> row_glob, row, row2;  // [R] per position, [R] per row
  std::vector<float> neighbour_scale;   // [T] 1 / in-board neighbours
  int neighbour_map = -1;               // map size neighbour_scale was built for
};

class AzNet {
 public:
  // Parses a weight file (polyenv/az_network.py's format); InvalidArgument on any problem.
  static std::shared_ptr<const AzNet> from_bytes(const uint8_t* data, size_t size);

  // Logits of `rows` action rows and the value per relative seat (value_size() floats) of
  // one observation in the encoder's layouts: tokens [map_size^2, 23], state [11],
  // features [rows, 17] (int32, as the pools' leaf batches give them).
  void forward(int map_size, const int32_t* tokens, const int32_t* state, const int32_t* features, int rows,
               float* logits, float* values, AzScratch& sc) const;

  // forward() of N dense positions: tokens [N, T, 23], state [N, 11], features [N, A, 17] with
  // counts[i] valid rows each (check_row_counts) -> logits [N, A] (0 beyond each count) and
  // values [N, value_size()].
  void forward_batch(int map_size, int N, int A, const int32_t* tokens, const int32_t* state,
                     const int32_t* features, const int32_t* counts, float* logits, float* values,
                     AzScratch& sc) const;

  int value_size() const { return value_dim_; }
  // The weight of the engine's heuristic in the az search's leaf values (0: the value head
  // alone, 1: the heuristic alone; az_bot.hpp), chosen by the training run that wrote the
  // file (its optional tensor "leaf_value_mix"; 0 when absent).
  float leaf_value_mix() const { return leaf_value_mix_; }
  int64_t parameter_count() const { return parameters_; }

 private:
  AzNet() = default;
  struct Reader;
  void check_ops() const;
  void distance_fields(int map_size, const int32_t* tokens, AzScratch& sc) const;

  int tile_dim_ = 0, layers_ = 0, global_dim_ = 0, row_dim_ = 0, value_hidden_ = 0, value_dim_ = 0;
  int64_t parameters_ = 0;
  float leaf_value_mix_ = 0;
  std::vector<AzCategory> tile_cat_, row_cat_;
  std::vector<AzNumericOp> tile_num_, state_num_, row_num_;
  std::vector<AzField> fields_;
  int field_cap_ = 1;
  std::vector<int32_t> player_target_kinds_;  // action kinds whose target column is a player, not a tile
  // weights, [in, out] row-major
  std::vector<float> tile_embed_, tile_num_w_, tile_b_, tile_field_w_;
  std::vector<std::vector<float>> mix_self_, mix_nbr_, mix_b_;
  std::vector<float> glob1_w_, glob1_b_, glob2_w_, glob2_b_;
  std::vector<float> row_embed_, row_num_w_, row_src_w_, row_tgt_w_, row_glob_w_, row_b_, row2_w_, row2_b_,
      row_out_w_;
  float row_out_b_ = 0;
  std::vector<float> value1_w_, value1_b_, value2_w_, value2_b_;
};

// InvalidArgument unless every counts[i] (i < N) is in [0, A].
void check_row_counts(const int32_t* counts, int N, int A);

// The process-wide table of loaded networks (append-only, so a pointer stays valid for the
// life of the process; Python registers the shipped network on first use of an "az" name).
int register_az_net(std::shared_ptr<const AzNet> net);
// The network at `index`, or nullptr when none is registered there.
const AzNet* az_net(int index);

}  // namespace polyenv
