#pragma once
// Afforest across ranks (afforest.cpp): merging the ranks' union-find forests on the CPU. The GPU
// does the same over NCCL (cuda_backend.hpp, afforest_merge).
#include <span>

#include "ooc/core/types.hpp"
#include "ooc/engine/communicator.hpp"

namespace ooc::detail {

// Merges this rank's forest `parent` (n vertices, compressed: every vertex points at its root,
// which links with union_link made the least of its tree) with the other ranks', the same on
// every rank. The vertex range goes in chunks of `chunk`: every rank's parents of a chunk are
// gathered to every rank (`gathered` holds ranks.size() * chunk ids), which links each vertex of
// the chunk to the parent every other rank gives it; then every vertex points at its root.
// Linking moves only roots, so a chunk gathered after earlier chunks' links still holds every
// edge (v, parent(v)) of each rank's forest: the merged forest joins them all, and its roots
// (each tree's least vertex) are the same on every rank.
void merge_forests(Communicator& ranks, vid_t* parent, vid_t n, vid_t chunk,
                   std::span<vid_t> gathered);

}  // namespace ooc::detail
