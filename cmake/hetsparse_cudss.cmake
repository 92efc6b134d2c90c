# cuDSS (NVIDIA's GPU sparse direct solver) as bench_cholesky's GPU anchor: included by bench/ and
# tests/bench/ (the loader and the CSR it is handed are tested without a GPU).
include_guard(GLOBAL)
# cuDSS beside hetsparse in bench_cholesky (bench/cudss_anchor.hpp). Only its header is needed to
# build: the library is dlopen'ed at run time ($HETSPARSE_CUDSS_LIB), so no build, test or CI machine
# needs it. The header is looked for in HETSPARSE_CUDSS_ROOT/include, then where
# scripts/bench.d/cudss_parts.sh unpacks the nvidia-cudss-cu13 wheel, then the system's paths.
set(HETSPARSE_CUDSS_ROOT "" CACHE PATH "cuDSS root (include/cudss.h), e.g. the nvidia-cudss-cu13 wheel's nvidia/cu13")
set(_cudss_cache "$ENV{HETSPARSE_CACHE}")
if(NOT _cudss_cache)
  set(_cudss_cache "$ENV{HOME}/.cache/hetsparse")
endif()
find_path(HETSPARSE_CUDSS_INCLUDE_DIR cudss.h
          HINTS "${HETSPARSE_CUDSS_ROOT}/include" "$ENV{HETSPARSE_CUDSS_ROOT}/include"
                "${_cudss_cache}/cudss/wheel/nvidia/cu13/include")
add_library(hetsparse_cudss_input STATIC ${PROJECT_SOURCE_DIR}/bench/cudss_input.cpp)  # no cuDSS, no CUDA: tested everywhere
target_link_libraries(hetsparse_cudss_input PUBLIC hetsparse_sparse hetsparse_top_includes PRIVATE hetsparse_warnings)
function(hetsparse_cudss_anchor target)
  target_link_libraries(${target} PRIVATE hetsparse_cudss_input)
  if(HETSPARSE_WITH_CUDA AND HETSPARSE_CUDSS_INCLUDE_DIR)
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/bench/cudss_anchor.cpp ${PROJECT_SOURCE_DIR}/bench/cudss_library.cpp)
    target_include_directories(${target} PRIVATE ${HETSPARSE_CUDSS_INCLUDE_DIR})
    target_link_libraries(${target} PRIVATE CUDA::cudart ${CMAKE_DL_LIBS})
  else()
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/bench/cudss_anchor_none.cpp)
    if(HETSPARSE_WITH_CUDA)
      set(reason "built without cudss.h: configure with -DHETSPARSE_CUDSS_ROOT=DIR, or run scripts/bench.d/cudss_parts.sh")
    else()
      set(reason "a build without CUDA")
    endif()
    target_compile_definitions(${target} PRIVATE HETSPARSE_CUDSS_SKIP_REASON="${reason}")
  endif()
endfunction()
if(HETSPARSE_WITH_CUDA AND HETSPARSE_CUDSS_INCLUDE_DIR)
  message(STATUS "hetsparse: cuDSS header in ${HETSPARSE_CUDSS_INCLUDE_DIR}: bench_cholesky loads libcudss.so.1 at run time")
else()
  message(STATUS "hetsparse: bench_cholesky without cuDSS (no cudss.h, or no CUDA)")
endif()
