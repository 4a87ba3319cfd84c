// polyenv._core.VectorEnv: the native half of polyenv.VectorGameEnv. Python
// (polyenv/vector_env.py) converts names to codes and the lenient inputs of the
// allocating calls to exact dtypes; here every argument and buffer is checked
// with the GIL held, then the whole native call runs with the GIL released.
#include <pybind11/stl.h>

#include <bit>
#include <cmath>
#include <optional>
#include <string>

#include "../vector/vector_env.hpp"
#include "array_args.hpp"
#include "bindings.hpp"
#include "config_args.hpp"

namespace polyenv::python {

namespace {

// The batch field names as interned Python strings, made once: a call looks
// every field up by name, and a fresh str per lookup (plus its hash) costs more
// than the lookup itself. Never freed (they live as long as the module).
const std::array<PyObject*, kNumBatchFields>& field_keys() {
  static const std::array<PyObject*, kNumBatchFields> keys = [] {
    std::array<PyObject*, kNumBatchFields> k{};
    for (int f = 0; f < kNumBatchFields; ++f) {
      k[size_t(f)] = PyUnicode_InternFromString(kBatchFieldNames[size_t(f)]);
      if (!k[size_t(f)]) throw py::error_already_set();
    }
    return k;
  }();
  return keys;
}

// Output buffers of one call: either freshly allocated or the caller's,
// validated; `keep` holds references while the GIL is released (py::object,
// not py::array: a default py::array is a new empty NumPy array).
struct Outputs {
  BatchView view;
  std::array<py::object, kNumBatchFields> keep;
  int fields = 0;

  void allocate(const BatchDims& dims) {
    fields = dims.num_fields();
    for (int f = 0; f < fields; ++f) {
      const FieldSpec spec = field_spec(dims, f);
      std::vector<py::ssize_t> shape(spec.shape.begin(), spec.shape.begin() + spec.ndim);
      py::array a(py::dtype(kDTypeNames[size_t(spec.dtype)]), shape);
      view.data[size_t(f)] = a.mutable_data();
      keep[size_t(f)] = std::move(a);
    }
  }

  void use(const BatchDims& dims, const py::handle& obj) {
    if (!py::isinstance<py::dict>(obj)) throw InvalidArgument("buffers must be a dict of NumPy arrays, got " + type_name(obj));
    auto buffers = py::reinterpret_borrow<py::dict>(obj);
    fields = dims.num_fields();
    std::array<BufferInfo, kNumBatchFields> info{};
    for (int f = 0; f < fields; ++f) {
      const char* name = kBatchFieldNames[size_t(f)];
      PyObject* found = PyDict_GetItemWithError(buffers.ptr(), field_keys()[size_t(f)]);  // borrowed
      if (!found) {
        if (PyErr_Occurred()) throw py::error_already_set();
        throw InvalidArgument(std::string("buffers is missing '") + name + "'");
      }
      py::handle item(found);
      if (!py::isinstance<py::array>(item)) {
        throw InvalidArgument(std::string("buffer '") + name + "' must be a NumPy array, got " + type_name(item));
      }
      auto a = py::reinterpret_borrow<py::array>(item);
      info[size_t(f)] = buffer_info(a);
      view.data[size_t(f)] = info[size_t(f)].data;
      keep[size_t(f)] = std::move(a);
    }
    if (py::ssize_t(buffers.size()) != fields) {
      for (auto item : buffers) {
        const std::string key = py::str(item.first);
        bool known = false;
        for (int f = 0; f < fields; ++f) known = known || key == kBatchFieldNames[size_t(f)];
        if (!known) throw InvalidArgument("unexpected buffer '" + key + "' (not a field of batch_spec())");
      }
    }
    validate_buffers(dims, info.data());
  }

