#pragma once
// The graph-program contract, as concepts the compiler checks (docs/programs.md explains it
// with examples; programs.hpp holds the built-in programs).
//
// A program is a small, trivially copyable struct whose member functions are OOC_HD, so the same
// code runs in CUDA kernels and in the CPU backend's loops. The engine owns the vertex arrays and
// calls the program per active vertex and per out-edge. Two kinds:
// - Monotone (BFS, SSSP, CC, widest path): one value per vertex that only moves one way. relax()
//   atomically moves *dst toward what src offers along the edge, true when *dst changed (which
//   puts the target in the next frontier).
// - Accumulative (PageRank in the delta form of Maiter/HyTGraph): a value and a pending delta. The
//   engine takes an active vertex's delta with an atomic exchange (no contribution lost or applied
//   twice), adds it to the value, and sends message(delta, out_degree) along every out-edge; a
//   vertex without out-edges absorbs its delta. relax() atomically adds to the target's delta,
//   true when the delta crossed the activation threshold. The result is value + leftover delta.
// Under this contract any processing order gives the same answer (monotone programs) or the same
// answer within the threshold (accumulative ones), which is what makes asynchronous, prioritised,
// partition-by-partition scheduling safe. The compiler cannot check that; it checks the members:
//
//   using Value = std::uint32_t or float;      the engine's atomics and the ranks' exchange
//   static constexpr ProgramKind kind;          monotone or accumulative
//   static constexpr bool needs_weights, needs_symmetric;
//   Value init(vid_t v) const;                  value before the first iteration
//   bool active_at_start(vid_t v) const;        the first frontier
//   bool relax(Value message, std::uint32_t weight, Value* dst) const;
//   or bool relax(Value message, std::uint32_t weight, Value* dst, vid_t source, vid_t target)
//       const, to read arrays of its own by the edge's (internal) ids, as betweenness centrality
//       does: its messages then carry their source, and in a distributed run an accumulative one
//       is asked whether a delta d from the other ranks activates v as relax(d, 0, &zero, v, v).
//       Weights arrive as their 32-bit pattern (weight_as_float() reads an f32 one).
// Accumulative programs also:
//   Value init_delta(vid_t v) const;            the pending delta before the first iteration
//   Value message(Value delta, eid_t out_degree) const;   what each out-edge carries
// Monotone programs also:
//   static constexpr Reduction combine;         how the ranks of a distributed run combine their
//       copies of a value: Reduction::min for a value that only falls, Reduction::max for one
//       that only grows. Required: the type cannot tell which way relax() moves a value, and a
//       wrong guess would give wrong answers on several ranks only.
// Optional:
//   static constexpr bool ordered;              a smaller value (monotone) or a larger pending
//       delta (accumulative) is more urgent, and processing it first saves work (priority.hpp)
//   Value offer(Value message, std::uint32_t weight) const;   the pull direction (below)
//   Value pull_floor(Value least) const;        with offer, for min-combining monotone programs
//   double least_delta_per_edge() const;        accumulative programs: an active vertex is
//       processed only while its pending delta per out-edge (a vertex without out-edges counts
//       one) is at least this (Andersen, Chung and Lang's push rule); a smaller delta stays
//       pending, in the result, and the run ends when no vertex reaches it. Its activation
//       threshold (relax()) should be this value or below: a vertex relax() never activated is
//       never processed. 0: no floor.
//   bool settle(vid_t v, std::uint32_t iteration) const;   level-synchronous programs (the
//       batched traversals, batch_programs.hpp): after iteration `iteration` (from 0) every
//       vertex is asked, after the iteration's last relax, and those it returns true for join the
//       next frontier besides the ones relax() activated. A settling program runs bulk-synchronous
//       (the engine turns priority scheduling off for it) and takes the edge's ids. Across ranks
//       it needs shared():
//   SharedSlots shared() const;                  with settle: the slots per vertex that relax()
//       changes beside the target's value (message.hpp). relax() marks a slot (an atomic OR of its
//       bit) when it adds to the slot's sum; a slot is marked in one iteration only, and its sum
//       is 0 on every rank before that iteration. After each iteration the ranks OR their marks
//       and add up the marked slots' sums; then settle() runs, and clears the marks.
//
// The pull direction (EngineOptions::direction) runs a program whose relax() is a pure combine of
// offer(): what relax() would combine into the target along the edge, with no other effect.
// Monotone programs combine offers with their reduction, and relax(m, w, dst) must be that
// combine of offer(m, w) into *dst; accumulative ones add offers up, and relax(m, 0, dst) must add
// exactly m (offer(m, 0) == m). pull_floor(least) is the least any edge can offer when every
// frontier vertex holds at least `least` (BFS: least + 1), so that a pulling vertex that reaches
// it stops reading its list (Beamer's bottom-up step). Programs that take the edge's ids do not
// pull.
//
// Member functions must have these signatures exactly (a weight taken as float, or a degree as
// vid_t, would compile through a conversion and run wrong). OocEngine::run() takes GraphProgram
// types only; for any other type, ProgramCheck below reports each broken requirement as one
// "OocGraph program: ..." error line at the call.
#include <concepts>
#include <cstdint>
#include <type_traits>

