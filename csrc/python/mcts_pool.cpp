// polyenv._core.MctsPool: the native half of polyenv.MctsPool. Every argument
// and output buffer is checked here with the GIL held (the pool re-checks ids
// and values before changing anything), then the native call runs with the GIL
// released.
#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>

#include "../search/mcts_pool.hpp"
#include "array_args.hpp"
#include "bindings.hpp"
#include "config_args.hpp"
#include "pool_outputs.hpp"
#include "root_selection_args.hpp"

namespace polyenv::python {

namespace {

// A C-contiguous float32 array of exactly `shape` (the model's output).
py::array float_matrix(const py::handle& obj, const char* name, std::vector<int64_t> shape) {
  std::string want = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) want += ", ";
    want += std::to_string(shape[i]);
  }
  want += shape.size() == 1 ? ",)" : ")";
  if (!py::isinstance<py::array>(obj)) {
    throw InvalidArgument(std::string(name) + " must be a float32 NumPy array of shape " + want + ", got " +
                          type_name(obj));
  }
  auto a = py::reinterpret_borrow<py::array>(obj);
  const py::dtype dt = a.dtype();
  if (dt.kind() != 'f' || dt.itemsize() != 4 || !native_byte_order(dt.byteorder())) {
    throw InvalidArgument(std::string(name) + " must have dtype float32, got " +
                          dtype_text(dt.kind(), int(dt.itemsize()), native_byte_order(dt.byteorder())));
  }
  bool same = a.ndim() == py::ssize_t(shape.size());
  for (size_t i = 0; same && i < shape.size(); ++i) same = a.shape(py::ssize_t(i)) == shape[i];
  if (!same) {
    std::string got = "(";
    for (py::ssize_t i = 0; i < a.ndim(); ++i) got += (i ? ", " : "") + std::to_string(a.shape(i));
    got += a.ndim() == 1 ? ",)" : ")";
    throw InvalidArgument(std::string(name) + " must have shape " + want + ", got " + got);
  }
  if (!(a.flags() & py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_)) {
    throw InvalidArgument(std::string(name) + " must be C-contiguous");
  }
  if (!(a.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_)) throw InvalidArgument(std::string(name) + " is not aligned");
  return a;
}

std::vector<uint64_t> leaf_id_list(const py::handle& obj) {
  py::array a = input_vector(obj, "leaf_ids", 'u', 8, 8, "uint64", -1);
  const Strided<uint64_t> s = strided<uint64_t>(a);
  std::vector<uint64_t> ids(size_t(s.size));
  for (int i = 0; i < s.size; ++i) ids[size_t(i)] = s[i];
  return ids;
}

// Tests: tree env's statistics (a root policy call cannot show the nodes below the root).
py::dict tree_arrays(MctsPool& p, int env) {
  std::lock_guard<std::recursive_mutex> lock(p.lock());
  const TreeSize size = p.tree_size(env);
  const py::ssize_t N = size.nodes, E = py::ssize_t(size.edges);
  auto parent = new_array<int32_t>({N}), first = new_array<int32_t>({N}), edges = new_array<int32_t>({N});
  auto visits = new_array<int32_t>({N}), actor = new_array<int32_t>({N});
  auto expanded = new_array<uint8_t>({N});
  auto value = new_array<double>({N}), raw = new_array<double>({N});
  auto action = new_array<int32_t>({E}), child = new_array<int32_t>({E}), evisits = new_array<int32_t>({E});
  auto prior = new_array<float>({E});
  auto evalue = new_array<double>({E});
  {
    py::gil_scoped_release release;
    p.write_tree(env, TreeArraysOut{parent.mutable_data(), first.mutable_data(), edges.mutable_data(),
                                    visits.mutable_data(), actor.mutable_data(), expanded.mutable_data(),
                                    value.mutable_data(), raw.mutable_data(), action.mutable_data(),
                                    child.mutable_data(), evisits.mutable_data(), prior.mutable_data(),
                                    evalue.mutable_data()});
  }
  py::dict d;
  d["parent"] = parent;
  d["first_edge"] = first;
  d["num_edges"] = edges;
  d["visits"] = visits;
  d["actor"] = actor;
  d["expanded"] = expanded;
  d["value_sum"] = value;
  d["raw_value"] = raw;
  d["edge_action"] = action;
  d["edge_child"] = child;
  d["edge_visits"] = evisits;
  d["edge_prior"] = prior;
  d["edge_value_sum"] = evalue;
  d["bytes"] = size.bytes;
  return d;
}

