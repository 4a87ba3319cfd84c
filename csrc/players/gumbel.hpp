// gumbel.hpp — Gumbel root selection over a SearchTree (Danihelka et al., "Policy
// improvement by planning with Gumbel", ICLR 2022; the formulas of mctx's
// gumbel_muzero_policy), usable by any owner of a tree: the search pools, or a
// native bot with its own evaluator.
//
// Contract. A search with GumbelSearch g on SearchTree t:
//   t.reset(root, seed, cfg);  t.set_selector(&g);  g.begin(gumbel_seed);
//   loop: t.descend(path, transient) -> evaluate the leaf -> t.expand(...) (priors
//         final: set_edge_prior right after expand is fine) -> t.backup(path, values)
//   g.choose_root_edge(t)      the edge to play; g.improved_policy(t, 0, ...) the target.
// After t.advance(...) (subtree reuse) call g.begin(seed) again. g.start(t) draws
// the root's Gumbel noise; the first root selection calls it when the owner did
// not (the pools call it as soon as the root is expanded, so root_policy can
// report the draws). Everything runs on the tree's thread; results depend only on
// the tree's statistics and the seed.
//
// Statistics. At node n with edges j: counts c_j = N_j + VL_j and value sums
// W'_j = W_j - virtual_loss * VL_j while selecting (an in-flight path counts as a
// backed-up visit of value -virtual_loss, as in PUCT), c_j = N_j and W'_j = W_j for
// the outputs. Q_j = W'_j / c_j from n's actor's seat (two players: the sign flips
// where the actor changes; more players: Maxⁿ). p_j = max(prior_j, FLT_MIN).
//
// Completed Q (mctx qtransform_completed_by_mix_value, rescale on, mixed value on):
//   C = Σ c_j,  v_mix = (v̂ + C · Σ_{c_j>0} p_j Q_j / Σ_{c_j>0} p_j) / (C + 1)   (v̂: node_raw_value)
//   q_j = Q_j if c_j > 0 else v_mix;  r_j = (q_j - min q) / max(max q - min q, 1e-8)
//   σ_j = (maxvisit_init + max c) · value_scale · r_j
// Improved policy: π_j = p_j e^(σ_j - max σ) / Σ_k p_k e^(σ_k - max σ) = softmax(log p + σ).
// Non-root selection: argmax_j π_j - c_j / (1 + C) (first on ties).
// Root selection: m = min(max_considered, edges); s = Σ h_j, h_j = c_j - base_j (base: the
//   root's visits when the search began: 0, or the kept visits after advance());
//   k = considered_visits(m, num_simulations, s); among the edges with h_j = k (none:
//   those with the largest h_j) the first maximising
//     score_j = max(-1e9, g_j + ℓ_j - max ℓ + σ_j),  ℓ_j = log p_j,
//   g_j the root's Gumbel draws (gumbel_scale · Gumbel(0, 1), rounded to float).
// Final choice (choose_root_edge): the same score, without in-flight paths, among the
//   edges with the largest h_j. With fewer simulations than the budget this is the
//   search stopped early; with more, sequential halving goes on between the last two.
#pragma once
#include <cstdint>
#include <vector>

#include "../engine/rng.hpp"
#include "tree.hpp"

namespace polyenv {

struct GumbelConfig {
  int num_simulations = 0;  // the budget n of one search (>= 1)
  int max_considered = 16;  // m: actions sampled without replacement at the root (>= 1)
  double gumbel_scale = 1.0;  // 0: no noise (the prior's top-m, deterministic)
  double value_scale = 0.1;
  double maxvisit_init = 50.0;
};

// mctx's get_sequence_of_considered_visits(m, n), continued past n: the visit count
// that simulation s (0-based) of a search gives an action. m <= 1: s itself.
// Beyond n the generator goes on halving (at least two actions) with n's phase lengths.
class HalvingSchedule {
 public:
  void reset(int considered, int budget);
  int32_t at(int64_t s);

 private:
  void extend();
  int m_ = 0, n_ = 1, log2m_ = 0, width_ = 0;  // width_: actions of the next phase
  int32_t level_ = 0;                          // visits of the considered actions so far
  std::vector<int32_t> seq_;
};

// σ_j (completed, rescaled, scaled Q) of node's edges into sigma[0, edges); returns C.
int64_t gumbel_sigma(const SearchTree& t, int32_t node, bool with_in_flight, const GumbelConfig& cfg,
                     double* sigma);
// π_j of node's edges (σ from gumbel_sigma) into policy[0, edges).
void gumbel_policy(const SearchTree& t, int32_t node, const double* sigma, double* policy);

class GumbelSearch final : public EdgeSelector {
 public:
  void configure(const GumbelConfig& cfg) { cfg_ = cfg; }
  const GumbelConfig& config() const { return cfg_; }
  // A new search: forgets the root's draws; the next draws come from `seed`.
  void begin(uint64_t seed);
  // The root is expanded (priors final): draws its Gumbel noise, fixes m and the
  // schedule, records the root's visits as the base. Does nothing if already started.
  void start(const SearchTree& t);
  bool started() const { return started_; }
  int32_t select_edge(const SearchTree& t, int32_t node) override;
  // The root edge the search plays (absolute edge index), -1 when the root is unexpanded or has no edges.
  int32_t choose_root_edge(const SearchTree& t);
  // The improved policy over node's edges (outputs: no in-flight paths) into policy[0, edges).
  void improved_policy(const SearchTree& t, int32_t node, double* policy);
  // The root's draw of row j (0 before start()).
  float root_gumbel(int32_t row) const { return started_ ? gumbel_[size_t(row)] : 0.0f; }
  int32_t considered() const { return started_ ? m_ : 0; }
  // The root's visits of this search per row (h_j), in-flight paths not counted.
  int32_t search_visits(const SearchTree& t, int32_t row) const;

 private:
  int32_t select_root(const SearchTree& t, bool with_in_flight);
  int32_t select_interior(const SearchTree& t, int32_t node);

  GumbelConfig cfg_;
  Rng rng_;
  bool started_ = false;
  int32_t m_ = 0;
  HalvingSchedule schedule_;
  std::vector<float> gumbel_;    // per root row
  std::vector<double> log_prior_;  // per root row: ℓ_j
  std::vector<int32_t> base_;    // per root row
  std::vector<double> sigma_, policy_;  // scratch, per edge of one node
};

}  // namespace polyenv
