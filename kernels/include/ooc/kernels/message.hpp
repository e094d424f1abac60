#pragma once
// What a vertex sends along its out-edges, and how an edge hands it to the program (programs.hpp).
// A program's relax() takes the message, the edge's weight and the target's value; a program
// that also needs the edge's ids declares relax(message, weight, dst, source, target) instead,
// and its messages then carry their source vertex. Everything here is compiled away for the
// programs that do not.
#include <concepts>
#include <cstdint>
#include <type_traits>

#include "ooc/core/hd.hpp"
#include "ooc/core/types.hpp"

namespace ooc {

// A program whose relax() takes the edge's source and target (internal ids).
template <class P>
concept EdgeAwareProgram = requires(const P& p, typename P::Value m, std::uint32_t w,
                                    typename P::Value* dst, vid_t v) {
  { p.relax(m, w, dst, v, v) } -> std::same_as<bool>;
};

// A program that settles its vertices between iterations (program_contract.hpp): after iteration
// `iteration` (counted from 0) has relaxed every edge it takes, the engine asks every vertex
// settle(v, iteration), and those it returns true for join the next frontier.
template <class P>
concept SettlingProgram = requires(const P& p, vid_t v, std::uint32_t iteration) {
  { p.settle(v, iteration) } -> std::same_as<bool>;
};

// The slots a settling program keeps per vertex beside its value (a batch's sources,
// batch_programs.hpp), as shared() hands them to the engine. relax() marks the slots it reaches in
// an iteration and adds to their sums; a slot is marked in one iteration only, and its sum is 0
// before it. Across ranks the engine combines them after each iteration, before settle(): the marks
// with OR, the marked slots' sums added up over the ranks (program_contract.hpp).
struct SharedSlots {
  std::uint32_t slots = 0;         // per vertex
  std::uint32_t* marks = nullptr;  // per vertex, (slots + 31) / 32 words: bit i marks slot i
  float* sums = nullptr;           // per (vertex, slot), at v * slots + i; null: marks only
};

// A settling program whose relax() changes slots of its own (SharedSlots): it can run across ranks.
template <class P>
concept SharingProgram = SettlingProgram<P> && requires(const P& p) {
  { p.shared() } -> std::same_as<SharedSlots>;
};

template <class Value>
struct SourcedMessage {
  Value value;
  vid_t source;
};

template <class P>
using Message =
    std::conditional_t<EdgeAwareProgram<P>, SourcedMessage<typename P::Value>, typename P::Value>;

// The message vertex `source` sends: its value (monotone programs) or message() of its delta.
template <class P>
OOC_HD OOC_FORCEINLINE Message<P> make_message(typename P::Value value, vid_t source) {
  if constexpr (EdgeAwareProgram<P>) {
    return {value, source};
  } else {
    return value;
  }
}

// Relaxes the edge to `target`, whose value (or delta) is values[target].
template <class P>
OOC_HD OOC_FORCEINLINE bool relax_edge_to(const P& program, const Message<P>& message,
                                          std::uint32_t weight, typename P::Value* values,
                                          vid_t target) {
  if constexpr (EdgeAwareProgram<P>) {
    return program.relax(message.value, weight, values + target, message.source, target);
  } else {
    return program.relax(message, weight, values + target);
  }
}

// Distributed runs of accumulative programs: whether a pending delta d activates vertex v, asked
// as relax() of d onto a zero (`zero`: scratch the atomics can use), from v to itself for the
// programs that take ids.
template <class P>
OOC_HD OOC_FORCEINLINE bool activated_by(const P& program, typename P::Value d,
                                         typename P::Value* zero, vid_t v) {
  if constexpr (EdgeAwareProgram<P>) {
    return program.relax(d, 0, zero, v, v);
  } else {
    return program.relax(d, 0, zero);
  }
}

}  // namespace ooc