  py::dict to_dict() const {
    py::dict d;
    for (int f = 0; f < fields; ++f) d[kBatchFieldNames[size_t(f)]] = keep[size_t(f)];
    return d;
  }
};

// Allocates (buffers None) or validates the caller's buffers for `rows` rows;
// `known`: the caller's arrays are the same live objects this env wrote last and
// the caller promised (buffers_untouched=True) that nothing wrote into them since.
Outputs outputs_for(const VectorEnv& env, int rows, const py::object& buffers, bool known) {
  Outputs out;
  if (buffers.is_none()) out.allocate(env.dims(rows));
  else out.use(env.dims(rows), buffers);
  out.view.origin = buffers.is_none() ? BufferOrigin::kAllocated
                    : known           ? BufferOrigin::kCallerKnown
                                      : BufferOrigin::kCallerNew;
  return out;
}

py::object result(const Outputs& out, const py::object& buffers) {
  return buffers.is_none() ? py::object(out.to_dict()) : py::object(py::none());
}

// A call that writes the rows of env_ids (observe, reset_slots) with the GIL released.
py::object slot_rows_call(VectorEnv& env, void (VectorEnv::*call)(IndexSpan, const BatchView&),
                          const py::object& env_ids, const py::object& buffers, bool known) {
  py::array ids = input_vector(env_ids, "env_ids", 'i', 4, 8, "int32 or int64", -1);
  Outputs out = outputs_for(env, int(ids.shape(0)), buffers, known);
  const IndexSpan id_span = index_span(ids);  // reads the dtype (a Python object): needs the GIL
  {
    py::gil_scoped_release release;
    (env.*call)(id_span, out.view);
  }
  return result(out, buffers);
}

uint32_t seat_mask(const std::vector<int>& seats, int players) {
  uint32_t mask = 0;
  for (int s : seats) {
    if (s < 0 || s >= players) {
      throw InvalidArgument("learner seat " + std::to_string(s) + " is outside [0, " + std::to_string(players) + ")");
    }
    if ((mask >> s) & 1u) throw InvalidArgument("learner seat " + std::to_string(s) + " appears twice");
    mask |= 1u << s;
  }
  return mask;
}

}  // namespace

void init_vector(py::module_& m) {
  py::register_exception<StaleState>(m, "StaleStateError", PyExc_RuntimeError);

  py::class_<VectorEnv>(m, "VectorEnv", "Native vector of games (use polyenv.VectorGameEnv)")
      .def(py::init([](int num_envs, uint64_t seed, int map_size, std::vector<int8_t> tribes, int mode,
                       int max_turns, bool full_obs, int num_threads, int max_actions, bool auto_reset, int history,
                       bool combat_preview, bool keep_terminal, int opponent, std::vector<int> learner_seats,
                       double score_reward_scale, int opponent_simulations, int opponent_model,
                       const std::vector<std::string>& levels) {
             VectorConfig cfg;
             cfg.num_envs = num_envs;
             cfg.seed = seed;
             cfg.game = game_config(map_size, std::move(tribes), mode, max_turns, full_obs);
             cfg.levels = parse_levels(levels);
             cfg.num_threads = num_threads;
             cfg.max_actions = max_actions;
             cfg.auto_reset = auto_reset;
             cfg.history = history;
             cfg.combat_preview = combat_preview;
             cfg.keep_terminal_observation = keep_terminal;
             cfg.opponent = opponent;
             cfg.learner_seats = seat_mask(learner_seats, episode_players(cfg.game, cfg.levels));
             if (!(score_reward_scale >= 0) || std::isinf(score_reward_scale)) {
               throw InvalidArgument("score_reward_scale must be finite and >= 0");
             }
             cfg.score_reward_scale = score_reward_scale;
             cfg.opponent_simulations = opponent_simulations;
             cfg.opponent_model = opponent_model;
             py::gil_scoped_release release;
             return std::make_unique<VectorEnv>(cfg);
           }),
           py::arg("num_envs"), py::arg("seed"), POLYENV_GAME_ARGS, py::arg("num_threads"), py::arg("max_actions"),
           py::arg("auto_reset"), py::arg("history"), py::arg("combat_preview"), py::arg("keep_terminal"),
           py::arg("opponent"), py::arg("learner_seats"), py::arg("score_reward_scale") = 0.0,
           py::arg("opponent_simulations") = kDefaultMctsSimulations, py::arg("opponent_model") = -1,
           py::arg("levels") = std::vector<std::string>{})
      .def("spec", [](const VectorEnv& env, int rows) {
        if (rows < 0) throw InvalidArgument("rows must be >= 0, got " + std::to_string(rows));
        const BatchDims dims = env.dims(rows);
        py::list out;
        for (int f = 0; f < dims.num_fields(); ++f) {
          const FieldSpec spec = field_spec(dims, f);
          py::tuple shape(spec.ndim);
          for (int i = 0; i < spec.ndim; ++i) shape[size_t(i)] = spec.shape[size_t(i)];
          out.append(py::make_tuple(spec.name, shape, kDTypeNames[size_t(spec.dtype)]));
        }
        return out;
      }, py::arg("rows"))
      .def("reset", [](VectorEnv& env, std::optional<uint64_t> seed, const py::object& buffers, bool known) {
        Outputs out = outputs_for(env, env.num_envs(), buffers, known);
        {
          py::gil_scoped_release release;
          env.reset(seed ? &*seed : nullptr, out.view);
        }
        return result(out, buffers);
      }, py::arg("seed"), py::arg("buffers"), py::arg("known") = false)
      .def("observe", [](VectorEnv& env, const py::object& env_ids, const py::object& buffers, bool known) {
        return slot_rows_call(env, &VectorEnv::observe, env_ids, buffers, known);
      }, py::arg("env_ids"), py::arg("buffers"), py::arg("known") = false)
      .def("reset_slots", [](VectorEnv& env, const py::object& env_ids, const py::object& buffers, bool known) {
        return slot_rows_call(env, &VectorEnv::reset_slots, env_ids, buffers, known);
      }, py::arg("env_ids"), py::arg("buffers"), py::arg("known") = false)
      .def("step", [](VectorEnv& env, const py::object& env_ids, const py::object& actions,
                      const py::object& state_ids, const py::object& buffers, bool known) {
        std::optional<py::array> ids;
        if (!env_ids.is_none()) ids = input_vector(env_ids, "env_ids", 'i', 4, 8, "int32 or int64", -1);
        const int rows = ids ? int(ids->shape(0)) : env.num_envs();
        py::array acts = input_vector(actions, "action_ids", 'i', 4, 4, "int32", rows);
        std::optional<py::array> sids;
        if (!state_ids.is_none()) sids = input_vector(state_ids, "state_ids", 'u', 8, 8, "uint64", rows);
        Outputs out = outputs_for(env, rows, buffers, known);
        const IndexSpan id_span = ids ? index_span(*ids) : IndexSpan{};
        const Strided<uint64_t> sid_span = sids ? strided<uint64_t>(*sids) : Strided<uint64_t>{};
        {
          py::gil_scoped_release release;
          env.step(ids ? &id_span : nullptr, strided<int32_t>(acts), sids ? &sid_span : nullptr, out.view);
        }
        return result(out, buffers);
      }, py::arg("env_ids"), py::arg("action_ids"), py::arg("state_ids"), py::arg("buffers"),
         py::arg("known") = false)
      .def("close", [](VectorEnv& env) {
        py::gil_scoped_release release;
        env.close();
      })
      .def("_inject_fault", &VectorEnv::inject_fault, py::arg("env_id"), py::arg("message"))
      .def_property_readonly("closed", &VectorEnv::closed)
      .def_property_readonly("num_envs", &VectorEnv::num_envs)
      .def_property_readonly("num_threads", &VectorEnv::num_threads)
      .def_property_readonly("num_tiles", &VectorEnv::num_tiles)
      .def_property_readonly("map_size", [](const VectorEnv& env) { return env.config().game.map_size; })
      .def_property_readonly("num_players", [](const VectorEnv& env) { return env.num_players(); })
      .def_property_readonly("max_actions", [](const VectorEnv& env) { return env.config().max_actions; })
      .def_property_readonly("history", [](const VectorEnv& env) { return env.config().history; })
      .def_property_readonly("action_space_size", [](const VectorEnv& env) {
        return ActionSpace(env.config().game.map_size, env.num_players()).size();
      });
}

}  // namespace polyenv::python
