# layers.cmake — the layer graph of csrc/ (docs/architecture.md), the one home of what CMakeLists.txt
# builds (a library per layer, its include roots) and of what cmake/check_layers.cmake enforces.
#
# Each folder of csrc/ is one layer. POLYENV_LINKS_<layer> lists the layers it links; a layer may include
# its own files and the public headers of the layers it reaches through its links, nothing else
# (so vector and search, which both link runtime and players, never include each other, and no layer
# includes one above it). The order of POLYENV_LAYERS is the ranks of docs/architecture.md: a layer
# links only layers listed before it.
set(POLYENV_LAYERS engine encode players runtime vector search python)
set(POLYENV_LINKS_engine "")
set(POLYENV_LINKS_encode engine)
set(POLYENV_LINKS_players encode)
set(POLYENV_LINKS_runtime encode)
set(POLYENV_LINKS_vector runtime players)
set(POLYENV_LINKS_search runtime players)
set(POLYENV_LINKS_python search vector)  # the bindings (the _core module); the C++ self-tests link the same
# Headers their own layer includes only (the rules' internals: the other layers change a state
# through engine/game.hpp). No include root outside their layer reaches them.
set(POLYENV_PRIVATE_HEADERS engine/mechanics.hpp engine/world.hpp)
# The engine's test oracles (reference enumerator, invariants checker, checked playout). Part of the
# engine library; their headers are included by engine/check/ itself, the bindings (python/: the
# _core._testing submodule) and the C++ self-tests (tests/cpp/) only.
set(POLYENV_ORACLES engine/check)
set(POLYENV_ORACLE_USERS python tests)

# The layers `layer` reaches through its links (not itself), into `out`.
function(polyenv_reach layer out)
  set(reached "")
  set(todo ${POLYENV_LINKS_${layer}})
  while(todo)
    list(POP_FRONT todo next)
    if(NOT next IN_LIST reached)
      list(APPEND reached ${next})
      list(APPEND todo ${POLYENV_LINKS_${next}})
    endif()
  endwhile()
  set(${out} "${reached}" PARENT_SCOPE)
endfunction()

# Every link points to a layer listed earlier (the graph is the ranks' order, without cycles).
set(_polyenv_before "")
foreach(_layer ${POLYENV_LAYERS})
  foreach(_link ${POLYENV_LINKS_${_layer}})
    if(NOT _link IN_LIST _polyenv_before)
      message(FATAL_ERROR "cmake/layers.cmake: ${_layer} links ${_link}, which is not a layer below it")
    endif()
  endforeach()
  list(APPEND _polyenv_before ${_layer})
endforeach()
