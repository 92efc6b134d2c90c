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
