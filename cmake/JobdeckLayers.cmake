# The service's layers, each compiled so that it sees its own headers and those of the layers below
# and no others: a header of a layer above is not found, so the build refuses an upward include
# (tests/layering). Sources include by path from the source root ("service/stores/Stores.h"); a
# layer's include root under the build tree holds one symbolic link, at that path, to the layer's
# source directory, and a layered target is compiled with the roots of its layers instead of the
# source root.
set(JOBDECK_LAYER_ROOT ${PROJECT_BINARY_DIR}/layers)

# Makes the include root of `layer`, exposing the source directory `source_subdir` (e.g. service/runs).
function(jobdeck_define_layer layer source_subdir)
  set(link ${JOBDECK_LAYER_ROOT}/${layer}/${source_subdir})
  get_filename_component(parent ${link} DIRECTORY)
  file(MAKE_DIRECTORY ${parent})
  if(NOT IS_SYMLINK ${link})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${source_subdir} ${link} SYMBOLIC)
  endif()
endfunction()

# Compiles `target` with the include roots of the layers named after it (its own and those below)
# in place of the source root.
function(jobdeck_layer_includes target)
  set(roots)
  foreach(layer IN LISTS ARGN)
    if(NOT IS_DIRECTORY ${JOBDECK_LAYER_ROOT}/${layer})
      message(FATAL_ERROR "jobdeck_layer_includes: no layer ${layer} (jobdeck_define_layer)")
    endif()
    list(APPEND roots ${JOBDECK_LAYER_ROOT}/${layer})
  endforeach()
  set_property(TARGET ${target} PROPERTY INCLUDE_DIRECTORIES ${roots})
endfunction()

jobdeck_define_layer(core core)
jobdeck_define_layer(runmonitor service/runmonitor)
jobdeck_define_layer(stores service/stores)
jobdeck_define_layer(runs service/runs)
jobdeck_define_layer(statements service/statements)
jobdeck_define_layer(http service/http)
