#pragma once
// Readers for the text formats users have and the writer of our text export.
//   edge list  SNAP / GAP ".el" / ".txt": "src dst [weight]" per line, whitespace separated,
//              lines starting with '#' or '%' are comments; the third column, when present on
//              the first edge line, must be present on every line.
//   wel        GAP weighted edge list: "src dst weight" on every line.
//   mtx        Matrix Market coordinate: pattern | integer | real, general | symmetric,
//              1-based ids; the size line fixes the vertex count.
//   oocg       our binary format (see oocg.hpp); not a text format, listed for detection.
// Any of the text formats may be gzip-compressed (".gz" suffix, or detected by its magic
// bytes) and is read directly. Ids are decimal integers in [0, 2^32-2]; anything else is
// an error that names the file, the line and what is wrong.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "ooc/partitioner/edge_list.hpp"
#include "ooc/partitioner/graph.hpp"

namespace ooc {

enum class Format { edge_list, wel, mtx, oocg };

std::string_view to_string(Format f);
// "el", "edgelist", "txt", "snap", "wel", "mtx", "oocg" -> Format; throws InvalidInput listing
// the accepted names.
Format parse_format(std::string_view name);
// From the file name, ignoring a ".gz" suffix: .el .txt .edges .snap -> edge_list, .wel -> wel,
// .mtx -> mtx, .oocg -> oocg. Throws InvalidInput ("cannot tell the format of 'x'; use
// --format") for anything else.
Format detect_format(const std::filesystem::path& path);

struct ReadOptions {
  // Keep the weight column when the file has one; with false it is parsed and dropped.
  bool read_weights = true;
  // Weight type for text weights: u32 unless a weight has a fraction or exponent (then f32),
  // or forced here.
  WeightType force_weight_type = WeightType::none;
  // Parallel parsing: the file is split into chunks at line boundaries.
  unsigned threads = 0;  // 0 = all of the task arena
};

// Reads a text format (edge_list, wel, mtx), gzip or not. Throws IoError when the file cannot
// be read, FormatError on malformed content ("file:line: why").
EdgeList read_text(const std::filesystem::path& path, Format format, const ReadOptions& options = {});

// The same parser over bytes already in memory (decompressed); `name` is used in messages in
// place of the file name. The fuzz target drives this.
EdgeList parse_text(std::string_view bytes, Format format, const ReadOptions& options,
                    std::string_view name);

// Writes "src dst [weight]\n" per edge in the user's original ids (the inverse of hub sort is
// applied), in the order of the user's source ids. Written to a temporary name and renamed.
void write_edge_list(const Graph& graph, const std::filesystem::path& path);

}  // namespace ooc
