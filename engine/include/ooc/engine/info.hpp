#pragma once
// What this build of the library is and what it can run on.
#include <string>

namespace ooc {

// "OocGraph 0.1.0, backends: cpu cuda" and one line per GPU seen (or why none is seen).
std::string build_info();

}  // namespace ooc
