# cmake -DCOMPILER=... -DFLAGS=<list> -DINCLUDES=<list> -DSOURCE=<file> -P compile_check.cmake
# Compiles SOURCE. When it has a "// expected error: <text>" comment (the last of its comment
# block), the compile must fail and its first error line must contain <text>; otherwise it must
# succeed.
file(READ ${SOURCE} _text)
# The comment may run on over the next comment lines (clang-format wraps it).
string(REGEX MATCH "// expected error: [^\n]*(\n//[^\n]*)*" _expected "${_text}")
string(REPLACE "\n// " " " _expected "${_expected}")
list(REMOVE_ITEM INCLUDES /usr/include)  # a system directory: -I would reorder it
list(TRANSFORM INCLUDES PREPEND "-I")
execute_process(COMMAND ${COMPILER} ${FLAGS} ${INCLUDES} ${SOURCE}
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
