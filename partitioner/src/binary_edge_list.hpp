#pragma once
// The reader of binary edge lists (bin32, bin64, wbin32, wbin64; layout in readers.hpp).
#include <cstdint>
#include <filesystem>

#include "ooc/partitioner/edge_list.hpp"
#include "ooc/partitioner/readers.hpp"

namespace ooc::detail {

// Reads in the current task arena. Throws IoError (cannot open or read; a ".gz" name) and
// FormatError (a size that is not a whole number of records, an id above kMaxVertexId).
EdgeList read_binary_edge_list(const std::filesystem::path& path, Format format,
                               const ReadOptions& options);

// For a build that reads a regular file in parts: its record count (the same checks), and records
// [first, first + count), with num_vertices their largest id + 1 and a bad record named by its
// place in the file.
std::uint64_t binary_records(const std::filesystem::path& path, Format format);
EdgeList read_binary_part(const std::filesystem::path& path, Format format,
                          const ReadOptions& options, std::uint64_t first, std::uint64_t count);

}  // namespace ooc::detail
