# check_layers.cmake — the build-time layering check (run by the polyenv_layers target before anything
# compiles; `cmake -P` with SRC = csrc, STAMP = the file written on success and, optionally, TESTS = the
# C++ self-tests' folder, tests/cpp).
#
# The layers, what each links, the private headers and the test oracles are cmake/layers.cmake's:
#   engine    rules, state, bots, playouts; engine/check/: the test oracles
#   encode    tensors of a state                                  links engine
#   players   the search tree, its Gumbel root, MCTS and az players  links encode
#   runtime   live-game handle, episodes, journal, worker pool    links encode
#   vector    VectorGameEnv (its opponents are players)           links runtime, players
#   search    batched search pools                                links runtime, players
#   python    pybind11 bindings                                   links search, vector (so do the self-tests)
# Every #include of csrc/ and tests/cpp/, quoted or angle-bracket, is resolved as the compiler resolves
# it: a quoted one relative to the including file first; then (both kinds) the layer's private include
# root, its own folder; then csrc/ (the public include roots, the layers' faces, expose a subset of it).
# An include that resolves must name a file of the includer's own layer or of a layer it reaches through
# its links; engine/mechanics.hpp and engine/world.hpp (the rules' internals) only from the engine;
# engine/check/ (the test oracles) only from engine/check/, python/ and tests/cpp/. A quoted include
# that resolves to no file is an error, and so is an angle-bracket one that names a layer folder
# (<engine/...>): a path the check cannot follow is not checked. Other angle-bracket includes are the
# system's and the libraries' (<vector>, <pybind11/pybind11.h>). A violation stops the build here with
# the file and both layers named.
cmake_minimum_required(VERSION 3.18)
include("${CMAKE_CURRENT_LIST_DIR}/layers.cmake")
set(POLYENV_LINKS_tests ${POLYENV_LINKS_python})

# The layer of a file under SRC, or "" outside every layer.
function(layer_of path out)
  file(RELATIVE_PATH rel "${SRC}" "${path}")
  set(found "")
  foreach(name ${POLYENV_LAYERS})
    if(rel MATCHES "^${name}/")
      set(found ${name})
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# Appends to `problems` (in the caller) the wrong includes of `file`, of layer `from` (a layer of csrc/,
# or "tests" for tests/cpp/), named `shown`; `own_dir` is the includer's folder of its own files.
function(check_file file from shown own_dir)
  get_filename_component(dir "${file}" DIRECTORY)
  polyenv_reach(${from} reach)
  set(private_root "")
  if(NOT from STREQUAL "tests")
    set(private_root "${SRC}/${from}")
  endif()
  set(include_re "^[ \t]*#[ \t]*include[ \t]*([\"<])([^\">]+)[\">].*$")
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
  set(found "")
  foreach(line ${lines})
    string(REGEX REPLACE "${include_re}" "\\1" kind "${line}")
    string(REGEX REPLACE "${include_re}" "\\2" target "${line}")
    set(candidates "")
    if(kind STREQUAL "<")
      set(spelled "<${target}>")
    else()
      set(spelled "\"${target}\"")
      list(APPEND candidates "${dir}/${target}")
    endif()
    if(private_root)
      list(APPEND candidates "${private_root}/${target}")
    endif()
    list(APPEND candidates "${SRC}/${target}")
    set(abs "")
    foreach(candidate ${candidates})
      get_filename_component(candidate "${candidate}" ABSOLUTE)
      if(NOT abs AND EXISTS "${candidate}" AND NOT IS_DIRECTORY "${candidate}")
        set(abs "${candidate}")
      endif()
    endforeach()
    if(NOT abs)
      string(REGEX MATCH "^[^/]+/" first "${target}")  # <vector> is the library's, <vector/...> ours
      string(REPLACE "/" "" first "${first}")
      if(kind STREQUAL "\"" OR (first AND first IN_LIST POLYENV_LAYERS))
        list(APPEND found "${shown} includes ${spelled}, which is no file of csrc/")
      endif()
      continue()  # <vector>, <pybind11/stl.h>: the system's and the libraries'
    endif()
    file(RELATIVE_PATH in_own "${own_dir}" "${abs}")
    if(from STREQUAL "tests" AND NOT in_own MATCHES "^\\.\\./")
      continue()  # a self-test's own helper (tests/cpp/check.hpp)
    endif()
    layer_of("${abs}" to)
    file(RELATIVE_PATH rel_to "${SRC}" "${abs}")
    if(to STREQUAL "")
      list(APPEND found "${shown} includes ${rel_to}, which is in no layer folder")
      continue()
    endif()
    if(NOT to STREQUAL from AND NOT to IN_LIST reach)
      list(APPEND found "${shown} (${from}) includes ${rel_to} (${to}): a layer may include only its own files and those of the layers it links (cmake/layers.cmake)")
    endif()
    if(rel_to IN_LIST POLYENV_PRIVATE_HEADERS AND NOT to STREQUAL from)
      list(APPEND found "${shown} includes ${rel_to}, which is private to the ${to} (use engine/game.hpp)")
    endif()
    if(rel_to MATCHES "^${POLYENV_ORACLES}/" AND NOT shown MATCHES "^${POLYENV_ORACLES}/"
       AND NOT from IN_LIST POLYENV_ORACLE_USERS)
      list(APPEND found "${shown} includes ${rel_to}, one of the engine's test oracles, which only ${POLYENV_ORACLES}/, python/ and tests/cpp/ include")
    endif()
  endforeach()
  set(problems ${problems} ${found} PARENT_SCOPE)
endfunction()

set(problems "")
file(GLOB_RECURSE files "${SRC}/*.hpp" "${SRC}/*.cpp")
foreach(file ${files})
  layer_of("${file}" from)
  file(RELATIVE_PATH rel_from "${SRC}" "${file}")
  if(from STREQUAL "")
    list(APPEND problems "${rel_from} is in no layer folder (${POLYENV_LAYERS})")
    continue()
  endif()
  check_file("${file}" ${from} "${rel_from}" "${SRC}/${from}")
endforeach()
if(TESTS)
  file(GLOB_RECURSE test_files "${TESTS}/*.hpp" "${TESTS}/*.cpp")
  foreach(file ${test_files})
    file(RELATIVE_PATH rel_from "${TESTS}" "${file}")
    check_file("${file}" tests "tests/cpp/${rel_from}" "${TESTS}")
  endforeach()
endif()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "layering check failed (docs/architecture.md):\n  ${text}")
endif()
file(WRITE "${STAMP}" "ok\n")
