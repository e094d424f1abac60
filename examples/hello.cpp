// The smallest application of the library: print the version and the GPUs it sees.
#include <cstdio>

#include "ooc/engine/info.hpp"

int main() {
  std::printf("%s\n", ooc::build_info().c_str());
  return 0;
}
