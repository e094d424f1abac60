#pragma once
// Matrix Market coordinate files as graphs (the format: math.nist.gov/MatrixMarket/formats.html).
// Entry (i, j) is the edge i-1 -> j-1; the size line fixes the vertex count at max(rows, cols).
#include <string_view>

#include "ooc/partitioner/edge_list.hpp"
#include "ooc/partitioner/readers.hpp"

namespace ooc::detail {

// Throws FormatError naming the line: a missing or unsupported banner (array, complex, hermitian,
// skew-symmetric), a bad size line, a bad entry, or an entry count that differs from the header.
EdgeList parse_matrix_market(std::string_view bytes, const ReadOptions& options,
                             std::string_view name);

}  // namespace ooc::detail
