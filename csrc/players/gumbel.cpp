// gumbel.cpp — Gumbel root selection (gumbel.hpp): the sequential-halving schedule,
// completed Q, the improved policy, root and non-root selection.
#include "gumbel.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace polyenv {

namespace {

// mctx's floor for probabilities inside logarithms and weights (finfo(float32).tiny).
double floored(float prior) { return std::max(double(prior), double(FLT_MIN)); }

}  // namespace

// ---- schedule

void HalvingSchedule::reset(int considered, int budget) {
  m_ = considered;
  n_ = std::max(budget, 1);
  log2m_ = 0;
  while ((1 << log2m_) < m_) ++log2m_;  // ceil(log2(m))
  width_ = m_;
  level_ = 0;
  seq_.clear();
}

// One phase of the generator: max(1, n / (ceil(log2 m) * width)) rounds in which
// each of the `width` best actions gets one visit, then the width halves (>= 2).
void HalvingSchedule::extend() {
  const int rounds = std::max(1, n_ / (log2m_ * width_));
  for (int r = 0; r < rounds; ++r) {
    seq_.insert(seq_.end(), size_t(width_), level_);
    ++level_;
  }
  width_ = std::max(2, width_ / 2);
}

int32_t HalvingSchedule::at(int64_t s) {
  if (m_ <= 1) return int32_t(s);
  while (int64_t(seq_.size()) <= s) extend();
  return seq_[size_t(s)];
}

// ---- completed Q and the improved policy

int64_t gumbel_sigma(const SearchTree& t, int32_t node, bool with_in_flight, const GumbelConfig& cfg,
                     double* sigma) {
  const int32_t first = t.first_edge(node), n = t.num_edges(node);
  const double vl = with_in_flight ? t.config().virtual_loss : 0.0;
  int64_t total = 0;
  int32_t most = 0;
  double sum_p = 0, sum_pq = 0;
  for (int32_t j = 0; j < n; ++j) {
    const int32_t e = first + j;
    const int32_t inflight = with_in_flight ? t.edge_in_flight(e) : 0;
    const int32_t c = t.edge_visits(e) + inflight;
    if (c == 0) continue;
    const double q = (t.edge_value_sum(e) - vl * inflight) / c;
    const double p = floored(t.edge_prior(e));
    sigma[j] = q;
    sum_p += p;
    sum_pq += p * q;
    total += c;
    most = std::max(most, c);
  }
  const double weighted = sum_p > 0 ? sum_pq / sum_p : 0.0;
  const double mixed = (t.node_raw_value(node) + double(total) * weighted) / double(total + 1);
  double lo = INFINITY, hi = -INFINITY;
  for (int32_t j = 0; j < n; ++j) {
    const int32_t e = first + j;
    if (t.edge_visits(e) + (with_in_flight ? t.edge_in_flight(e) : 0) == 0) sigma[j] = mixed;
    lo = std::min(lo, sigma[j]);
    hi = std::max(hi, sigma[j]);
  }
  const double scale = (cfg.maxvisit_init + most) * cfg.value_scale;
  const double range = std::max(hi - lo, 1e-8);
  for (int32_t j = 0; j < n; ++j) sigma[j] = scale * ((sigma[j] - lo) / range);
  return total;
}

void gumbel_policy(const SearchTree& t, int32_t node, const double* sigma, double* policy) {
  const int32_t first = t.first_edge(node), n = t.num_edges(node);
  double top = -INFINITY;
  for (int32_t j = 0; j < n; ++j) top = std::max(top, sigma[j]);
  // Unvisited edges share one σ: one exponential for all of them.
  double last_sigma = NAN, last_exp = 0, sum = 0;
  for (int32_t j = 0; j < n; ++j) {
    if (!(sigma[j] == last_sigma)) {
      last_sigma = sigma[j];
      last_exp = std::exp(sigma[j] - top);
    }
    policy[j] = floored(t.edge_prior(first + j)) * last_exp;
    sum += policy[j];
  }
  for (int32_t j = 0; j < n; ++j) policy[j] /= sum;
}

// ---- GumbelSearch

void GumbelSearch::begin(uint64_t seed) {
  started_ = false;
  uint64_t x = seed ^ 0x6A09E667F3BCC909ull;
  rng_.seed(splitmix64(x), 0x6B3D);
}

