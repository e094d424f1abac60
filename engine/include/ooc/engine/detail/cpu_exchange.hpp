#pragma once
// The CPU executor's part in a distributed run (docs/distributed.md): combining the vertex
// arrays (and a sharing program's slots) with the other ranks after an iteration, and collecting
// an accumulative program's values at the end. Member definitions of CpuExecutor; cpu_executor.hpp
// includes this at its end.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstdint>
#include <span>

#include "ooc/engine/communicator.hpp"

namespace ooc::detail {

// Monotone programs: the values reduce with the program's own direction (min unless it says),
// and an owned vertex whose value another rank moved joins the next frontier. The rank's own
// changes keep the marks relax() left: a loaded filter task processed once more (take_next) has
// taken the marks of the vertices it ran, and marking every changed vertex again ran their lists
// twice. Accumulative ones:
// every rank's change of the deltas is summed onto the agreed deltas of the owned vertices (a
// reduce-scatter in the ranks' layout: a rank reads only its own vertices' deltas), and an owned
// vertex whose delta now reaches the activation threshold (relax() from zero says so) joins it.
// The other vertices' deltas go back to their agreed values: their change has gone to the owners.
// Where the layout's padding would make the reduce-scatter move more than an all-reduce
// (OwnedLayout::scatters), every delta is all-reduced instead.
template <class P>
void CpuExecutor<P>::exchange(Communicator& communicator, IterationStats& stats) {
  const vid_t n = g_.num_vertices();
  const auto each_word = [&](auto&& per_vertex) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, next_.num_words(), 256),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t w = r.begin(); w < r.end(); ++w) {
                          std::uint64_t bits = 0;
                          for (std::size_t b = 0; b < 64 && (w << 6) + b < n; ++b) {
                            if (per_vertex(static_cast<vid_t>((w << 6) + b)))
                              bits |= std::uint64_t{1} << b;
                          }
                          next_.words()[w] |= bits & owned_->words()[w];
                        }
                      });
  };
  if constexpr (kAccumulative) {
    const bool scattered = scatters();
    if (scattered) {
      scatter_deltas(communicator, stats);
    } else {
      tbb::parallel_for(vid_t{0}, n, [&](vid_t v) { change_[v] = deltas_[v] - agreed_[v]; });
      communicator.all_reduce(change_.span(), Reduction::sum);
      stats.exchange_bytes += std::uint64_t{n} * sizeof(Value);
    }
    // The sums are in place (every vertex, or the owned ones when scattered): mark the owned
    // vertices they activate.
    each_word([&](vid_t v) {
      if (!scattered) {
        deltas_[v] = agreed_[v] + change_[v];
        agreed_[v] = deltas_[v];
      }
      Value from_zero{};
      return activated_by(program_, deltas_[v], &from_zero, v);
    });
  } else {
    // agreed_ keeps this rank's own values through the reduction.
    tbb::parallel_for(vid_t{0}, n, [&](vid_t v) { agreed_[v] = values_[v]; });
    communicator.all_reduce(values_.span(), reduction_of<P>());
    each_word([&](vid_t v) { return values_[v] != agreed_[v]; });
    stats.exchange_bytes += std::uint64_t{n} * sizeof(Value);
  }
  if constexpr (SharingProgram<P>) exchange_slots(communicator, stats);
}

// An accumulative program's changes by a reduce-scatter in the ranks' layout: each into its slot,
// the other ranks' vertices back at their agreed deltas, then this rank's block of sums onto its
// own vertices.
template <class P>
void CpuExecutor<P>::scatter_deltas(Communicator& communicator, IterationStats& stats) {
  const OwnedLayout& layout = *layout_;
  const auto me = static_cast<std::uint32_t>(communicator.rank());
  const auto each_piece = [&](auto&& per_vertex) {
    tbb::parallel_for(std::size_t{0}, layout.pieces.size(), [&](std::size_t i) {
      const OwnedLayout::Piece& piece = layout.pieces[i];
      for (vid_t k = 0; k < piece.count; ++k)
        per_vertex(piece, piece.first + k, piece.slot + k);
    });
  };
  each_piece([&](const OwnedLayout::Piece& piece, vid_t v, std::uint64_t slot) {
    change_[slot] = deltas_[v] - agreed_[v];
    if (piece.rank != me) deltas_[v] = agreed_[v];
  });
  communicator.reduce_scatter(change_.span(), layout.block);
  each_piece([&](const OwnedLayout::Piece& piece, vid_t v, std::uint64_t slot) {
    if (piece.rank != me) return;
    deltas_[v] = agreed_[v] + change_[slot];
    agreed_[v] = deltas_[v];
  });
  stats.exchange_bytes +=
      layout.slots(static_cast<std::uint32_t>(communicator.size())) * sizeof(Value);
}

// A sharing program's slots (SharedSlots): the other ranks' sums of the slots they marked are
// added to this rank's, in one all-reduce where every rank but the first gives only the sums of
// the slots it marked (the first's others are the agreed ones, or 0 where another rank marked
// them); then the marks are ORed.
template <class P>
void CpuExecutor<P>::exchange_slots(Communicator& communicator,
                                    IterationStats& stats) requires SharingProgram<P> {
  const SharedSlots slots = program_.shared();
  const std::uint64_t words = (slots.slots + 31) / 32;
  const std::uint64_t marks = std::uint64_t{g_.num_vertices()} * words;
  if (slots.sums != nullptr) {
    const std::uint64_t count = std::uint64_t{g_.num_vertices()} * slots.slots;
    if (communicator.rank() != 0) {
      tbb::parallel_for(std::uint64_t{0}, count, [&](std::uint64_t at) {
        const std::uint64_t v = at / slots.slots, i = at % slots.slots;
        if ((slots.marks[v * words + i / 32] >> (i % 32) & 1u) == 0) slots.sums[at] = 0;
      });
    }
    communicator.all_reduce(std::span<float>(slots.sums, count), Reduction::sum);
    stats.exchange_bytes += count * sizeof(float);
  }
  communicator.all_or(std::span<std::uint32_t>(slots.marks, marks));
  stats.exchange_bytes += marks * sizeof(std::uint32_t);
}

// Accumulative programs keep each vertex's value and pending delta on its owner alone: collect
// them.
template <class P>
void CpuExecutor<P>::finish(Communicator& communicator) {
  if constexpr (kAccumulative) {
    tbb::parallel_for(vid_t{0}, g_.num_vertices(), [&](vid_t v) {
      if (!owned_->test(v)) values_[v] = deltas_[v] = Value{};
    });
    communicator.all_reduce(values_.span(), Reduction::sum);
    communicator.all_reduce(deltas_.span(), Reduction::sum);
  }
}

}  // namespace ooc::detail
