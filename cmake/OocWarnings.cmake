# The project's warnings, for host and device code alike. They become errors only with
# OOC_WARNINGS_AS_ERRORS, which the presets and CI turn on: a user's own build with another
# compiler version must not stop on a warning that version adds.
option(OOC_WARNINGS_AS_ERRORS "Treat the project's warnings as errors (on in the presets and CI)" OFF)

function(ooc_set_warnings target)
  set(_host -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wnon-virtual-dtor
            -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough -Wformat=2)
  set(_device -Xcompiler=-Wall,-Wextra,-Wshadow)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # Clang's -Wconversion includes -Wsign-conversion, GCC's does not: keep both compilers alike.
    list(APPEND _host -Wno-sign-conversion)
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
     AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # GCC 12 at -O3 (Release) reports a memcpy of 2^63 bytes inside libstdc++ where a string
    # literal is prepended to a temporary std::string (GCC bug 105329). Debian 12 ships GCC 12,
    # and our error messages are built that way throughout.
    list(APPEND _host -Wno-restrict)
    list(APPEND _device -Xcompiler=-Wno-restrict)
  endif()
  if(OOC_WARNINGS_AS_ERRORS)
    list(APPEND _host -Werror)
    # nvcc: its own diagnostics as errors, and the host compiler's.
    list(APPEND _device -Werror=all-warnings -Xcompiler=-Werror)
  endif()
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${_host}>
    # (pedantic is left out for nvcc: its generated host code uses GNU line directives)
    $<$<COMPILE_LANGUAGE:CUDA>:${_device}>)
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