void GumbelSearch::start(const SearchTree& t) {
  if (started_ || !t.expanded(0)) return;
  const int32_t first = t.first_edge(0), n = t.num_edges(0);
  m_ = std::min(cfg_.max_considered, n);
  schedule_.reset(m_, cfg_.num_simulations);
  gumbel_.resize(size_t(n));
  log_prior_.resize(size_t(n));
  base_.resize(size_t(n));
  for (int32_t j = 0; j < n; ++j) {
    const double u = (double(rng_.next()) + 0.5) * (1.0 / 4294967296.0);  // in (0, 1)
    gumbel_[size_t(j)] = float(cfg_.gumbel_scale * -std::log(-std::log(u)));
    log_prior_[size_t(j)] = std::log(floored(t.edge_prior(first + j)));
    base_[size_t(j)] = t.edge_visits(first + j);
  }
  started_ = true;
}

int32_t GumbelSearch::search_visits(const SearchTree& t, int32_t row) const {
  const int32_t visits = t.edge_visits(t.first_edge(0) + row);
  return started_ ? visits - base_[size_t(row)] : visits;
}

int32_t GumbelSearch::select_edge(const SearchTree& t, int32_t node) {
  return node == 0 ? select_root(t, true) : select_interior(t, node);
}

int32_t GumbelSearch::select_interior(const SearchTree& t, int32_t node) {
  const int32_t first = t.first_edge(node), n = t.num_edges(node);
  sigma_.resize(size_t(n));
  policy_.resize(size_t(n));
  const int64_t total = gumbel_sigma(t, node, true, cfg_, sigma_.data());
  gumbel_policy(t, node, sigma_.data(), policy_.data());
  int32_t best = 0;
  double best_score = -INFINITY;
  for (int32_t j = 0; j < n; ++j) {
    const int32_t c = t.edge_visits(first + j) + t.edge_in_flight(first + j);
    const double score = policy_[size_t(j)] - double(c) / double(1 + total);
    if (j == 0 || score > best_score) {
      best = j;
      best_score = score;
    }
  }
  return first + best;
}

// Sequential halving: among the actions whose visits of this search equal the
// schedule's count for the next simulation (selecting), or the most visited
// (the final choice), the best Gumbel + log-prior + σ.
int32_t GumbelSearch::select_root(const SearchTree& t, bool with_in_flight) {
  start(t);
  const int32_t first = t.first_edge(0), n = t.num_edges(0);
  if (n == 0) return -1;
  sigma_.resize(size_t(n));
  gumbel_sigma(t, 0, with_in_flight, cfg_, sigma_.data());
  int64_t s = 0;
  int32_t most = INT32_MIN;
  double top_log = -INFINITY;
  for (int32_t j = 0; j < n; ++j) {
    const int32_t h = search_visits(t, j) + (with_in_flight ? t.edge_in_flight(first + j) : 0);
    s += h;
    most = std::max(most, h);
    top_log = std::max(top_log, log_prior_[size_t(j)]);
  }
  int32_t k = most;
  if (with_in_flight) {
    k = schedule_.at(s);
    bool any = false;
    for (int32_t j = 0; j < n && !any; ++j) any = search_visits(t, j) + t.edge_in_flight(first + j) == k;
    if (!any) k = most;  // only after out-of-order cancellations
  }
  int32_t best = -1;
  double best_score = -INFINITY;
  for (int32_t j = 0; j < n; ++j) {
    const int32_t h = search_visits(t, j) + (with_in_flight ? t.edge_in_flight(first + j) : 0);
    if (h != k) continue;
    const double score =
        std::max(-1e9, double(gumbel_[size_t(j)]) + (log_prior_[size_t(j)] - top_log) + sigma_[size_t(j)]);
    if (best < 0 || score > best_score) {
      best = j;
      best_score = score;
    }
  }
  return first + best;
}

int32_t GumbelSearch::choose_root_edge(const SearchTree& t) {
  if (!t.expanded(0) || t.num_edges(0) == 0) return -1;
  return select_root(t, false);
}

void GumbelSearch::improved_policy(const SearchTree& t, int32_t node, double* policy) {
  sigma_.resize(size_t(t.num_edges(node)));
  gumbel_sigma(t, node, false, cfg_, sigma_.data());
  gumbel_policy(t, node, sigma_.data(), policy);
}

}  // namespace polyenv
