// polyenv._core az functions: registering a network of the "az" player
// (players/az_net.hpp) and running its native forward pass on dense batches or
// on a game (the parity tests and polyenv.az_network use them).
#include <string>

#include "../encode/encode.hpp"
#include "../players/az_bot.hpp"
#include "bindings.hpp"
#include "game_handle.hpp"

namespace polyenv::python {

namespace {

const AzNet& net_at(int index) {
  const AzNet* net = az_net(index);
  if (!net) throw InvalidArgument("no az network is registered at index " + std::to_string(index));
  return *net;
}

// A C-contiguous copy-free view of an exact-dtype NumPy array of `ndim` dimensions.
template <class T>
py::array_t<T, py::array::c_style> exact(const py::handle& obj, const char* name, int ndim) {
  if (!py::isinstance<py::array>(obj) || py::reinterpret_borrow<py::array>(obj).dtype().not_equal(py::dtype::of<T>()) ||
      py::reinterpret_borrow<py::array>(obj).ndim() != ndim) {
    throw InvalidArgument(std::string(name) + " must be a " + std::to_string(ndim) + "-D NumPy array of " +
                          std::string(py::str(py::dtype::of<T>())));
  }
  return py::array_t<T, py::array::c_style>::ensure(obj);
}

}  // namespace

void init_az(py::module_& m) {
  m.def("az_register", [](py::bytes data) {
    const std::string bytes = data;
    std::shared_ptr<const AzNet> net;
    {
      py::gil_scoped_release release;
      net = AzNet::from_bytes(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    }
    return register_az_net(std::move(net));
  }, py::arg("data"), "Parses an az weight file's bytes and registers the network; returns its index.");

  m.def("az_info", [](int index) {
    const AzNet& net = net_at(index);
    py::dict d;
    d["parameters"] = net.parameter_count();
    d["value_size"] = net.value_size();
    return d;
  }, py::arg("index"), "Parameter count and value size of a registered az network.");

  m.def("az_forward", [](int index, const py::handle& map_tokens, const py::handle& state,
                         const py::handle& action_features, const py::handle& legal_action_count) {
    const AzNet& net = net_at(index);
    auto tokens = exact<int32_t>(map_tokens, "map_tokens", 3);
    auto st = exact<int32_t>(state, "state", 2);
    auto feats = exact<int32_t>(action_features, "action_features", 3);
    auto counts = exact<int32_t>(legal_action_count, "legal_action_count", 1);
    const py::ssize_t N = tokens.shape(0), T = tokens.shape(1), A = feats.shape(1);
    int map_size = 0;
    while ((map_size + 1) * (map_size + 1) <= T) ++map_size;
    if (map_size * map_size != T || map_size < 1) throw InvalidArgument("map_tokens must hold a square map's tiles");
    if (tokens.shape(2) != kMapTokenFeatures || st.shape(0) != N || st.shape(1) != kStateFeatures ||
        feats.shape(0) != N || feats.shape(2) != kActionFeatures || counts.shape(0) != N) {
      throw InvalidArgument("expected map_tokens [N, tiles, 23], state [N, 11], action_features [N, A, 17] and "
                            "legal_action_count [N]");
    }
    check_row_counts(counts.data(), int(N), int(A));
    auto logits = new_array<float>({N, A});
    auto values = new_array<float>({N, py::ssize_t(net.value_size())});
    {
      py::gil_scoped_release release;
      AzScratch sc;
      net.forward_batch(map_size, int(N), int(A), tokens.data(), st.data(), feats.data(), counts.data(),
                        logits.mutable_data(), values.mutable_data(), sc);
    }
    return py::make_tuple(logits, values);
  }, py::arg("index"), py::arg("map_tokens"), py::arg("state"), py::arg("action_features"),
     py::arg("legal_action_count"),
     "Native forward pass over dense rows: (logits float32 [N, A] (0 beyond each row's count), values float32 "
     "[N, value_size]).");

  m.def("az_evaluate", [](const Game& g, int index) { GameLock lock(g);
    const AzNet& net = net_at(index);
    if (g.state.game_over) throw InvalidArgument("the game is over; call reset()");
    AzBotScratch sc;
    int n;
    {
      py::gil_scoped_release release;
      n = az_evaluate(g.state, net, sc);
    }
    auto ids = new_array<int32_t>({n});
    auto logits = new_array<float>({n});
    auto values = new_array<float>({py::ssize_t(net.value_size())});
    std::copy(sc.ids.begin(), sc.ids.begin() + n, ids.mutable_data());
    std::copy(sc.logits.begin(), sc.logits.begin() + n, logits.mutable_data());
    std::copy(sc.values, sc.values + net.value_size(), values.mutable_data());
    return py::make_tuple(ids, logits, values);
  }, py::arg("game"), py::arg("index"),
     "The network's view of a game's current position: (legal action ids [n], logits [n], values by relative "
     "seat), encoded for the current player.");
}

}  // namespace polyenv::python
