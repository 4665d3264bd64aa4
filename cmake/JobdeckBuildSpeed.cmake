# What keeps a build on a 2-core machine short (docs/performance.md, "Build"):
# - precompiled headers: Boost.Asio/Beast, nlohmann_json, spdlog, Qt are parsed once per target, and
#   once for all the test suites of a layer (jobdeck_reuse_test_pch);
# - lld links the ~130 executables of a test build (a Debug link with GNU ld takes seconds each).
option(JOBDECK_PCH "Precompile the heavy library headers" ON)

find_program(JOBDECK_LLD ld.lld)
if(JOBDECK_LLD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  add_link_options(-fuse-ld=lld)
endif()

# The headers every translation unit of the layers below pays for.
set(JOBDECK_STD_PCH <algorithm> <chrono> <functional> <map> <memory> <optional> <string> <string_view>
  <vector>)

# Precompiles `headers` (and the standard ones) for `target` when JOBDECK_PCH is on.
function(jobdeck_precompile target)
  if(JOBDECK_PCH)
    target_precompile_headers(${target} PRIVATE ${JOBDECK_STD_PCH} ${ARGN})
  endif()
endfunction()

# One precompiled header for every test suite of a layer: a carrier target with the suites' own
# libraries and definitions precompiles it, and each suite reuses it (GCC uses a precompiled header
# only where the definitions are the same; a suite with definitions of its own opts out with
# DISABLE_PRECOMPILE_HEADERS).
function(jobdeck_test_pch label libs definitions)
  if(NOT JOBDECK_PCH)
    return()
  endif()
  set(carrier jobdeck_test_pch_${label})
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/${carrier}.cpp "// precompiled headers of the ${label} suites\n")
  add_library(${carrier} OBJECT ${CMAKE_CURRENT_BINARY_DIR}/${carrier}.cpp)
  target_link_libraries(${carrier} PRIVATE ${libs} Qt6::Test)
  target_compile_definitions(${carrier} PRIVATE ${definitions})
  set_target_properties(${carrier} PROPERTIES AUTOMOC OFF)
  set(qt_headers <QtCore> <QtTest>)
  if(NOT label STREQUAL "core")
    list(APPEND qt_headers <QtNetwork>) # every other layer's suites talk to a jobdeckd or a fake one
  endif()
  if(label STREQUAL "widgets")
    list(APPEND qt_headers <QtWidgets>)
  endif()
  target_precompile_headers(${carrier} PRIVATE ${JOBDECK_STD_PCH} <nlohmann/json.hpp> ${qt_headers})
endfunction()

function(jobdeck_reuse_test_pch target label)
  if(JOBDECK_PCH)
    target_precompile_headers(${target} REUSE_FROM jobdeck_test_pch_${label})
    # Each suite includes its own .moc, which leaves AUTOMOC's mocs_compilation.cpp empty: loading the
    # precompiled header for it took seconds per suite, for nothing.
    set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/${target}_autogen/mocs_compilation.cpp
      TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  endif()
endfunction()
