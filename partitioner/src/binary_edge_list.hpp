#pragma once
// The reader of binary edge lists (bin32, bin64, wbin32, wbin64; layout in readers.hpp).
#include <filesystem>

#include "ooc/partitioner/edge_list.hpp"
#include "ooc/partitioner/readers.hpp"

namespace ooc::detail {

// Reads in the current task arena. Throws IoError (cannot open or read; a ".gz" name) and
// FormatError (a size that is not a whole number of records, an id above kMaxVertexId).
EdgeList read_binary_edge_list(const std::filesystem::path& path, Format format,
                               const ReadOptions& options);

}  // namespace ooc::detail