// Every tree's statistics, one entry per tree.
py::dict search_stats(MctsPool& p) {
  const py::ssize_t B = p.num_envs();
  auto nodes = new_array<int64_t>({B}), bytes = new_array<int64_t>({B}), kept = new_array<int64_t>({B});
  auto pending = new_array<int32_t>({B});
  auto node_hit = new_array<uint8_t>({B}), byte_hit = new_array<uint8_t>({B});
  auto reuse = new_array<int8_t>({B});
  {
    py::gil_scoped_release release;
    p.search_stats(TreeStatsOut{nodes.mutable_data(), bytes.mutable_data(), pending.mutable_data(),
                                node_hit.mutable_data(), byte_hit.mutable_data(), kept.mutable_data(),
                                reuse.mutable_data()});
  }
  py::dict d;
  d["nodes"] = nodes;
  d["bytes"] = bytes;
  d["pending_leaves"] = pending;
  d["node_budget_exhausted"] = node_hit;
  d["byte_budget_exhausted"] = byte_hit;
  d["kept_nodes"] = kept;
  d["reuse"] = reuse;
  return d;
}

}  // namespace

void init_mcts_pool(py::module_& m) {
  py::register_exception<StaleLeaf>(m, "StaleLeafError", PyExc_RuntimeError);
  py::register_exception<PendingLeaves>(m, "PendingLeavesError", PyExc_RuntimeError);
  py::register_exception<ActionOverflow>(m, "ActionOverflowError", PyExc_RuntimeError);

  py::class_<MctsPool>(m, "MctsPool", "Native batched PUCT or Gumbel search pool (use polyenv.MctsPool)")
      .def(py::init([](int num_envs, uint64_t seed, int map_size, std::vector<int8_t> tribes, int mode, int max_turns,
                       bool full_obs, int num_threads, int max_actions, bool require_all, bool auto_reset,
                       double c_puct, int max_pending, double virtual_loss, int64_t max_nodes, int64_t max_bytes,
                       double dirichlet_alpha, double dirichlet_fraction, const std::vector<std::string>& levels,
                       bool reuse_tree, const std::string& root_selection, int num_simulations, int max_considered,
                       double gumbel_scale, double value_scale, double maxvisit_init, bool combat_preview) {
             MctsPoolConfig cfg = mcts_pool_config(num_envs, seed, map_size, std::move(tribes), mode, max_turns,
                                                   full_obs, num_threads, max_actions, require_all, auto_reset,
                                                   c_puct, max_pending, virtual_loss, max_nodes, max_bytes);
             set_root_selection(cfg, root_selection, num_simulations, max_considered, gumbel_scale, value_scale,
                                maxvisit_init);
             cfg.reuse_tree = reuse_tree;
             cfg.combat_preview = combat_preview;
             cfg.search.dirichlet_alpha = dirichlet_alpha;
             cfg.search.dirichlet_fraction = dirichlet_fraction;
             cfg.levels = parse_levels(levels);
             py::gil_scoped_release release;
             return std::make_unique<MctsPool>(cfg);
           }),
           POLYENV_MCTS_POOL_ARGS, py::arg("dirichlet_alpha"), py::arg("dirichlet_fraction"),
           py::arg("levels") = std::vector<std::string>{}, py::arg("reuse_tree") = false, POLYENV_ROOT_SELECTION_ARGS,
           py::arg("combat_preview") = false)
      .def("batch_spec", [](const MctsPool& p) { return spec_dict(live_specs(p.num_envs(), p.dims())); })
      .def("leaf_batch_spec", [](const MctsPool& p, int capacity) {
        if (capacity < 0) throw InvalidArgument("max_leaves must be >= 0, got " + std::to_string(capacity));
        return spec_dict(leaf_specs(capacity, p.dims()));
      }, py::arg("max_leaves"))
      .def("root_policy_spec", [](const MctsPool& p) { return spec_dict(root_specs(p.num_envs(), p.dims())); })
      .def("reset", [](MctsPool& p, std::optional<uint64_t> seed, const py::object& buffers) {
        return write_outputs(live_specs(p.num_envs(), p.dims()), buffers, [&](const FieldView& view) { p.reset(seed ? &*seed : nullptr, view); });
      }, py::arg("seed"), py::arg("buffers"))
      .def("step", [](MctsPool& p, const py::object& actions, const py::object& state_ids, const py::object& buffers) {
        py::array acts = input_vector(actions, "action_ids", 'i', 4, 4, "int32", p.num_envs());
        std::optional<py::array> sids;
        if (!state_ids.is_none()) sids = input_vector(state_ids, "state_ids", 'u', 8, 8, "uint64", p.num_envs());
        const Strided<uint64_t> sid_span = sids ? strided<uint64_t>(*sids) : Strided<uint64_t>{};
        return write_outputs(live_specs(p.num_envs(), p.dims()), buffers, [&](const FieldView& view) {
          p.step(strided<int32_t>(acts), sids ? &sid_span : nullptr, view);
        });
      }, py::arg("action_ids"), py::arg("state_ids"), py::arg("buffers"))
      .def("select_leaves", [](MctsPool& p, int capacity, const py::object& buffers) {
        if (capacity < 0) throw InvalidArgument("max_leaves must be >= 0, got " + std::to_string(capacity));
        auto [count, arrays] =
            write_outputs(leaf_specs(capacity, p.dims()), buffers, [&](const FieldView& view) { return p.select_leaves(capacity, view); });
        return py::make_tuple(count, arrays);
      }, py::arg("max_leaves"), py::arg("buffers"))
      .def("expand_and_backup", [](MctsPool& p, const py::object& leaf_ids, const py::object& logits,
                                   const py::object& values) {
        const std::vector<uint64_t> ids = leaf_id_list(leaf_ids);
        const int64_t L = int64_t(ids.size());
        py::array lg = float_matrix(logits, "policy_logits", {L, p.max_actions()});
        py::array vs = p.num_players() == 2 ? float_matrix(values, "values", {L})
                                            : float_matrix(values, "values", {L, p.num_players()});
        const float* lp = static_cast<const float*>(lg.data());
        const float* vp = static_cast<const float*>(vs.data());
        py::gil_scoped_release release;
        p.expand_and_backup(ids.data(), int(L), lp, vp);
      }, py::arg("leaf_ids"), py::arg("policy_logits"), py::arg("values"))
      .def("cancel_leaves", [](MctsPool& p, const py::object& leaf_ids) {
        const std::vector<uint64_t> ids = leaf_id_list(leaf_ids);
        py::gil_scoped_release release;
        p.cancel_leaves(ids.data(), int(ids.size()));
      }, py::arg("leaf_ids"))
      .def("abort_search", [](MctsPool& p) {
        py::gil_scoped_release release;
        p.abort_search();
      })
      .def("root_policy", [](MctsPool& p, double temperature, const py::object& buffers) {
        return write_outputs(root_specs(p.num_envs(), p.dims()), buffers, [&](const FieldView& view) { p.root_policy(temperature, view); });
      }, py::arg("temperature"), py::arg("buffers"))
      .def("search_stats", &search_stats)
      .def("_timing", &MctsPool::timing, "Cumulative worker ns in selection, leaf encoding, expansion + backup")
      .def("_leaf_actions", &MctsPool::leaf_actions, py::arg("leaf_id"))
      .def("_tree", [](MctsPool& p, int env) { return tree_arrays(p, env); }, py::arg("env"),
           "Tests: every node and edge statistic of tree env as NumPy arrays")
      .def("_load_state", [](MctsPool& p, int env, const py::bytes& data) {
        GameState s;
        deserialize(s, std::string(data));
        py::gil_scoped_release release;
        p.load_live_state(env, s);
      }, py::arg("env"), py::arg("data"), "Tests: replace a live game by a serialized state (fresh tree)")
      .def("_state_digest", [](MctsPool& p) {
        py::gil_scoped_release release;
        return p.state_digest();
      })
      .def("close", [](MctsPool& p) {
        py::gil_scoped_release release;
        p.close();
      })
      .def_property_readonly("closed", &MctsPool::closed)
      .def_property_readonly("num_envs", &MctsPool::num_envs)
      .def_property_readonly("num_threads", &MctsPool::num_threads)
      .def_property_readonly("num_players", &MctsPool::num_players)
      .def_property_readonly("max_actions", &MctsPool::max_actions)
      .def_property_readonly("action_space_size", &MctsPool::action_space_size)
      .def_property_readonly("max_pending_leaves", [](const MctsPool& p) { return p.config().max_pending_leaves; })
      .def_property_readonly("map_size", [](const MctsPool& p) { return p.config().game.map_size; });
}

}  // namespace polyenv::python
