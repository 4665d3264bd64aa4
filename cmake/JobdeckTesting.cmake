# Registers the suite NAME of the executable SUITES with ctest as <LABEL>.<NAME>.
function(jobdeck_register_test name suites label timeout environment)
  add_test(NAME ${label}.${name} COMMAND ${suites} ${name})
  set_tests_properties(${label}.${name} PROPERTIES
    LABELS ${label}
    TIMEOUT ${timeout}
    ENVIRONMENT "${environment}")
endfunction()

# Each suite's tst_<name>.moc, made by moc from its .cpp alone: a suite's classes need nothing from the
# headers it includes, and moc with the target's include paths (AUTOMOC) parses all of Qt and
# nlohmann_json again for each suite, seconds each against milliseconds.
function(jobdeck_moc_suites suites)
  set_target_properties(${suites} PROPERTIES AUTOMOC OFF)
  set(moc_dir ${CMAKE_CURRENT_BINARY_DIR}/${suites}_moc)
  set(mocs)
  foreach(src IN LISTS ARGN)
    get_filename_component(name ${src} NAME_WE)
    add_custom_command(OUTPUT ${moc_dir}/${name}.moc
      COMMAND Qt6::moc -o ${moc_dir}/${name}.moc ${src}
      DEPENDS ${src} Qt6::moc
      COMMENT "Running moc on ${name}.cpp"
      VERBATIM)
    list(APPEND mocs ${moc_dir}/${name}.moc)
  endforeach()
  target_sources(${suites} PRIVATE ${mocs})
  target_include_directories(${suites} PRIVATE ${moc_dir})
endfunction()

# The suites of tests/<layer>/tst_<name>.cpp, built into one executable <LABEL>_suites
# (tests/runner/SuiteRegistry.h) and each registered with ctest as <LABEL>.tst_<name>, headless.
# Every suite knows where the sources, the build tree and the jobdeckd binary are.
function(jobdeck_add_tests_in_dir)
  cmake_parse_arguments(ARG "" "LABEL;TIMEOUT" "LIBS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  file(GLOB test_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tst_*.cpp)
  set(suites ${ARG_LABEL}_suites)
  add_executable(${suites} ${test_sources})
  jobdeck_moc_suites(${suites} ${test_sources})
  target_link_libraries(${suites} PRIVATE ${ARG_LIBS} jobdeck_test_runner Qt6::Test)
  target_compile_definitions(${suites} PRIVATE
    JOBDECK_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    JOBDECK_BINARY_DIR="${PROJECT_BINARY_DIR}"
    JOBDECK_TEST_ARTIFACTS_DIR="${PROJECT_BINARY_DIR}/test-artifacts")
  jobdeck_precompile_suites(${suites} ${ARG_LABEL})
  if(TARGET jobdeckd)
    target_compile_definitions(${suites} PRIVATE JOBDECKD_PATH="$<TARGET_FILE:jobdeckd>")
    add_dependencies(${suites} jobdeckd)
  endif()
  foreach(src IN LISTS test_sources)
    get_filename_component(name ${src} NAME_WE)
    jobdeck_register_test(${name} ${suites} ${ARG_LABEL} ${ARG_TIMEOUT}
      "QT_QPA_PLATFORM=offscreen;QT_LOGGING_RULES=qt.qpa.*=false")
  endforeach()
endfunction()

# Registers the tests of the current directory's suites (made by jobdeck_add_tests_in_dir with label
# FROM) a second time, as <LABEL>.tst_x with label LABEL, ENVIRONMENT added to theirs and the same
# timeout: the same suites against another backend. EXCEPT names the suites left out.
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
    jobdeck_register_test(${name} ${ARG_FROM}_suites ${ARG_LABEL} ${timeout} "${environment};${ARG_ENVIRONMENT}")
  endforeach()
endfunction()
