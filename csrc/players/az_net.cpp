// az_net.cpp — the "az" network's weight file and forward pass (az_net.hpp).
#include "az_net.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>

#include "../encode/encode.hpp"
#include "../encode/layout.hpp"

namespace polyenv {

namespace {

constexpr char kMagic[8] = {'P', 'O', 'L', 'Y', 'A', 'Z', '\0', '\1'};
constexpr int kFormatVersion = 1;

[[noreturn]] void bad_file(const std::string& why) { throw InvalidArgument("az weight file: " + why); }

// out[o] += sum_i x[i] * w[i * out_dim + o]  (w stored [in, out]).
inline void axpy_layer(const float* x, int in_dim, const float* w, int out_dim, float* out) {
  for (int i = 0; i < in_dim; ++i) {
    const float xi = x[i];
    if (xi == 0.0f) continue;  // ReLU outputs and one-hot inputs are mostly zero
    const float* wi = w + size_t(i) * size_t(out_dim);
    for (int o = 0; o < out_dim; ++o) out[o] += xi * wi[o];
  }
}

inline void add_row(const float* row, int n, float* out) {
  for (int o = 0; o < n; ++o) out[o] += row[o];
}

inline void relu(float* x, int n) {
  for (int o = 0; o < n; ++o) x[o] = std::max(x[o], 0.0f);
}

inline float numeric(const AzNumericOp& op, const int32_t* x) {
  switch (op.kind) {
    case AzNumericOp::kBit: return float((x[op.col] >> op.arg) & 1);
    case AzNumericOp::kDiff: return std::clamp(float(x[op.col] - x[op.arg]) * op.scale, op.lo, op.hi);
    case AzNumericOp::kNonNegative: return x[op.col] >= 0 ? 1.0f : 0.0f;
    default: return std::clamp(float(x[op.col]) * op.scale, op.lo, op.hi);
  }
}

// e[0..dim) = sum of the categorical embeddings of x + W_num numeric(x) + bias (no activation).
inline void embed(const int32_t* x, const std::vector<AzCategory>& cats, const float* table,
                  const std::vector<AzNumericOp>& nums, const float* num_w, const float* bias, int dim, float* e) {
  std::memcpy(e, bias, sizeof(float) * size_t(dim));
  for (const AzCategory& c : cats) {
    const int32_t k = std::clamp(x[c.col] + c.shift, 0, c.size - 1) + c.offset;
    add_row(table + size_t(k) * size_t(dim), dim, e);
  }
  for (size_t j = 0; j < nums.size(); ++j) {
    const float v = numeric(nums[j], x);
    if (v == 0.0f) continue;
    const float* w = num_w + j * size_t(dim);
    for (int o = 0; o < dim; ++o) e[o] += v * w[o];
  }
}

}  // namespace

// Sequential reader of the weight file: header, then named tensors.
struct AzNet::Reader {
  const uint8_t* p;
  const uint8_t* end;

