#pragma once
// Compressed neighbour lists (ooc/core/codec.hpp): the encoder and the host decoder.
#include <cstdint>
#include <functional>
#include <span>

#include "ooc/core/progress.hpp"
#include "ooc/partitioner/graph.hpp"

namespace ooc {

// Sorts every list by target (weights move with their targets; hub sort renumbers targets
// without re-sorting them) and adds the compressed copy of the targets, replacing any earlier
// one; u32 weights are packed too when their range takes fewer than 32 bits (float weights stay
// raw). Parallel (oneTBB); the result does not depend on the thread count.
void compress(Graph& graph, HostMemory& memory = default_host_memory());

// Sorts every list by target, weights moving with their targets (compress's first step);
// advances `progress`, when given, by one per vertex.
void sort_lists(Graph& graph, ProgressStep* progress = nullptr);

// The weights of edges [first, first + count) from the packed copy into `out`.
void unpack_weights(const CompressedTargets& compressed, eid_t first, eid_t count,
                    std::uint32_t* out);

// Packed weights of runs of edges, one run after another from bit 0 of `out`: run i holds
// out_begin[i + 1] - out_begin[i] edges (out_begin has a run more than there are runs, the last
// entry the total), from edge source_begin(i) of the packed copy on; then codec::kPadding zero
// bytes. Returns the packed bytes. In parallel, each task writing whole bytes of its own. The
// compaction of compressed lists (a run per vertex) and the edge cache (a run per partition)
// ship weights this way.
std::uint64_t gather_packed_weights(const CompressedTargets& compressed,
                                    std::span<const eid_t> out_begin,
                                    const std::function<eid_t(std::size_t)>& source_begin,
                                    std::uint8_t* out);

// The bytes a sorted list takes, and its encoding, written to `out` (that many bytes, zeroed).
std::uint64_t compressed_list_bytes(std::span<const vid_t> sorted);
void encode_list(std::span<const vid_t> sorted, std::uint8_t* out);

// Decodes a list of `degree` targets that starts at `list` into `out`.
void decode_list(const std::uint8_t* list, eid_t degree, vid_t* out);
// Decodes only the first min(count, degree, codec::kBlock) targets of such a list: its first
// block's head, as Afforest's sampling reads them.
void decode_head(const std::uint8_t* list, eid_t degree, std::uint32_t count, vid_t* out);

// Decodes the compressed lists of vertices [first, last) into `out`, vertex first's list at
// out[0], in parallel: what a filter task of those vertices reads, on the CPU.
void decode_lists(const Graph& graph, vid_t first, vid_t last, vid_t* out);

// Leaves out the raw lists the compressed copy holds (partition-tool --compress-only): the
// targets, and the weights when they are packed (float weights, and a range of 32 bits, stay
// raw). The graph is then compressed-only (Graph::has_raw_lists). Throws InvalidInput for a
// graph without a compressed copy.
void drop_raw_lists(Graph& graph);

// The raw targets (and weights, when only packed) of a compressed-only graph, decoded from the
// compressed copy in parallel into `memory`, for what reads raw lists (the serial references,
// partition-tool export). Does nothing to a graph that has them.
void decode_raw_lists(Graph& graph, HostMemory& memory = default_host_memory());

// Checks the compressed copy against the graph: one offset per vertex and one more, starting at
// 0, never decreasing, each list exactly as long as its encoding, every list decoding to the
// vertex's targets; packed weights as long as their width says, unpacking to the weights. Of a
// compressed-only graph, every list decoding, within its bytes, to targets that are vertices.
// Throws FormatError naming the first vertex (or edge) at fault.
void check_compressed(const Graph& graph);

}  // namespace ooc
