# One Qt Test executable per tests/<layer>/tst_<name>.cpp, registered with ctest, headless.
# Every test knows where the sources, the build tree and the jobdeckd binary are.
function(jobdeck_add_tests_in_dir)
  cmake_parse_arguments(ARG "" "LABEL;TIMEOUT" "LIBS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  file(GLOB test_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tst_*.cpp)
  foreach(src IN LISTS test_sources)
    get_filename_component(name ${src} NAME_WE)
    add_executable(${name} ${src})
    target_link_libraries(${name} PRIVATE ${ARG_LIBS} Qt6::Test)
    target_compile_definitions(${name} PRIVATE
      JOBDECK_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
      JOBDECK_BINARY_DIR="${PROJECT_BINARY_DIR}"
      JOBDECK_TEST_ARTIFACTS_DIR="${PROJECT_BINARY_DIR}/test-artifacts")
    if(TARGET jobdeckd)
      target_compile_definitions(${name} PRIVATE JOBDECKD_PATH="$<TARGET_FILE:jobdeckd>")
      add_dependencies(${name} jobdeckd)
    endif()
    add_test(NAME ${ARG_LABEL}.${name} COMMAND ${name})
    set_tests_properties(${ARG_LABEL}.${name} PROPERTIES
      LABELS ${ARG_LABEL}
      TIMEOUT ${ARG_TIMEOUT}
      ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QT_LOGGING_RULES=qt.qpa.*=false")
  endforeach()
endfunction()