#include "ooc/core/types.hpp"
#include "ooc/engine/communicator.hpp"
#include "ooc/kernels/message.hpp"

namespace ooc {

namespace contract {

template <auto>
struct Constant {};  // names a constant expression

template <class P>
concept HasValue = requires {
  typename P::Value;
};
template <class P>
concept PlainValue =
    std::same_as<typename P::Value, std::uint32_t> || std::same_as<typename P::Value, float>;

template <class P>
concept HasKind = requires {
  typename Constant<P::kind>;
  requires std::same_as<std::remove_cv_t<decltype(P::kind)>, ProgramKind>;
};
template <class P, ProgramKind K>
concept IsKind = HasKind<P> && P::kind == K;
template <class P>
concept HasNeedsWeights = requires {
  typename Constant<P::needs_weights>;
  requires std::same_as<bool, std::remove_cv_t<decltype(P::needs_weights)>>;
};
template <class P>
concept HasNeedsSymmetric = requires {
  typename Constant<P::needs_symmetric>;
  requires std::same_as<bool, std::remove_cv_t<decltype(P::needs_symmetric)>>;
};

// Exact member-function signatures: the cast picks the overload, or deduces a template's
// arguments, of exactly this type, and nothing else.
template <class P>
concept HasInit = requires {
  static_cast<typename P::Value (P::*)(vid_t) const>(&P::init);
};
template <class P>
concept HasActiveAtStart = requires {
  static_cast<bool (P::*)(vid_t) const>(&P::active_at_start);
};
template <class P>
concept HasRelax = requires {
  static_cast<bool (P::*)(typename P::Value, std::uint32_t, typename P::Value*) const>(&P::relax);
};
template <class P>
concept HasRelaxWithIds = requires {
  static_cast<bool (P::*)(typename P::Value, std::uint32_t, typename P::Value*, vid_t, vid_t)
                  const>(&P::relax);
};
// Either form; and where the engine would call the form with ids (EdgeAwareProgram), that one.
template <class P>
concept HasEitherRelax = HasRelax<P> || HasRelaxWithIds<P>;
template <class P>
concept RelaxWithIdsIfCalled = !EdgeAwareProgram<P> || HasRelaxWithIds<P>;
template <class P>
concept RelaxIsRight = HasEitherRelax<P> && RelaxWithIdsIfCalled<P>;

template <class P>
concept HasInitDelta = requires {
  static_cast<typename P::Value (P::*)(vid_t) const>(&P::init_delta);
};
template <class P>
concept HasMessage = requires {
  static_cast<typename P::Value (P::*)(typename P::Value, eid_t) const>(&P::message);
};

// Optional members: when declared, of the right type.
template <class P>
concept DeclaresOrdered = requires {
  P::ordered;
};
template <class P>
concept OrderedIsRight = !DeclaresOrdered<P> || requires {
  typename Constant<P::ordered>;
  requires std::same_as<bool, std::remove_cv_t<decltype(P::ordered)>>;
};

template <class P>
concept DeclaresCombine = requires {
  P::combine;
};
template <class P>
concept CombineIsRight = !DeclaresCombine<P> || requires {
  typename Constant<P::combine>;
  requires std::same_as<std::remove_cv_t<decltype(P::combine)>, Reduction>;
  requires P::combine == Reduction::min || P::combine == Reduction::max;
};

// Declared: one function of that name, or a call that resolves (overloads, templates).
template <class P>
concept NamesOffer = requires {
  &P::offer;
};
template <class P>
concept CallsOffer = requires(const P& p, typename P::Value m, std::uint32_t w) {
  p.offer(m, w);
};
template <class P>
concept DeclaresOffer = NamesOffer<P> || CallsOffer<P>;
template <class P>
concept OfferIsRight = !DeclaresOffer<P> || requires {
  static_cast<typename P::Value (P::*)(typename P::Value, std::uint32_t) const>(&P::offer);
};

template <class P>
concept NamesSettle = requires {
  &P::settle;
};
template <class P>
concept SettleIsRight = !NamesSettle<P> || requires {
  static_cast<bool (P::*)(vid_t, std::uint32_t) const>(&P::settle);
};
// A settling program reads its frontier from arrays of its own, by the edge's ids.
template <class P>
concept SettlesWithIds = !NamesSettle<P> || EdgeAwareProgram<P>;

template <class P>
concept NamesShared = requires {
  &P::shared;
};
template <class P>
concept SharedIsRight = !NamesShared<P> || requires {
  static_cast<SharedSlots (P::*)() const>(&P::shared);
};
// The slots are combined before settle(), which clears their marks.
template <class P>
concept SharesWithSettle = !NamesShared<P> || NamesSettle<P>;

template <class P>
concept NamesPullFloor = requires {
  &P::pull_floor;
};
template <class P>
concept CallsPullFloor = requires(const P& p, typename P::Value least) {
  p.pull_floor(least);
};
template <class P>
concept DeclaresPullFloor = NamesPullFloor<P> || CallsPullFloor<P>;
template <class P>
concept PullFloorIsRight = !DeclaresPullFloor<P> || requires {
  static_cast<typename P::Value (P::*)(typename P::Value) const>(&P::pull_floor);
};

template <class P>
concept NamesLeastDelta = requires {
  &P::least_delta_per_edge;
};
template <class P>
concept LeastDeltaIsRight = !NamesLeastDelta<P> || requires {
  static_cast<double (P::*)() const>(&P::least_delta_per_edge);
};

// pull_floor serves the pull direction of a program that combines with min.
template <class P>
concept CombinesWithMin = !DeclaresCombine<P> || requires {
  requires P::combine == Reduction::min;
};
template <class P>
concept PullFloorFits = !DeclaresPullFloor<P> || (DeclaresOffer<P> && CombinesWithMin<P>);

template <class P>
struct ValueOr {
  using type = std::uint32_t;
};
template <class P>
requires HasValue<P> && PlainValue<P>
struct ValueOr<P> {
  using type = typename P::Value;
};

// What every program has, whichever its kind.
template <class P>
concept CommonMembers = std::is_trivially_copyable_v<P> && HasValue<P> && PlainValue<P> &&
    HasKind<P> && HasNeedsWeights<P> && HasNeedsSymmetric<P> && HasInit<P> && HasActiveAtStart<P> &&
    RelaxIsRight<P> && OrderedIsRight<P> && OfferIsRight<P> && PullFloorIsRight<P> &&
    LeastDeltaIsRight<P> && SettleIsRight<P> && SettlesWithIds<P>;

}  // namespace contract

template <class P>
concept MonotoneProgram = contract::CommonMembers<P> &&
    contract::IsKind<P, ProgramKind::monotone> && contract::DeclaresCombine<P> &&
    contract::CombineIsRight<P> && contract::PullFloorFits<P> && !contract::NamesLeastDelta<P>;

template <class P>
concept AccumulativeProgram =
    contract::CommonMembers<P> && contract::IsKind<P, ProgramKind::accumulative> &&
    contract::HasInitDelta<P> && contract::HasMessage<P> && !contract::DeclaresCombine<P> &&
    !contract::DeclaresPullFloor<P>;

template <class P>
concept GraphProgram = MonotoneProgram<P> || AccumulativeProgram<P>;

// Whether a program declares `ordered` (and it is true).
template <class P>
constexpr bool is_ordered() {
  if constexpr (requires { P::ordered; }) {
    return P::ordered;
  } else {
    return false;
  }
}

// How the ranks of a distributed run combine a monotone program's values (its `combine`; the
// min for a type that declares none, which only a program that is not monotone may be).
template <class P>
constexpr Reduction reduction_of() {
  if constexpr (requires { P::combine; }) {
    return P::combine;
  } else {
    return Reduction::min;
  }
}

// A program that can run in the pull direction, and one whose pulling vertices may stop early.
template <class P>
concept PullProgram =
    !EdgeAwareProgram<P> && requires(const P& p, typename P::Value m, std::uint32_t w) {
  { p.offer(m, w) } -> std::same_as<typename P::Value>;
};
template <class P>
concept PullFloorProgram = PullProgram<P> && requires(const P& p, typename P::Value least) {
  { p.pull_floor(least) } -> std::same_as<typename P::Value>;
};

// Completing ProgramCheck<P> fails with one "OocGraph program: ..." line per broken requirement
// of P (a requirement that needs another, as init needs Value, is checked once that one holds),
// and otherwise names P::Value. OocEngine::run() returns through it for a type that is not a
// GraphProgram, so these lines are the first errors, at the call.
template <class P>
struct ProgramCheck {
 private:
  static constexpr bool kValue = contract::HasValue<P> && contract::PlainValue<P>;
  static constexpr bool kMonotone = contract::IsKind<P, ProgramKind::monotone>;
  static constexpr bool kAccumulative = contract::IsKind<P, ProgramKind::accumulative>;

