# oocgraph_gpu_sources(<target> <source>...)
#
# Compiles the listed sources of <target> — the files that call OocEngine::run() on your own
# programs — with nvcc, so that those programs run on the GPU as well as on the CPU, and links
# ooc::engine_cuda (docs/programs.md). The sources keep their .cpp names. They are compiled for
# the GPU architectures OocGraph was built for (OocGraph_CUDA_ARCHITECTURES) unless the target
# sets CUDA_ARCHITECTURES itself.
#
# Where OocGraph was built without CUDA, or the project has not enabled the CUDA language
# (project(... LANGUAGES CXX CUDA) or enable_language(CUDA)), it links ooc::engine alone and says
# so: the programs then run on the CPU backend, and a run on a GPU engine throws a message that
# names this function.
function(oocgraph_gpu_sources target)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "oocgraph_gpu_sources: ${target} is not a target")
  endif()
  get_property(_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT OocGraph_WITH_CUDA OR NOT "CUDA" IN_LIST _languages)
    if(NOT OocGraph_WITH_CUDA)
      set(_why "OocGraph was built without CUDA")
    else()
      set(_why "the CUDA language is not enabled")
    endif()
    message(STATUS "${target}: user programs on the CPU backend only (${_why})")
    target_link_libraries(${target} PRIVATE ooc::engine)
    return()
  endif()
  set_source_files_properties(${ARGN} TARGET_DIRECTORY ${target} PROPERTIES LANGUAGE CUDA)
  target_link_libraries(${target} PRIVATE ooc::engine_cuda)
  get_target_property(_architectures ${target} CUDA_ARCHITECTURES)
  if(NOT _architectures OR "${_architectures}" STREQUAL "${CMAKE_CUDA_ARCHITECTURES}")
    set_property(TARGET ${target} PROPERTY CUDA_ARCHITECTURES ${OocGraph_CUDA_ARCHITECTURES})
  endif()
  set_target_properties(${target} PROPERTIES CUDA_STANDARD 20 CUDA_STANDARD_REQUIRED ON)
endfunction()
