# cmake -DCOMPILER=... -DFLAGS=<list> -DINCLUDES=<list> -DOWN=<list> -DSOURCE=<file>
#       -P compile_check.cmake
# Compiles SOURCE. When it has a "// expected error: <text>" comment (the last of its comment
# block), the compile must fail and its first error line must contain <text>; otherwise it must
# succeed.
file(READ ${SOURCE} _text)
# The comment may run on over the next comment lines (clang-format wraps it).
string(REGEX MATCH "// expected error: [^\n]*(\n//[^\n]*)*" _expected "${_text}")
string(REPLACE "\n// " " " _expected "${_expected}")
list(REMOVE_ITEM INCLUDES /usr/include)  # a system directory: -I would reorder it
# The project's own headers (under a directory in OWN) with -I, so that the warnings flags hold
# them; the dependencies' (oneTBB, CUDA, ... wherever they are installed) as system headers, as an
# application's build sees them.
set(_flags)
foreach(_dir IN LISTS INCLUDES)
  set(_flag -isystem "${_dir}")  # two words: nvcc takes no -isystemDIR
  foreach(_own IN LISTS OWN)
    string(FIND "${_dir}" "${_own}" _at)
    if(_at EQUAL 0)
      set(_flag "-I${_dir}")
    endif()
  endforeach()
  list(APPEND _flags ${_flag})
endforeach()
execute_process(COMMAND ${COMPILER} ${FLAGS} ${_flags} ${SOURCE}
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _expected)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${SOURCE} keeps the contract but does not compile:\n${_out}")
  endif()
  return()
endif()
string(REPLACE "// expected error: " "" _expected "${_expected}")
if(_rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} breaks the contract but compiled")
endif()
# gcc/clang: "file:line:col: error: ..."; nvcc: "file(line): error: ...".
string(REGEX MATCH "[^\n]*error:[^\n]*" _first "${_out}")
string(FIND "${_first}" "${_expected}" _at)
if(_at EQUAL -1)
  message(FATAL_ERROR "first error is not \"${_expected}\":\n${_out}")
endif()
message(STATUS "first error: ${_first}")
