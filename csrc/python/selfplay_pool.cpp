// polyenv._core.SelfPlayPool: the native half of polyenv.SelfPlayPool. It
// derives from _core.MctsPool (expand_and_backup, cancel_leaves, abort_search,
// root_policy, search_stats and the properties are inherited) and redefines
// the batches that carry the history fields plus the belief calls. Arguments
// are checked with the GIL held; native work runs with it released.
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "../encode/history_rows.hpp"
#include "../search/selfplay_pool.hpp"
#include "array_args.hpp"
#include "bindings.hpp"
#include "config_args.hpp"
#include "pool_outputs.hpp"
#include "root_selection_args.hpp"

namespace polyenv::python {

namespace {

std::string shape_text(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) s += (i ? ", " : "") + std::to_string(a.shape(i));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

// The completed map tokens: int32, C-contiguous, [B, T, 23], [B, P, T, 23] or [B, P, K, T, 23].
py::array belief_tokens(const SelfPlayPool& p, const py::handle& obj, SelfPlayPool::Layout& layout, int& particles) {
  const int64_t B = p.num_envs(), P = p.num_players(), T = p.dims().tiles, F = kMapTokenFeatures;
  const std::string want = "(" + std::to_string(B) + ", " + std::to_string(T) + ", 23), (" + std::to_string(B) +
                           ", " + std::to_string(P) + ", " + std::to_string(T) + ", 23) or (" + std::to_string(B) +
                           ", " + std::to_string(P) + ", K, " + std::to_string(T) + ", 23)";
  if (!py::isinstance<py::array>(obj)) {
    throw InvalidArgument("beliefs must be an int32 NumPy array of shape " + want + ", got " + type_name(obj));
  }
  auto a = py::reinterpret_borrow<py::array>(obj);
  const py::dtype dt = a.dtype();
  if (dt.kind() != 'i' || dt.itemsize() != 4 || !native_byte_order(dt.byteorder())) {
    throw InvalidArgument("beliefs must have dtype int32, got " +
                          dtype_text(dt.kind(), int(dt.itemsize()), native_byte_order(dt.byteorder())));
  }
  auto dim = [&](int i) { return int64_t(a.shape(py::ssize_t(i))); };
  bool ok = false;
  particles = 1;
  if (a.ndim() == 3) {
    layout = SelfPlayPool::Layout::kRoot;
    ok = dim(0) == B && dim(1) == T && dim(2) == F;
  } else if (a.ndim() == 4) {
    layout = SelfPlayPool::Layout::kPerPlayer;
    ok = dim(0) == B && dim(1) == P && dim(2) == T && dim(3) == F;
  } else if (a.ndim() == 5) {
    layout = SelfPlayPool::Layout::kParticles;
    ok = dim(0) == B && dim(1) == P && dim(2) >= 1 && dim(2) <= 1024 && dim(3) == T && dim(4) == F;
    particles = int(dim(2));
  }
  if (!ok) throw InvalidArgument("beliefs must have shape " + want + " (1 <= K <= 1024), got " + shape_text(a));
  if (!(a.flags() & py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_)) throw InvalidArgument("beliefs must be C-contiguous");
  if (!(a.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_)) throw InvalidArgument("beliefs is not aligned");
  return a;
}

}  // namespace

void init_selfplay_pool(py::module_& m) {
  py::register_exception<BeliefsMissing>(m, "BeliefsMissingError", PyExc_RuntimeError);
  py::tuple history_names(kHistoryFeatures);
  for (int i = 0; i < kHistoryFeatures; ++i) history_names[size_t(i)] = kHistoryFeatureNames[size_t(i)];
  m.attr("VISIBLE_ACTION_HISTORY_FEATURE_NAMES") = history_names;
  m.attr("MAX_VISIBLE_ACTION_HISTORY") = kMaxHistory;

  py::class_<SelfPlayPool, MctsPool>(m, "SelfPlayPool", "Native belief-rooted MCTS self-play pool (use polyenv.SelfPlayPool)")
      .def(py::init([](int num_envs, uint64_t seed, int map_size, std::vector<int8_t> tribes, int mode, int max_turns,
                       bool full_obs, int num_threads, int max_actions, bool require_all, bool auto_reset,
                       double c_puct, int max_pending, double virtual_loss, int64_t max_nodes, int64_t max_bytes,
                       int history, const std::vector<std::string>& levels, const std::string& root_selection,
                       int num_simulations, int max_considered, double gumbel_scale, double value_scale,
                       double maxvisit_init, bool combat_preview) {
             MctsPoolConfig cfg = mcts_pool_config(num_envs, seed, map_size, std::move(tribes), mode, max_turns,
                                                   full_obs, num_threads, max_actions, require_all, auto_reset,
                                                   c_puct, max_pending, virtual_loss, max_nodes, max_bytes);
             set_root_selection(cfg, root_selection, num_simulations, max_considered, gumbel_scale, value_scale,
                                maxvisit_init);
             cfg.levels = parse_levels(levels);
             cfg.combat_preview = combat_preview;
             py::gil_scoped_release release;
             return std::make_unique<SelfPlayPool>(cfg, history);
           }),
           POLYENV_MCTS_POOL_ARGS, py::arg("history"), py::arg("levels") = std::vector<std::string>{},
           POLYENV_ROOT_SELECTION_ARGS, py::arg("combat_preview") = false)
      .def("batch_spec", [](const SelfPlayPool& p) { return spec_dict(p.belief_specs()); })
      .def("all_player_batch_spec", [](const SelfPlayPool& p) { return spec_dict(p.all_player_specs()); })
      .def("leaf_batch_spec", [](const SelfPlayPool& p, int capacity) {
        if (capacity < 0) throw InvalidArgument("max_leaves must be >= 0, got " + std::to_string(capacity));
        return spec_dict(p.leaf_specs_with_history(capacity));
      }, py::arg("max_leaves"))
      .def("reset", [](SelfPlayPool& p, std::optional<uint64_t> seed, const py::object& buffers) {
        return write_outputs(p.belief_specs(), buffers, [&](const FieldView& view) { p.reset(seed ? &*seed : nullptr, view); });
      }, py::arg("seed"), py::arg("buffers"))
      .def("step", [](SelfPlayPool& p, const py::object& actions, const py::object& state_ids, const py::object& buffers) {
        py::array acts = input_vector(actions, "action_ids", 'i', 4, 4, "int32", p.num_envs());
        std::optional<py::array> sids;
        if (!state_ids.is_none()) sids = input_vector(state_ids, "state_ids", 'u', 8, 8, "uint64", p.num_envs());
        const Strided<uint64_t> sid_span = sids ? strided<uint64_t>(*sids) : Strided<uint64_t>{};
        return write_outputs(p.belief_specs(), buffers, [&](const FieldView& view) {
          p.step(strided<int32_t>(acts), sids ? &sid_span : nullptr, view);
        });
      }, py::arg("action_ids"), py::arg("state_ids"), py::arg("buffers"))
      .def("belief_requests", [](SelfPlayPool& p, const py::object& buffers) {
        return write_outputs(p.belief_specs(), buffers, [&](const FieldView& view) { p.belief_requests(view); });
      }, py::arg("buffers"))
      .def("all_player_belief_requests", [](SelfPlayPool& p, const py::object& buffers) {
        return write_outputs(p.all_player_specs(), buffers, [&](const FieldView& view) { p.all_player_belief_requests(view); });
      }, py::arg("buffers"))
      .def("submit_beliefs", [](SelfPlayPool& p, const py::object& state_ids, const py::object& beliefs) {
        py::array sids = input_vector(state_ids, "state_ids", 'u', 8, 8, "uint64", p.num_envs());
        SelfPlayPool::Layout layout;
        int particles = 1;
        py::array tokens = belief_tokens(p, beliefs, layout, particles);
        std::vector<uint64_t> ids(size_t(p.num_envs()));
        const Strided<uint64_t> s = strided<uint64_t>(sids);
        for (int i = 0; i < s.size; ++i) ids[size_t(i)] = s[i];
        const int32_t* data = static_cast<const int32_t*>(tokens.data());
        py::gil_scoped_release release;
        p.submit_beliefs(ids.data(), data, layout, particles);
      }, py::arg("state_ids"), py::arg("beliefs"))
      .def("fit_beliefs", [](SelfPlayPool& p, const py::object& state_ids, const py::object& beliefs) {
        py::array sids = input_vector(state_ids, "state_ids", 'u', 8, 8, "uint64", p.num_envs());
        SelfPlayPool::Layout layout;
        int particles = 1;
        py::array tokens = belief_tokens(p, beliefs, layout, particles);
        if (!tokens.writeable()) throw InvalidArgument("beliefs must be writable (fit_beliefs changes it in place)");
        std::vector<uint64_t> ids(size_t(p.num_envs()));
        const Strided<uint64_t> s = strided<uint64_t>(sids);
        for (int i = 0; i < s.size; ++i) ids[size_t(i)] = s[i];
        int32_t* data = static_cast<int32_t*>(tokens.mutable_data());
        py::gil_scoped_release release;
        return p.fit_beliefs(ids.data(), data, layout, particles);
      }, py::arg("state_ids"), py::arg("beliefs"),
         "Fits the actor's particles in place to its live legal list; returns how many still differ")
      .def("select_leaves", [](SelfPlayPool& p, int capacity, const py::object& buffers) {
        if (capacity < 0) throw InvalidArgument("max_leaves must be >= 0, got " + std::to_string(capacity));
        auto [count, arrays] =
            write_outputs(p.leaf_specs_with_history(capacity), buffers, [&](const FieldView& view) { return p.select_leaves(capacity, view); });
        return py::make_tuple(count, arrays);
      }, py::arg("max_leaves"), py::arg("buffers"))
      .def("_load_state", [](SelfPlayPool& p, int env, const py::bytes& data, std::optional<uint64_t> rng_seed) {
        GameState s;
        deserialize(s, std::string(data));
        if (rng_seed) {
          uint64_t x = *rng_seed;
          s.rng.seed(splitmix64(x), splitmix64(x));
        }
        py::gil_scoped_release release;
        p.load_live_state(env, s);
      }, py::arg("env"), py::arg("data"), py::arg("rng_seed") = py::none(),
         "Tests: replace a live game by a serialized state (optionally reseeding its random stream)")
      .def("_belief_digest", [](SelfPlayPool& p) {
        py::gil_scoped_release release;
        return p.belief_digest();
      })
      .def("_history_memory", [](SelfPlayPool& p) {
        const SelfPlayPool::HistoryMemory m = p.history_memory();
        py::dict d;
        d["live_entries"] = m.live_entries;
        d["tree_entries"] = m.tree_entries;
        d["tree_nodes"] = m.tree_nodes;
        d["bytes"] = m.bytes;
        return d;
      }, "Tests and benchmarks: entries, tree nodes and bytes held by the visible-action history store")
      .def("_redeterminize_stats", [](SelfPlayPool& p) {
        RedeterminizeStats s;
        {
          py::gil_scoped_release release;
          s = p.redeterminize_stats();
        }
        return py::make_tuple(s.rebuilt, s.fallbacks, s.skipped_actions);
      }, "Tests: (rebuilt, fallbacks, skipped_actions) re-determinization counters since the last submission")
      .def("_set_redeterminize", [](SelfPlayPool& p, bool on) {
        std::lock_guard<std::recursive_mutex> guard(p.lock());
        p.set_redeterminize(on);
      }, py::arg("on"), "Benchmarks: False keeps the trees of later submissions in the actor's belief world")
      .def_property_readonly("visible_action_history", &SelfPlayPool::history);
}

}  // namespace polyenv::python
