#pragma once
// The cases of a parameterised test: every combination of its axes' values (the full product),
// or, in a build configured with OOC_TEST_PRODUCTS=pairwise (the sanitizer build, where a case
// runs about 6x slower), a pairwise set: every pair of values of any two axes appears in at least
// one case, so every value of every axis still runs, and every interaction of two, with a tenth of
// the cases (program x shape x policy x priority: 864 -> 73). The full products run in the
// default build (scripts/test.sh says which stage covers what).
#include <algorithm>
#include <cstddef>
#include <tuple>
#include <utility>
#include <vector>

namespace ooc::test {

#ifdef OOC_TEST_PAIRWISE
inline constexpr bool kPairwiseProducts = true;
#else
inline constexpr bool kPairwiseProducts = false;
#endif

using Row = std::vector<std::size_t>;  // a case as the index of its value on each axis

// Every row of the product of axes of `sizes` values, the last axis fastest (as
// ::testing::Combine orders them, so the tests keep their names and order).
inline std::vector<Row> full_rows(const std::vector<std::size_t>& sizes) {
  std::vector<Row> rows;
  if (std::find(sizes.begin(), sizes.end(), std::size_t{0}) != sizes.end()) return rows;
  Row row(sizes.size(), 0);
  for (;;) {
    rows.push_back(row);
    std::size_t a = sizes.size();
    while (a > 0 && ++row[a - 1] == sizes[a - 1])
      row[--a] = 0;
    if (a == 0) return rows;
  }
}

// A covering array of strength 2 over the product: greedily (as AETG does), the row of the full
// product that covers the most pairs not yet covered, the earliest on a tie, until every pair is
// covered. Deterministic, so every build lists the same cases. Rows keep the product's order.
inline std::vector<Row> pairwise_rows(const std::vector<std::size_t>& sizes) {
  std::vector<Row> all = full_rows(sizes);
  const std::size_t axes = sizes.size();
  if (axes < 2) return all;
  // Pair (a, i) x (b, j), a < b: bit first[a][b] + i * sizes[b] + j of `covered`.
  std::vector<std::vector<std::size_t>> first(axes, std::vector<std::size_t>(axes, 0));
  std::size_t pairs = 0;
  for (std::size_t a = 0; a < axes; ++a) {
    for (std::size_t b = a + 1; b < axes; ++b) {
      first[a][b] = pairs;
      pairs += sizes[a] * sizes[b];
    }
  }
  std::vector<bool> covered(pairs, false);
  const auto each_pair = [&](const Row& row, auto&& f) {
    for (std::size_t a = 0; a < axes; ++a) {
      for (std::size_t b = a + 1; b < axes; ++b)
        f(first[a][b] + row[a] * sizes[b] + row[b]);
    }
  };
  std::vector<bool> taken(all.size(), false);
  for (std::size_t left = pairs; left > 0;) {
    std::size_t best = 0, best_new = 0;
    for (std::size_t r = 0; r < all.size(); ++r) {
      if (taken[r]) continue;
      std::size_t fresh = 0;
      each_pair(all[r], [&](std::size_t p) { fresh += covered[p] ? 0 : 1; });
      if (fresh > best_new) {
        best = r;
        best_new = fresh;
      }
    }
    taken[best] = true;
    each_pair(all[best], [&](std::size_t p) { covered[p] = true; });
    left -= best_new;
  }
  std::vector<Row> rows;
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (taken[r]) rows.push_back(all[r]);
  }
  return rows;
}

// The cases over `axes`: the full product, or the pairwise set in a pairwise build.
template <class... T>
std::vector<std::tuple<T...>> cases(const std::vector<T>&... axes) {
  const auto axis = std::tie(axes...);
  std::vector<std::tuple<T...>> out;
  for (const Row& row :
       kPairwiseProducts ? pairwise_rows({axes.size()...}) : full_rows({axes.size()...})) {
    out.push_back([&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::tuple<T...>{std::get<I>(axis)[row[I]]...};
    }(std::index_sequence_for<T...>{}));
  }
  return out;
}

// Flat cases (a, b, ..., last) as ((a, b, ...), last): for tests that add an axis (ranks, a
// mapping) to a shared product and name their cases by it, pairwise over all the axes.
template <class... A>
auto nest_last(const std::vector<std::tuple<A...>>& flat) {
  constexpr std::size_t n = sizeof...(A) - 1;
  const auto split = [&]<std::size_t... I>(const std::tuple<A...>& t, std::index_sequence<I...>) {
    return std::make_tuple(std::make_tuple(std::get<I>(t)...), std::get<n>(t));
  };
  std::vector<decltype(split(flat.front(), std::make_index_sequence<n>{}))> out;
  for (const auto& t : flat)
    out.push_back(split(t, std::make_index_sequence<n>{}));
  return out;
}

}  // namespace ooc::test
