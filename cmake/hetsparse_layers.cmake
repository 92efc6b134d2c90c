# Helpers that state hetsparse's layers in CMake (docs/architecture.md):
#   hetsparse_add_kernel(NAME CPU files... [CUDA files...])  pure kernels -> hetsparse_kernels
#   hetsparse_add_codelet(NAME [CUDA_ONLY])                   <k>_codelet.cpp -> hetsparse_codelet_tasks,
#                                                             <k>_starpu.cpp  -> hetsparse_codelets
# CUDA sources are added only when the build has CUDA, so a CPU-only build needs no #ifdef to drop them.

function(hetsparse_add_kernel name)
  cmake_parse_arguments(K "" "" "CPU;CUDA" ${ARGN})
  if(NOT K_CPU AND NOT K_CUDA)
    message(FATAL_ERROR "hetsparse_add_kernel(${name}): no CPU or CUDA sources")
  endif()
  target_sources(hetsparse_kernels PRIVATE ${K_CPU})
  if(HETSPARSE_WITH_CUDA AND K_CUDA)
    target_sources(hetsparse_kernels PRIVATE ${K_CUDA})
  endif()
endfunction()

function(hetsparse_add_codelet name)
  cmake_parse_arguments(C "" "" "EXTRA_TASKS;EXTRA_STARPU" ${ARGN})
  target_sources(hetsparse_codelet_tasks PRIVATE ${name}/${name}_codelet.cpp ${C_EXTRA_TASKS})
  target_sources(hetsparse_codelets PRIVATE ${name}/${name}_starpu.cpp ${C_EXTRA_STARPU})
endfunction()

# hetsparse_expose_headers(<target> <glob>...): the headers matching the globs (relative to the source
# root, e.g. sparse/*.hpp) become <target>'s public headers, reachable as "sparse/csr.hpp" by the target
# and by what links it, and by nothing else: each target gets a staging folder of symbolic links to its
# own headers, instead of one include path (the source root) that lets any file include any other.
function(hetsparse_expose_headers target)
  set(stage ${PROJECT_BINARY_DIR}/layers/${target})
  list(TRANSFORM ARGN PREPEND ${PROJECT_SOURCE_DIR}/ OUTPUT_VARIABLE globs)
  file(GLOB headers RELATIVE ${PROJECT_SOURCE_DIR} CONFIGURE_DEPENDS ${globs})
  if(NOT headers)
    message(FATAL_ERROR "hetsparse_expose_headers(${target}): no header matches ${ARGN}")
  endif()
  file(REMOVE_RECURSE ${stage})
  foreach(h IN LISTS headers)
    get_filename_component(dir ${stage}/${h} DIRECTORY)
    file(MAKE_DIRECTORY ${dir})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${h} ${stage}/${h} SYMBOLIC)
  endforeach()
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${stage}>)
endfunction()
