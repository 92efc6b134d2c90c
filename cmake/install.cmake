# Installation and the exported CMake package: find_package(hetsparse) gives hetsparse::hetsparse.
include(CMakePackageConfigHelpers)

set(HETSPARSE_LIBRARIES hetsparse_headers hetsparse_warnings hetsparse_sparse hetsparse_reference hetsparse_symbolic
    hetsparse_tasks hetsparse_kernels hetsparse_codelet_tasks hetsparse_codelets hetsparse_runtime hetsparse_planners
    hetsparse_cholesky hetsparse_sptrsv_analysis hetsparse_sptrsv hetsparse_spmv)
add_library(hetsparse_all INTERFACE)
target_link_libraries(hetsparse_all INTERFACE hetsparse_cholesky hetsparse_sptrsv hetsparse_spmv hetsparse_planners
                      hetsparse_runtime hetsparse_reference hetsparse_sparse)
set_target_properties(hetsparse_all PROPERTIES EXPORT_NAME hetsparse)

install(TARGETS ${HETSPARSE_LIBRARIES} hetsparse_all EXPORT hetsparseTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/hetsparse DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(dir sparse reference symbolic runtime kernels codelets planners spmv cholesky sptrsv)
  install(DIRECTORY ${dir} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hetsparse FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(EXPORT hetsparseTargets NAMESPACE hetsparse:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hetsparse)
# Where starpu-1.4.pc lives, for hetsparseConfig.cmake to find the same StarPU.
pkg_get_variable(HETSPARSE_STARPU_PKGCONFIG_DIR starpu-1.4 pcfiledir)
configure_package_config_file(cmake/hetsparseConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/hetsparseConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hetsparse)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/hetsparseConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/hetsparseConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/hetsparseConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hetsparse)
# Trained models (SpTRSV scheme model per GPU): found next to the installed programs (share/hetsparse).
install(DIRECTORY data/ DESTINATION ${CMAKE_INSTALL_DATADIR}/hetsparse FILES_MATCHING PATTERN "*.tsv")
