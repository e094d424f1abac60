# Warnings are errors, for host and device code alike.
function(ooc_set_warnings target)
  set(_host -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wnon-virtual-dtor
            -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough -Wformat=2 -Werror)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # Clang's -Wconversion includes -Wsign-conversion, GCC's does not: keep both compilers alike.
    list(APPEND _host -Wno-sign-conversion)
  endif()
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${_host}>
    # nvcc: its own diagnostics as errors, and the host compiler's (pedantic is left out:
    # nvcc's generated host code uses GNU line directives).
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Wshadow,-Werror>)
endfunction()

# A library of the project: warnings, C++20, and one include root per layer.
function(ooc_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  string(REPLACE "ooc_" "" _short ${name})
  add_library(ooc::${_short} ALIAS ${name})
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${_short})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  ooc_set_warnings(${name})
endfunction()
