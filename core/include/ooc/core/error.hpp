#pragma once
// Errors of the library. Library code throws these and never exits; a message says what went
// wrong, where (file, line, offset, call) and, when there is one, what to do about it. Tools
// catch them at main, print the message on one line and exit non-zero.
#include <stdexcept>
#include <string>

namespace ooc {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The caller asked for something impossible: bad option, source out of range, wrong graph kind.
class InvalidInput : public Error {
 public:
  using Error::Error;
};

// A file could not be opened, read or written.
class IoError : public Error {
 public:
  using Error::Error;
};

// A file was read but its content is wrong: malformed line, corrupted or truncated .oocg.
class FormatError : public Error {
 public:
  using Error::Error;
};

// Memory (host, pinned or device) or a budget is too small for what was asked.
class OutOfMemory : public Error {
 public:
  using Error::Error;
};

// A CUDA call failed; the message names the call and what the engine was doing.
class CudaError : public Error {
 public:
  using Error::Error;
};

// The caller's RunOptions::cancelled asked the run to stop (a Python Ctrl-C, for one).
class Cancelled : public Error {
 public:
  using Error::Error;
};

// Asked for a capability this build or machine lacks (CUDA backend without a GPU, ...).
class Unsupported : public Error {
 public:
  using Error::Error;
};

}  // namespace ooc
