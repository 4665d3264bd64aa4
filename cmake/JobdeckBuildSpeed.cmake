# What keeps a build on a 2-core machine short (docs/performance.md, "Build"):
# - precompiled headers: Boost.Asio/Beast, nlohmann_json, spdlog, Qt are parsed once per target, and
#   once for all the test suites of a layer (jobdeck_precompile_suites);
# - a layer's suites are one executable (tests/runner), linked once, each suite moc'ed on its own
#   (jobdeck_moc_suites);
# - lld links the executables of a test build (a Debug link with GNU ld takes seconds each).
option(JOBDECK_PCH "Precompile the heavy library headers" ON)

find_program(JOBDECK_LLD ld.lld)
if(JOBDECK_LLD AND CMAKE_CXX_COMPILER_ID MATCHES "^(GNU|Clang)$")
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

# The precompiled header of a layer's suites (one executable, tests/runner/SuiteRegistry.h).
function(jobdeck_precompile_suites suites label)
  if(NOT JOBDECK_PCH)
    return()
  endif()
  set(qt_headers <QtCore> <QtTest>)
  if(NOT label STREQUAL "core")
    list(APPEND qt_headers <QtNetwork>) # every other layer's suites talk to a jobdeckd or a fake one
  endif()
  if(label STREQUAL "widgets")
    list(APPEND qt_headers <QtWidgets>)
  endif()
  target_precompile_headers(${suites} PRIVATE ${JOBDECK_STD_PCH} <nlohmann/json.hpp> ${qt_headers})
endfunction()