  static_assert(std::is_trivially_copyable_v<P>,
                "OocGraph program: the program must be trivially copyable (the engine copies it "
                "into every kernel)");
  static_assert(contract::HasValue<P>, "OocGraph program: missing 'using Value = ...;'");
  static_assert(!contract::HasValue<P> || contract::PlainValue<P>,
                "OocGraph program: 'Value' must be std::uint32_t or float");
  static_assert(contract::HasKind<P>,
                "OocGraph program: missing 'static constexpr ooc::ProgramKind kind'");
  static_assert(!contract::HasKind<P> || kMonotone || kAccumulative,
                "OocGraph program: 'kind' must be ProgramKind::monotone or accumulative");
  static_assert(contract::HasNeedsWeights<P>,
                "OocGraph program: missing 'static constexpr bool needs_weights'");
  static_assert(contract::HasNeedsSymmetric<P>,
                "OocGraph program: missing 'static constexpr bool needs_symmetric'");
  static_assert(contract::OrderedIsRight<P>,
                "OocGraph program: 'ordered' must be a 'static constexpr bool'");
  static_assert(!kValue || contract::HasInit<P>,
                "OocGraph program: missing or wrong 'Value init(vid_t) const'");
  static_assert(contract::HasActiveAtStart<P>,
                "OocGraph program: missing or wrong 'bool active_at_start(vid_t) const'");
  static_assert(!kValue || contract::HasRelax<P> || contract::HasRelaxWithIds<P>,
                "OocGraph program: missing or wrong 'bool relax(Value, std::uint32_t weight, "
                "Value* dst) const' (or the form that adds 'vid_t source, vid_t target')");
  static_assert(!kValue || !EdgeAwareProgram<P> || contract::HasRelaxWithIds<P>,
                "OocGraph program: wrong 'bool relax(Value, std::uint32_t weight, Value* dst, "
                "vid_t source, vid_t target) const'");
  static_assert(!kValue || contract::OfferIsRight<P>,
                "OocGraph program: wrong 'Value offer(Value, std::uint32_t weight) const'");
  static_assert(!kValue || contract::PullFloorIsRight<P>,
                "OocGraph program: wrong 'Value pull_floor(Value least) const'");
  static_assert(contract::LeastDeltaIsRight<P>,
                "OocGraph program: wrong 'double least_delta_per_edge() const'");

