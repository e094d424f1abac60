#pragma once
// Sizes as users write them ("32MiB", "8GB", "4096") and as we print them.
#include <cstdint>
#include <string>
#include <string_view>

namespace ooc {

// Binary units: K, KiB, M, MiB, G, GiB, T, TiB (case-insensitive); decimal: KB, MB, GB, TB;
// a bare number or "B" is bytes. Fractions are allowed ("1.5GiB"). Throws InvalidInput.
std::uint64_t parse_size(std::string_view text);

// "512 B", "32.0 MiB", "8.40 GiB".
std::string format_bytes(std::uint64_t bytes);

// "2147483648" -> "2,147,483,648"
std::string with_commas(std::uint64_t n);

}  // namespace ooc
