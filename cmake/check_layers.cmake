# check_layers.cmake — the build-time layering check (run by the
# polyenv_layers target before anything compiles; `cmake -P` with SRC = csrc,
# STAMP = the file written on success).
#
# Each folder of csrc/ is one layer and one library of CMakeLists.txt. A quoted
# #include in csrc/ must name a file of its own layer or of a lower rank, so the
# libraries link one way only:
#   0 engine    rules, state, bots, playouts
#   1 encode    tensors of a state
#   2 players   the search tree, its Gumbel root and the native MCTS and az players
#   3 runtime   live-game handle, episode sequence, journal, worker pool
#   4 vector    VectorGameEnv (its opponents are players)
#   4 search    batched search pools (vector and search, same rank, never include each other)
#   5 python    pybind11 bindings
# engine/mechanics.hpp and engine/world.hpp (the rules' internals) are included by the
# engine only; the other layers change a state through engine/game.hpp.
# An include is resolved relative to the including file, then to csrc/; one that
# resolves to no file is an error too (a path the check cannot follow is not checked).
# A violation stops the build here with the file, line and both layers.
cmake_minimum_required(VERSION 3.18)

set(layers engine encode players runtime vector search python)
set(ranks 0 1 2 3 4 4 5)

# The layer name of a file under SRC, or "" outside every layer.
function(layer_of path out)
  file(RELATIVE_PATH rel "${SRC}" "${path}")
  set(found "")
  foreach(name ${layers})
    if(rel MATCHES "^${name}/")
      set(found ${name})
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

function(rank_of name out)
  list(FIND layers ${name} index)
  list(GET ranks ${index} rank)
  set(${out} ${rank} PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE files "${SRC}/*.hpp" "${SRC}/*.cpp")
set(problems "")
foreach(file ${files})
  layer_of("${file}" from)
  file(RELATIVE_PATH rel_from "${SRC}" "${file}")
  if(from STREQUAL "")
    list(APPEND problems "${rel_from} is in no layer folder (${layers})")
    continue()
  endif()
  get_filename_component(dir "${file}" DIRECTORY)
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line ${lines})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*$" "\\1" target "${line}")
    get_filename_component(abs "${dir}/${target}" ABSOLUTE)
    if(NOT EXISTS "${abs}")
      get_filename_component(abs "${SRC}/${target}" ABSOLUTE)
    endif()
    if(NOT EXISTS "${abs}")
      list(APPEND problems "${rel_from} includes \"${target}\", which is no file of csrc/")
      continue()
    endif()
    layer_of("${abs}" to)
    file(RELATIVE_PATH rel_to "${SRC}" "${abs}")
    if(to STREQUAL "")
      list(APPEND problems "${rel_from} includes ${rel_to}, which is in no layer folder")
      continue()
    endif()
    rank_of(${from} from_rank)
    rank_of(${to} to_rank)
    if(NOT to STREQUAL from AND to_rank GREATER_EQUAL from_rank)
      list(APPEND problems "${rel_from} (${from}) includes ${rel_to} (${to}): a layer may include only its own files and those of lower layers")
    endif()
    if((rel_to STREQUAL "engine/mechanics.hpp" OR rel_to STREQUAL "engine/world.hpp") AND NOT from STREQUAL "engine")
      list(APPEND problems "${rel_from} includes ${rel_to}, which is private to the engine (use engine/game.hpp)")
    endif()
  endforeach()
endforeach()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "layering check failed (docs/architecture.md):\n  ${text}")
endif()
file(WRITE "${STAMP}" "ok\n")
