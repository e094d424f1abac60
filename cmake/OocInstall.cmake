# install() and an exported OocGraphConfig.cmake: a host application writes
#   find_package(OocGraph) ... target_link_libraries(app PRIVATE ooc::engine)
include(CMakePackageConfigHelpers)
set(_ooc_libs ooc_core ooc_partitioner ooc_transfer ooc_kernels ooc_engine)
if(OOC_WITH_CUDA)
  list(APPEND _ooc_libs ooc_engine_cuda)  # with the CUDA headers below
endif()
install(TARGETS ${_ooc_libs} EXPORT OocGraphTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(_layer core partitioner transfer kernels engine)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${_layer}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
install(DIRECTORY ${PROJECT_BINARY_DIR}/generated/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(OOC_WITH_CUDA)
  foreach(_layer core transfer kernels engine)
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/${_layer}/cuda_include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  endforeach()
endif()
install(EXPORT OocGraphTargets NAMESPACE ooc:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/OocGraph)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/OocGraphConfig.cmake.in
  ${PROJECT_BINARY_DIR}/OocGraphConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/OocGraph)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/OocGraphConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/OocGraphConfig.cmake ${PROJECT_BINARY_DIR}/OocGraphConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/FindNCCL.cmake ${PROJECT_SOURCE_DIR}/cmake/OocGraphPrograms.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/OocGraph)
