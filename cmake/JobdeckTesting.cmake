# Registers the test executable NAME with ctest as <LABEL>.<NAME>.
function(jobdeck_register_test name label timeout environment)
  add_test(NAME ${label}.${name} COMMAND ${name})
  set_tests_properties(${label}.${name} PROPERTIES
    LABELS ${label}
    TIMEOUT ${timeout}
    ENVIRONMENT "${environment}")
endfunction()

# One Qt Test executable per tests/<layer>/tst_<name>.cpp, registered with ctest, headless.
# Every test knows where the sources, the build tree and the jobdeckd binary are.
function(jobdeck_add_tests_in_dir)
  cmake_parse_arguments(ARG "" "LABEL;TIMEOUT" "LIBS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  file(GLOB test_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tst_*.cpp)
  set(definitions
    JOBDECK_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    JOBDECK_BINARY_DIR="${PROJECT_BINARY_DIR}"
    JOBDECK_TEST_ARTIFACTS_DIR="${PROJECT_BINARY_DIR}/test-artifacts")
  if(TARGET jobdeckd)
    list(APPEND definitions JOBDECKD_PATH="$<TARGET_FILE:jobdeckd>")
  endif()
  jobdeck_test_pch(${ARG_LABEL} "${ARG_LIBS}" "${definitions}")
  foreach(src IN LISTS test_sources)
    get_filename_component(name ${src} NAME_WE)
    add_executable(${name} ${src})
    target_link_libraries(${name} PRIVATE ${ARG_LIBS} Qt6::Test)
    target_compile_definitions(${name} PRIVATE ${definitions})
    jobdeck_reuse_test_pch(${name} ${ARG_LABEL})
    if(TARGET jobdeckd)
      add_dependencies(${name} jobdeckd)
    endif()
    jobdeck_register_test(${name} ${ARG_LABEL} ${ARG_TIMEOUT} "QT_QPA_PLATFORM=offscreen;QT_LOGGING_RULES=qt.qpa.*=false")
  endforeach()
endfunction()

# Registers the tests of the current directory's suites (made by jobdeck_add_tests_in_dir with label
# FROM) a second time, as <LABEL>.tst_x with label LABEL, ENVIRONMENT added to theirs and the same
# timeout: the same executable against another backend. EXCEPT names the suites left out.
function(jobdeck_add_test_variant)
  cmake_parse_arguments(ARG "" "FROM;LABEL" "ENVIRONMENT;EXCEPT" ${ARGN})
  file(GLOB test_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tst_*.cpp)
  foreach(name IN LISTS ARG_EXCEPT)
    if(NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${name}.cpp)
      message(FATAL_ERROR "jobdeck_add_test_variant: EXCEPT names ${name}, which is no suite here")
    endif()
  endforeach()
  foreach(src IN LISTS test_sources)
    get_filename_component(name ${src} NAME_WE)
    if(name IN_LIST ARG_EXCEPT)
      continue()
    endif()
    get_test_property(${ARG_FROM}.${name} TIMEOUT timeout)
    get_test_property(${ARG_FROM}.${name} ENVIRONMENT environment)
    jobdeck_register_test(${name} ${ARG_LABEL} ${timeout} "${environment};${ARG_ENVIRONMENT}")
  endforeach()
endfunction()
