#pragma once
// DIMACS shortest-path files as graphs (the 9th DIMACS Implementation Challenge's ".gr" format,
// diag.uniroma1.it/challenge9/format.shtml): "c" comment lines, one problem line "p sp N M",
// then M arcs "a U V W", the edge U-1 -> V-1 of non-negative integer weight W.
#include <string_view>

#include "ooc/partitioner/edge_list.hpp"
#include "ooc/partitioner/readers.hpp"

namespace ooc::detail {

// Throws FormatError naming the line: a missing, malformed, repeated or non-"sp" problem line, an
// arc before it, an unknown line type, a bad arc, or an arc count that differs from M.
EdgeList parse_dimacs(std::string_view bytes, const ReadOptions& options, std::string_view name);

}  // namespace ooc::detail
