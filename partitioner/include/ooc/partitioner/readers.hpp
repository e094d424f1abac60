#pragma once
// Readers for the text and binary edge-list formats users have, and the writer of our text
// export.
//   edge list  SNAP / GAP ".el" / ".txt": "src dst [weight]" per line, whitespace separated;
//              the third column, when present on the first edge line, must be present on
//              every line, and when absent there it must be absent everywhere.
//   wel        GAP weighted edge list: "src dst weight" on every line.
//   mtx        Matrix Market coordinate: pattern | integer | real, general | symmetric,
//              1-based ids; the size line fixes the vertex count (max(rows, cols)) and the
//              number of entries. "symmetric" sets EdgeList::symmetric_input. Dense (array),
//              complex, hermitian and skew-symmetric files are rejected.
//   gr         DIMACS shortest-path (9th DIMACS Implementation Challenge, ".gr"): "c ..." comment
//              lines, one problem line "p sp N M" before any arc, then M arc lines "a U V W":
//              the edge U-1 -> V-1 (ids 1 to N) of weight W, an integer from 0 to 2^32-1 (u32;
//              f32 only when forced, of the same value). The problem line fixes the vertex count
//              (N) and the number of arcs (M). Arcs are directed: a road network lists both.
//   oocg       our binary format (see oocg.hpp); not a text format, listed for detection.
//   bin32, bin64, wbin32, wbin64
//              binary edge lists: the file is a flat array of records, nothing before, between
//              or after them; every field is a little-endian unsigned integer.
//                bin32   source u32, target u32                  8 bytes a record
//                bin64   source u64, target u64                  16 bytes a record
//                wbin32  source u32, target u32, weight u32      12 bytes a record
//                wbin64  source u64, target u64, weight u32      20 bytes a record
//              Ids lie in [0, 2^32-2] as in text (the engine's ids are 32-bit); a larger id is an
//              error that names the record (0-based) and the id. The file size must be a whole
//              number of records. Weights are u32 (f32 only when forced, below). An empty file
//              is an empty EdgeList, as an empty text file is. Gzip is not read: a ".gz" name is
//              refused (no sniffing: any first bytes are valid ids). Ids as given, so the result
//              equals reading the same edges written as an edge list or .wel.
// In every text format, columns are separated by spaces and tabs, CRLF line ends are accepted,
// and blank lines and lines whose first character (after blanks) is '#' or '%' are skipped.
// Any of the text formats may be gzip-compressed (".gz" suffix, or detected by its magic
// bytes) and is read directly. Ids are decimal integers in [0, 2^32-2]; anything else is
// an error that names the file, the line and what is wrong ("g.el:3: negative vertex id '-1'").
//
// Weights: u32 when every weight of the file is an integer in [0, 2^32-1]; f32 as soon as one
// is not (a fraction, an exponent, a minus sign, or too large), then for the whole file, so a
// negative integer weight makes the file f32. Matrix Market "real" files are always f32; DIMACS
// weights are always integers (any other is an error). NaN, infinities and values out of f32's
// range are errors.
//
// Input without a single edge (empty, or only blank lines and comments) is a valid, empty
// EdgeList without weights: 0 vertices for the edge-list formats; a Matrix Market or DIMACS file
// keeps the vertex count of its size or problem line (an entirely blank one has 0).
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "ooc/partitioner/edge_list.hpp"
#include "ooc/partitioner/graph.hpp"

namespace ooc {

enum class Format { edge_list, wel, mtx, gr, oocg, bin32, bin64, wbin32, wbin64 };

std::string_view to_string(Format f);
// "el", "edgelist", "txt", "snap", "wel", "mtx", "gr", "dimacs", "oocg", "bin32", "bin64",
// "wbin32", "wbin64" -> Format; throws InvalidInput listing the accepted names.
Format parse_format(std::string_view name);
// From the file name, ignoring a ".gz" suffix: .el .txt .edges .snap -> edge_list, .wel -> wel,
// .mtx -> mtx, .gr -> gr, .oocg -> oocg, .bin32 .bin64 .wbin32 .wbin64 -> the binary edge list
// of that name. Throws InvalidInput ("cannot tell the format of 'x'; use --format") for anything
// else.
Format detect_format(const std::filesystem::path& path);
// bin32, bin64, wbin32 or wbin64.
bool is_binary_edge_list(Format format) noexcept;

struct ReadOptions {
  // Keep the weight column when the file has one; with false it is parsed and dropped.
  bool read_weights = true;
  // Weight type for text weights: by the rule above unless forced here (binary u32 weights
  // forced to f32 become the float of the same value, as the text "5" would). Forced u32 makes a
  // weight that is not an unsigned 32-bit integer an error; forced f32 parses every weight as
  // a float. Ignored when the input has no weight column.
  WeightType force_weight_type = WeightType::none;
  // Parallel parsing: the file is split into chunks at line boundaries (binary: blocks of
  // records).
  unsigned threads = 0;  // 0 = all of the task arena
};

// Reads a text format (edge_list, wel, mtx, gr), gzip or not; `path` as given names the file in
// messages. Throws IoError when the file cannot be read ("cannot open 'x': No such file or
// directory") or its gzip data is corrupt, FormatError on malformed content ("file:line: why"),
// InvalidInput for Format::oocg and the binary formats.
EdgeList read_text(const std::filesystem::path& path, Format format,
                   const ReadOptions& options = {});

// Reads a binary edge list (bin32, bin64, wbin32, wbin64). Throws IoError when the file cannot
// be read or has a ".gz" name, FormatError for a size that is not a whole number of records
// ("g.bin32: holds 13 bytes, not a whole number of 8-byte records (...)") or an id above
// 2^32-2 ("g.bin64: record 3 (at byte 48) has vertex id 4294967296, above ..."), InvalidInput
// for the other formats.
EdgeList read_binary(const std::filesystem::path& path, Format format,
                     const ReadOptions& options = {});

// Any format but oocg: read_text or read_binary, by the format.
EdgeList read_edges(const std::filesystem::path& path, Format format,
                    const ReadOptions& options = {});

// The same parser over bytes already in memory (decompressed); `name` is used in messages in
// place of the file name. The fuzz target drives this.
EdgeList parse_text(std::string_view bytes, Format format, const ReadOptions& options,
                    std::string_view name);

// Writes "src dst [weight]\n" per edge in the user's original ids (the inverse of hub sort is
// applied), in the order of the user's source ids. f32 weights are written in the shortest form
// that reads back to the same bits, with ".0" on integral values so that they read back as f32.
// Written whole or not at all (an AtomicFile: a temporary name, flushed, renamed). Throws
// IoError. Isolated vertices after the largest id that has an edge cannot be represented, so
// reading the file back may give fewer.
void write_edge_list(const Graph& graph, const std::filesystem::path& path);

}  // namespace ooc
