#pragma once
// Counter-based randomness: value i of a stream is a pure function of (seed, i), so parallel
// generators give the same graph for a seed whatever the thread count or chunking.
#include <cstdint>

namespace ooc::detail {

// SplitMix64's finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mix.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

constexpr std::uint64_t hash2(std::uint64_t seed, std::uint64_t i) {
  return mix64(seed ^ mix64(i));
}

// A small stream for one item (one edge): splitmix64 started at hash2(seed, item).
class Stream {
 public:
  constexpr Stream(std::uint64_t seed, std::uint64_t item) : state_(hash2(seed, item)) {}
  constexpr std::uint64_t next() {
    state_ += 0x9e3779b97f4a7c15ull;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

// A bijection on `bits`-bit integers keyed by seed (xorshift-multiply rounds, each invertible
// modulo 2^bits). Used to permute Kronecker vertex labels without storing a permutation.
class BitPermutation {
 public:
  BitPermutation(unsigned bits, std::uint64_t seed) : bits_(bits) {
    const std::uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    mask_ = mask;
    for (int r = 0; r < kRounds; ++r) {
      mult_[r] = (hash2(seed, 2 * r) | 1u) & mask;  // odd: invertible modulo 2^bits
      add_[r] = hash2(seed, 2 * r + 1) & mask;
    }
  }
  std::uint64_t operator()(std::uint64_t x) const {
    const unsigned shift = bits_ / 2 + 1;
    for (int r = 0; r < kRounds; ++r) {
      x = (x * mult_[r] + add_[r]) & mask_;
      x ^= x >> shift;
    }
    return x;
  }

 private:
  static constexpr int kRounds = 4;
  unsigned bits_;
  std::uint64_t mask_ = 0;
  std::uint64_t mult_[kRounds] = {};
  std::uint64_t add_[kRounds] = {};
};

}  // namespace ooc::detail
