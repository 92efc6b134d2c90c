# Installs the build tree into WORK_DIR/prefix, configures examples/ against it with
# find_package(hetsparse) and no PKG_CONFIG_PATH, builds and runs spmv_example on 2 CPU workers
# (quiet stderr with fresh performance models) and cholesky_example on a symmetric and a
# non-symmetric file.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "install failed: ${rc}")
endif()
# The shipped SpTRSV scheme models sit where the installed programs look for them (share/hetsparse).
file(GLOB models ${WORK_DIR}/prefix/share/hetsparse/sptrsv_model_*.tsv)
if(NOT models)
  message(FATAL_ERROR "install: no share/hetsparse/sptrsv_model_*.tsv")
endif()
# No PKG_CONFIG_PATH: find_package(hetsparse) must find the StarPU hetsparse was built with by itself.
unset(ENV{PKG_CONFIG_PATH})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer failed: ${rc}")
endif()
set(ENV{STARPU_NCPU} 2)
set(ENV{STARPU_NCUDA} 0)
# Fresh performance models: StarPU's "not calibrated" notices must not reach a library user's stderr.
set(ENV{STARPU_PERF_MODEL_DIR} ${WORK_DIR}/perfmodels)
unset(ENV{STARPU_SILENT})
execute_process(COMMAND ${WORK_DIR}/build/spmv_example RESULT_VARIABLE rc ERROR_VARIABLE err)
message("${err}")
if(rc)
  message(FATAL_ERROR "spmv_example failed: ${rc}")
endif()
if(err MATCHES "\\[starpu\\]")
  message(FATAL_ERROR "StarPU's notices reached spmv_example's stderr")
endif()
# The README's Cholesky example: solves a symmetric file, refuses a non-symmetric one by name.
file(WRITE ${WORK_DIR}/spd.mtx "%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n1 1 4\n2 1 1\n2 2 4\n3 2 1\n3 3 4\n")
file(WRITE ${WORK_DIR}/nonsymmetric.mtx "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 4\n2 1 1\n2 2 4\n")
execute_process(COMMAND ${WORK_DIR}/build/cholesky_example ${WORK_DIR}/spd.mtx RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message("${out}")
if(rc OR NOT out MATCHES "backward error")
  message(FATAL_ERROR "cholesky_example failed on a symmetric positive definite file: ${rc}")
endif()
execute_process(COMMAND ${WORK_DIR}/build/cholesky_example ${WORK_DIR}/nonsymmetric.mtx RESULT_VARIABLE rc
                ERROR_VARIABLE err)
message("${err}")
if(NOT rc EQUAL 1 OR NOT err MATCHES "asymmetric")
  message(FATAL_ERROR "cholesky_example did not refuse a non-symmetric file by name (status ${rc})")
endif()