  static_assert(contract::SettleIsRight<P>,
                "OocGraph program: wrong 'bool settle(vid_t, std::uint32_t iteration) const'");
  static_assert(!kValue || contract::SettlesWithIds<P>,
                "OocGraph program: 'settle' needs the relax() that takes the edge's ids (a "
                "settling program keeps its frontier in arrays of its own)");
  static_assert(contract::SharedIsRight<P>,
                "OocGraph program: wrong 'ooc::SharedSlots shared() const'");
  static_assert(contract::SharesWithSettle<P>,
                "OocGraph program: 'shared' needs 'bool settle(vid_t, std::uint32_t iteration) "
                "const' (it clears the marks between iterations)");
  static_assert(!kAccumulative || !kValue || contract::HasInitDelta<P>,
                "OocGraph program: accumulative, so needs 'Value init_delta(vid_t) const'");
  static_assert(!kAccumulative || !kValue || contract::HasMessage<P>,
                "OocGraph program: accumulative, so needs 'Value message(Value delta, eid_t "
                "out_degree) const'");
  static_assert(!kAccumulative || !contract::DeclaresCombine<P>,
                "OocGraph program: 'combine' is for monotone programs (the ranks add up an "
                "accumulative one's deltas)");
  static_assert(!kAccumulative || !kValue || !contract::DeclaresPullFloor<P>,
                "OocGraph program: 'pull_floor' is for monotone programs");
  static_assert(!kMonotone || !contract::NamesLeastDelta<P>,
                "OocGraph program: 'least_delta_per_edge' is for accumulative programs (a "
                "monotone one has no pending delta)");
  static_assert(!kMonotone || contract::CombineIsRight<P>,
                "OocGraph program: 'combine' must be 'static constexpr ooc::Reduction combine = "
                "ooc::Reduction::min' (or max)");
  static_assert(!kMonotone || !kValue || !contract::DeclaresPullFloor<P> ||
                    contract::DeclaresOffer<P>,
                "OocGraph program: 'pull_floor' needs 'offer' (it serves the pull direction)");
  static_assert(!kMonotone || !kValue || !contract::DeclaresPullFloor<P> ||
                    contract::CombinesWithMin<P>,
                "OocGraph program: 'pull_floor' is for programs that combine with min");
  static_assert(!kMonotone || contract::DeclaresCombine<P>,
                "OocGraph program: monotone, so needs 'static constexpr ooc::Reduction combine' "
                "(Reduction::min for a value that only falls, max for one that only grows)");

 public:
  using Value = typename contract::ValueOr<P>::type;
};

}  // namespace ooc