  void need(size_t n) {
    if (size_t(end - p) < n) bad_file("truncated");
  }
  uint32_t u32() {
    need(4);
    uint32_t v;
    std::memcpy(&v, p, 4);
    p += 4;
    return v;
  }
  struct Tensor {
    std::string name;
    int dtype = 0;  // 0 float32, 1 int32
    std::vector<uint32_t> shape;
    const uint8_t* data = nullptr;
    size_t count = 1;
  };
  Tensor tensor() {
    Tensor t;
    const uint32_t name_len = u32();
    if (name_len > 64) bad_file("tensor name too long");
    need(name_len);
    t.name.assign(reinterpret_cast<const char*>(p), name_len);
    p += name_len;
    need(1);
    t.dtype = *p++;
    if (t.dtype > 1) bad_file(t.name + ": unknown dtype");
    const uint32_t ndim = u32();
    if (ndim > 4) bad_file(t.name + ": too many dimensions");
    for (uint32_t d = 0; d < ndim; ++d) {
      t.shape.push_back(u32());
      if (t.shape.back() > (1u << 24)) bad_file(t.name + ": dimension too large");
      t.count *= t.shape.back();
    }
    if (t.count > (size_t(1) << 26)) bad_file(t.name + ": too large");
    need(t.count * 4);
    t.data = p;
    p += t.count * 4;
    return t;
  }
};

std::shared_ptr<const AzNet> AzNet::from_bytes(const uint8_t* data, size_t size) {
  Reader r{data, data + size};
  r.need(sizeof(kMagic));
  if (std::memcmp(r.p, kMagic, sizeof(kMagic)) != 0) bad_file("not a polyenv az weight file (bad magic)");
  r.p += sizeof(kMagic);
  if (r.u32() != kFormatVersion) bad_file("unsupported format version");
  const uint32_t count = r.u32();
  if (count > 1024) bad_file("too many tensors");
  std::vector<Reader::Tensor> tensors;
  for (uint32_t i = 0; i < count; ++i) tensors.push_back(r.tensor());
  if (r.p != r.end) bad_file("trailing bytes");

  std::shared_ptr<AzNet> net(new AzNet());
  auto find = [&](const std::string& name) -> const Reader::Tensor& {
    for (const auto& t : tensors)
      if (t.name == name) return t;
    bad_file("missing tensor " + name);
  };
  auto ints = [&](const std::string& name, size_t cols) {
    const Reader::Tensor& t = find(name);
    if (t.dtype != 1 || (cols && (t.shape.size() != 2 || t.shape[1] != cols)) || (!cols && t.shape.size() != 1)) {
      bad_file(name + ": wrong dtype or shape");
    }
    std::vector<int32_t> v(t.count);
    std::memcpy(v.data(), t.data, t.count * 4);
    return v;
  };
  auto floats = [&](const std::string& name, std::vector<uint32_t> shape) {
    const Reader::Tensor& t = find(name);
    if (t.dtype != 0 || t.shape != shape) bad_file(name + ": wrong dtype or shape");
    std::vector<float> v(t.count);
    std::memcpy(v.data(), t.data, t.count * 4);
    for (const float x : v)
      if (!std::isfinite(x)) bad_file(name + ": not finite");
    net->parameters_ += int64_t(t.count);
    return v;
  };

  const std::vector<int32_t> config = ints("config", 0);
  if (config.size() != 6) bad_file("config must hold 6 integers");
  net->tile_dim_ = config[0];
  net->layers_ = config[1];
  net->global_dim_ = config[2];
  net->row_dim_ = config[3];
  net->value_hidden_ = config[4];
  net->value_dim_ = config[5];
  for (const int32_t c : config)
    if (c < 0 || c > 4096) bad_file("config out of range");
  if (net->tile_dim_ < 1 || net->global_dim_ < 1 || net->row_dim_ < 1 || net->value_hidden_ < 1 ||
      net->value_dim_ < 1 || net->value_dim_ > kMaxPlayers || net->layers_ > 64) {
    bad_file("config out of range");
  }

  auto categories = [&](const std::string& name) {
    const std::vector<int32_t> v = ints(name, 3);
    std::vector<AzCategory> out;
    int32_t offset = 0;
    for (size_t i = 0; i < v.size(); i += 3) {
      out.push_back({v[i], v[i + 1], v[i + 2], offset});
      if (v[i + 2] < 1) bad_file(name + ": a category needs at least one value");
      offset += v[i + 2];
    }
    return std::make_pair(out, offset);
  };
  auto numerics = [&](const std::string& name) {
    const std::vector<int32_t> v = ints(name + "_ops", 3);
    const Reader::Tensor& t = find(name + "_scales");
    if (t.dtype != 0 || t.shape.size() != 2 || t.shape[1] != 3 || t.shape[0] * 3 != v.size()) {
      bad_file(name + "_scales: wrong dtype or shape");
    }
    std::vector<float> f(t.count);
    std::memcpy(f.data(), t.data, t.count * 4);
    std::vector<AzNumericOp> out;
    for (size_t i = 0; i < v.size(); i += 3) out.push_back({v[i], v[i + 1], v[i + 2], f[i], f[i + 1], f[i + 2]});
    return out;
  };
  const auto [tile_cat, tile_vocab] = categories("tile_categories");
  const auto [row_cat, row_vocab] = categories("row_categories");
  net->tile_cat_ = tile_cat;
  net->row_cat_ = row_cat;
  net->tile_num_ = numerics("tile_numeric");
  net->state_num_ = numerics("state_numeric");
  net->row_num_ = numerics("row_numeric");
  net->player_target_kinds_ = ints("player_target_kinds", 0);
  const std::vector<int32_t> fields = ints("tile_fields", 3);
  for (size_t i = 0; i < fields.size(); i += 3) net->fields_.push_back({fields[i], fields[i + 1], fields[i + 2]});
  const std::vector<int32_t> cap = ints("field_cap", 0);
  if (cap.size() != 1 || cap[0] < 1 || cap[0] > 64) bad_file("field_cap must be one integer in [1, 64]");
  net->field_cap_ = cap[0];
  net->check_ops();
  // Optional (absent in files written before it existed: 0, the value head alone).
  for (const auto& t : tensors) {
    if (t.name != "leaf_value_mix") continue;
    float mix = -1;
    if (t.dtype == 0 && t.shape == std::vector<uint32_t>{1}) std::memcpy(&mix, t.data, 4);
    if (!(mix >= 0 && mix <= 1)) bad_file("leaf_value_mix must be one float32 in [0, 1]");
    net->leaf_value_mix_ = mix;
  }

  const uint32_t D = uint32_t(net->tile_dim_), G = uint32_t(net->global_dim_), R = uint32_t(net->row_dim_),
                 H = uint32_t(net->value_hidden_), V = uint32_t(net->value_dim_);
  const uint32_t S = uint32_t(net->state_num_.size());
  net->tile_embed_ = floats("tile_embed", {uint32_t(tile_vocab), D});
  net->tile_num_w_ = floats("tile_num_w", {uint32_t(net->tile_num_.size()), D});
  net->tile_b_ = floats("tile_b", {D});
  net->tile_field_w_ = floats("tile_field_w", {uint32_t(net->fields_.size()), D});
  for (int l = 0; l < net->layers_; ++l) {
    const std::string k = std::to_string(l);
    net->mix_self_.push_back(floats("mix" + k + "_self", {D, D}));
    net->mix_nbr_.push_back(floats("mix" + k + "_nbr", {D, D}));
    net->mix_b_.push_back(floats("mix" + k + "_b", {D}));
  }
  net->glob1_w_ = floats("glob1_w", {2 * D + S, G});
  net->glob1_b_ = floats("glob1_b", {G});
  net->glob2_w_ = floats("glob2_w", {G, G});
  net->glob2_b_ = floats("glob2_b", {G});
  net->row_embed_ = floats("row_embed", {uint32_t(row_vocab), R});
  net->row_num_w_ = floats("row_num_w", {uint32_t(net->row_num_.size()), R});
  net->row_src_w_ = floats("row_src_w", {D, R});
  net->row_tgt_w_ = floats("row_tgt_w", {D, R});
  net->row_glob_w_ = floats("row_glob_w", {G, R});
  net->row_b_ = floats("row_b", {R});
  net->row2_w_ = floats("row2_w", {R, R});
  net->row2_b_ = floats("row2_b", {R});
  net->row_out_w_ = floats("row_out_w", {R});
  net->row_out_b_ = floats("row_out_b", {1})[0];
  net->value1_w_ = floats("value1_w", {G, H});
  net->value1_b_ = floats("value1_b", {H});
  net->value2_w_ = floats("value2_w", {H, V});
  net->value2_b_ = floats("value2_b", {V});
  return net;
}

void AzNet::check_ops() const {
  auto check_num = [](const std::vector<AzNumericOp>& ops, int width, const char* what) {
    for (const AzNumericOp& op : ops) {
      const bool arg_col = op.kind == AzNumericOp::kDiff;
      if (op.kind < 0 || op.kind > AzNumericOp::kNonNegative || op.col < 0 || op.col >= width ||
          (arg_col && (op.arg < 0 || op.arg >= width)) || (op.kind == AzNumericOp::kBit && (op.arg < 0 || op.arg > 30)) ||
          !std::isfinite(op.scale) || !std::isfinite(op.lo) || !std::isfinite(op.hi) || op.lo > op.hi) {
        bad_file(std::string(what) + ": malformed numeric feature");
      }
    }
  };
  auto check_cat = [](const std::vector<AzCategory>& cats, int width, const char* what) {
    for (const AzCategory& c : cats) {
      if (c.col < 0 || c.col >= width || c.shift < -1024 || c.shift > 1024 || c.size > 4096) {
        bad_file(std::string(what) + ": malformed categorical feature");
      }
    }
  };
  check_cat(tile_cat_, kMapTokenFeatures, "tile_categories");
  check_cat(row_cat_, kActionFeatures, "row_categories");
  check_num(tile_num_, kMapTokenFeatures, "tile_numeric");
  for (const AzField& f : fields_) {
    if (f.col < 0 || f.col >= kMapTokenFeatures || f.lo > f.hi) bad_file("tile_fields: malformed distance field");
  }
  check_num(state_num_, kStateFeatures, "state_numeric");
  check_num(row_num_, kActionFeatures, "row_numeric");
}

void AzNet::distance_fields(int map_size, const int32_t* tokens, AzScratch& sc) const {
  const int T = map_size * map_size, F = int(fields_.size());
  if (sc.fields.size() < size_t(T) * size_t(F)) sc.fields.resize(size_t(T) * size_t(F));
  if (sc.sources.size() < size_t(T)) sc.sources.resize(size_t(T));
  const float scale = 1.0f / float(field_cap_);
  for (int f = 0; f < F; ++f) {
    const AzField& fd = fields_[size_t(f)];
    int n = 0;
    for (int t = 0; t < T; ++t) {
      const int32_t v = tokens[size_t(t) * kMapTokenFeatures + size_t(fd.col)];
      if (v >= fd.lo && v <= fd.hi) sc.sources[size_t(n++)] = t;
    }
    for (int t = 0; t < T; ++t) {
      const int x = t / map_size, y = t % map_size;
      int d = field_cap_;
      for (int k = 0; k < n && d > 0; ++k) {
        const int s = sc.sources[size_t(k)];
        d = std::min(d, std::max(std::abs(s / map_size - x), std::abs(s % map_size - y)));
      }
      sc.fields[size_t(t) * size_t(F) + size_t(f)] = float(d) * scale;
    }
  }
}

void AzNet::forward(int map_size, const int32_t* tokens, const int32_t* state, const int32_t* features, int rows,
                    float* logits, float* values, AzScratch& sc) const {
  const int T = map_size * map_size, D = tile_dim_, G = global_dim_, R = row_dim_, H = value_hidden_;
  const size_t TD = size_t(T) * size_t(D);
  if (sc.h.size() < TD) {
    sc.h.resize(TD);
    sc.mix.resize(TD);
    sc.tmp.resize(TD);
  }
  const int S = int(state_num_.size());
  const size_t global_in = size_t(2 * D + S);
  if (sc.global.size() < std::max<size_t>(global_in, size_t(G))) sc.global.resize(std::max<size_t>(global_in, size_t(G)));
  if (sc.hidden.size() < size_t(std::max(G, H))) sc.hidden.resize(size_t(std::max(G, H)));
  if (sc.row.size() < size_t(R)) {
    sc.row.resize(size_t(R));
    sc.row2.resize(size_t(R));
    sc.row_glob.resize(size_t(R));
  }
  if (sc.neighbour_map != map_size) {
    sc.neighbour_scale.resize(size_t(T));
    for (int x = 0; x < map_size; ++x) {
      for (int y = 0; y < map_size; ++y) {
        const int n = (std::min(x + 1, map_size - 1) - std::max(x - 1, 0) + 1) *
                          (std::min(y + 1, map_size - 1) - std::max(y - 1, 0) + 1) - 1;
        sc.neighbour_scale[size_t(x * map_size + y)] = n > 0 ? 1.0f / float(n) : 0.0f;
      }
    }
    sc.neighbour_map = map_size;
  }
  float* h = sc.h.data();

  // Tile encodings.
  distance_fields(map_size, tokens, sc);
  const int F = int(fields_.size());
  for (int t = 0; t < T; ++t) {
    float* e = h + size_t(t) * size_t(D);
    embed(tokens + size_t(t) * kMapTokenFeatures, tile_cat_, tile_embed_.data(), tile_num_, tile_num_w_.data(),
          tile_b_.data(), D, e);
    axpy_layer(sc.fields.data() + size_t(t) * size_t(F), F, tile_field_w_.data(), D, e);
    relu(e, D);
  }
  for (int l = 0; l < layers_; ++l) {
    // Neighbour means: the sum over the 3x3 window minus the tile itself, scaled.
    float* m = sc.mix.data();
    for (int x = 0; x < map_size; ++x) {
      for (int y = 0; y < map_size; ++y) {
        float* out = m + size_t(x * map_size + y) * size_t(D);
        std::fill(out, out + D, 0.0f);
        for (int nx = std::max(x - 1, 0); nx <= std::min(x + 1, map_size - 1); ++nx) {
          for (int ny = std::max(y - 1, 0); ny <= std::min(y + 1, map_size - 1); ++ny) {
            if (nx == x && ny == y) continue;
            add_row(h + size_t(nx * map_size + ny) * size_t(D), D, out);
          }
        }
        const float k = sc.neighbour_scale[size_t(x * map_size + y)];
        for (int o = 0; o < D; ++o) out[o] *= k;
      }
    }
    const float* A = mix_self_[size_t(l)].data();
    const float* B = mix_nbr_[size_t(l)].data();
    const float* c = mix_b_[size_t(l)].data();
    for (int t = 0; t < T; ++t) {
      float* out = sc.tmp.data() + size_t(t) * size_t(D);
      std::memcpy(out, c, sizeof(float) * size_t(D));
      axpy_layer(h + size_t(t) * size_t(D), D, A, D, out);
      axpy_layer(m + size_t(t) * size_t(D), D, B, D, out);
      relu(out, D);
    }
    for (size_t i = 0; i < TD; ++i) h[i] += sc.tmp[i];
  }

  // Global vector: [mean, max] of the tiles and the state features.
  float* gin = sc.global.data();
  std::fill(gin, gin + 2 * D, 0.0f);
  for (int o = 0; o < D; ++o) gin[D + o] = h[o];
  for (int t = 0; t < T; ++t) {
    const float* ht = h + size_t(t) * size_t(D);
    for (int o = 0; o < D; ++o) {
      gin[o] += ht[o];
      gin[D + o] = std::max(gin[D + o], ht[o]);
    }
  }
  for (int o = 0; o < D; ++o) gin[o] /= float(T);
  for (int j = 0; j < S; ++j) gin[2 * D + j] = numeric(state_num_[size_t(j)], state);
  float* g1 = sc.hidden.data();
  std::memcpy(g1, glob1_b_.data(), sizeof(float) * size_t(G));
  axpy_layer(gin, int(global_in), glob1_w_.data(), G, g1);
  relu(g1, G);
  float* g = sc.global.data();  // gin is consumed: reuse its storage for g
  std::memcpy(g, glob2_b_.data(), sizeof(float) * size_t(G));
  axpy_layer(g1, G, glob2_w_.data(), G, g);
  relu(g, G);

  // Value head (before the rows reuse `hidden`).
  float* v1 = sc.hidden.data();
  std::memcpy(v1, value1_b_.data(), sizeof(float) * size_t(H));
  axpy_layer(g, G, value1_w_.data(), H, v1);
  relu(v1, H);
  std::memcpy(values, value2_b_.data(), sizeof(float) * size_t(value_dim_));
  axpy_layer(v1, H, value2_w_.data(), value_dim_, values);
  for (int k = 0; k < value_dim_; ++k) values[k] = std::tanh(values[k]);

  // Rows: the global part once, then each row.
  float* rg = sc.row_glob.data();
  std::memcpy(rg, row_b_.data(), sizeof(float) * size_t(R));
  axpy_layer(g, G, row_glob_w_.data(), R, rg);
  for (int i = 0; i < rows; ++i) {
    const int32_t* f = features + size_t(i) * kActionFeatures;
    float* r = sc.row.data();
    embed(f, row_cat_, row_embed_.data(), row_num_, row_num_w_.data(), rg, R, r);
    const int32_t source = f[kFSource], target = f[kFTarget];
    if (source >= 0 && source < T) axpy_layer(h + size_t(source) * size_t(D), D, row_src_w_.data(), R, r);
    const bool player_target =
        std::find(player_target_kinds_.begin(), player_target_kinds_.end(), f[kFType]) != player_target_kinds_.end();
    if (!player_target && target >= 0 && target < T) {
      axpy_layer(h + size_t(target) * size_t(D), D, row_tgt_w_.data(), R, r);
    }
    relu(r, R);
    float* r2 = sc.row2.data();
    std::memcpy(r2, row2_b_.data(), sizeof(float) * size_t(R));
    axpy_layer(r, R, row2_w_.data(), R, r2);
    float logit = row_out_b_;
    for (int o = 0; o < R; ++o) logit += std::max(r2[o], 0.0f) * row_out_w_[size_t(o)];
    logits[i] = logit;
  }
}

void AzNet::forward_batch(int map_size, int N, int A, const int32_t* tokens, const int32_t* state,
                          const int32_t* features, const int32_t* counts, float* logits, float* values,
                          AzScratch& sc) const {
  const size_t T = size_t(map_size) * size_t(map_size);
  std::fill(logits, logits + size_t(N) * size_t(A), 0.0f);
  for (int i = 0; i < N; ++i) {
    forward(map_size, tokens + size_t(i) * T * kMapTokenFeatures, state + size_t(i) * kStateFeatures,
            features + size_t(i) * size_t(A) * kActionFeatures, counts[i], logits + size_t(i) * size_t(A),
            values + size_t(i) * size_t(value_dim_), sc);
  }
}

void check_row_counts(const int32_t* counts, int N, int A) {
  for (int i = 0; i < N; ++i) {
    if (counts[i] < 0 || counts[i] > A) throw InvalidArgument("legal_action_count must be in [0, A]");
  }
}

namespace {
std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::vector<std::shared_ptr<const AzNet>>& registry() {
  static std::vector<std::shared_ptr<const AzNet>> nets;
  return nets;
}
}  // namespace

int register_az_net(std::shared_ptr<const AzNet> net) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry().push_back(std::move(net));
  return int(registry().size()) - 1;
}

const AzNet* az_net(int index) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  if (index < 0 || size_t(index) >= registry().size()) return nullptr;
  return registry()[size_t(index)].get();
}

}  // namespace polyenv
