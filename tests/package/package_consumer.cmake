# Installs the build tree into WORK_DIR/prefix, configures examples/ against it with
# find_package(hetsparse), builds and runs spmv_example on 2 CPU workers.
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
set(ENV{PKG_CONFIG_PATH} "${STARPU_PKGCONFIG}:$ENV{PKG_CONFIG_PATH}")
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
execute_process(COMMAND ${WORK_DIR}/build/spmv_example RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "spmv_example failed: ${rc}")
endif()
