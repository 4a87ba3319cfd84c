# check_layers.cmake — the build-time layering check (run by the
# polyenv_layers target before anything compiles; `cmake -P` with SRC = csrc,
# STAMP = the file written on success).
#
# Every quoted #include of a file under csrc/ must point at its own layer or
# a lower one, so the libraries of CMakeLists.txt link one way only:
#   0 engine    csrc/engine          rules, state, bots, playouts
#   1 encode    csrc/encode          tensors of a state
#   2 players   csrc/search/tree.*, csrc/search/gumbel.*, csrc/search/mcts_bot.*, csrc/search/az_net.*,
#               csrc/search/az_bot.*
#                                    the search tree, its Gumbel root and the native MCTS and az players
#                                    (VectorGameEnv's opponents use them)
#   3 runtime   csrc/runtime, csrc/vector
#                                    live-game handle, journal, worker pool, the vector env
#   4 search    csrc/search (the rest)  batched search pools
#   5 bindings  csrc/python          pybind11
# and engine/mechanics.hpp (the rules' internals) is included by the engine only.
# A wrong-way include stops the build here with the file, line and both layers.
# (Per-layer include roots cannot express this: every source includes by
# relative path, and the players layer lives beside the search pools.)
cmake_minimum_required(VERSION 3.18)

function(layer_of path out)
  file(RELATIVE_PATH rel "${SRC}" "${path}")
  if(rel MATCHES "^engine/")
    set(layer 0)
  elseif(rel MATCHES "^encode/")
    set(layer 1)
  elseif(rel MATCHES "^search/(tree|gumbel|mcts_bot|az_net|az_bot)\\.(hpp|cpp)$")
    set(layer 2)
  elseif(rel MATCHES "^(runtime|vector)/")
    set(layer 3)
  elseif(rel MATCHES "^search/")
    set(layer 4)
  elseif(rel MATCHES "^python/")
    set(layer 5)
  else()
    set(layer -1)
  endif()
  set(${out} ${layer} PARENT_SCOPE)
endfunction()

set(names engine encode players runtime search bindings)
file(GLOB_RECURSE files "${SRC}/*.hpp" "${SRC}/*.cpp")
set(problems "")
foreach(file ${files})
  layer_of("${file}" from)
  get_filename_component(dir "${file}" DIRECTORY)
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line ${lines})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*$" "\\1" target "${line}")
    get_filename_component(abs "${dir}/${target}" ABSOLUTE)
    if(NOT EXISTS "${abs}")
      continue()
    endif()
    layer_of("${abs}" to)
    file(RELATIVE_PATH rel_from "${SRC}" "${file}")
    file(RELATIVE_PATH rel_to "${SRC}" "${abs}")
    if(from GREATER_EQUAL 0 AND to GREATER from)
      list(GET names ${from} from_name)
      list(GET names ${to} to_name)
      list(APPEND problems "${rel_from} (${from_name}) includes ${rel_to} (${to_name}): a lower layer may not depend on a higher one")
    endif()
    if(rel_to STREQUAL "engine/mechanics.hpp" AND NOT from EQUAL 0)
      list(APPEND problems "${rel_from} includes engine/mechanics.hpp, which is private to the engine (use engine/game.hpp)")
    endif()
  endforeach()
endforeach()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "layering check failed (docs/architecture.md):\n  ${text}")
endif()
file(WRITE "${STAMP}" "ok\n")
