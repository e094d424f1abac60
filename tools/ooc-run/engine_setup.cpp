#include "engine_setup.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <system_error>

#include "ooc/core/buffer.hpp"
#include "ooc/core/units.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "tool_main.hpp"

namespace ooc::tools {

GenerateSpec parse_generate(const std::string& text) {
  const auto bad = [&](const std::string& why) { return InvalidInput("'" + text + "': " + why); };
  const std::string expected = "expected kron:SCALE[:EF], urand:SCALE[:EF] or grid:ROWSxCOLS";
  const auto colon = text.find(':');
  GenerateSpec spec;
  spec.kind = text.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : text.substr(colon + 1);
  // A whole number of at most 32 bits, all of `part`.
  const auto number = [&](const std::string& part) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos ||
        part.size() > 10 || std::stoull(part) > 0xffffffffull)
      throw bad(expected);
    return static_cast<std::uint32_t>(std::stoull(part));
  };
  if (spec.kind == "kron" || spec.kind == "urand") {
    const auto second = rest.find(':');
    spec.scale = number(rest.substr(0, second));
    if (second != std::string::npos) spec.edge_factor = number(rest.substr(second + 1));
    if (spec.edge_factor == 0) throw bad("the edge factor must be at least 1");
  } else if (spec.kind == "grid") {
    const auto x = rest.find('x');
    if (x == std::string::npos) throw bad(expected);
    spec.rows = number(rest.substr(0, x));
    spec.cols = number(rest.substr(x + 1));
    if (spec.rows == 0 || spec.cols == 0) throw bad("a grid needs at least 1 row and 1 column");
  } else {
    throw bad(expected);
  }
  return spec;
}

namespace {

// The graph of a --generate spec: undirected, hub sorted, weighted when asked (an algorithm that
// needs weights asks for random:1-64 by default).
Graph generate_graph(const Args& a, bool weighted) {
  const GenerateSpec spec = parse_generate(a.generate);
  EdgeList edges = spec.kind == "kron"    ? generate_kronecker(spec.scale, spec.edge_factor, a.seed)
                   : spec.kind == "urand" ? generate_uniform(spec.scale, spec.edge_factor, a.seed)
                                          : generate_grid(spec.rows, spec.cols);
  BuildOptions options;
  options.undirected = true;
  const std::string weights = !a.weights.empty() ? a.weights : weighted ? "random:1-64" : "none";
  options.weights = parse_weight_spec(weights, a.seed);
  return hub_sort(build_graph(std::move(edges), options));
}

// More partitions than this make each iteration's bookkeeping and copies visibly slower.
constexpr std::size_t kManyPartitions = 8192;

}  // namespace

OocEngine make_engine(const Args& a, const EngineOptions& options,
                      const std::shared_ptr<Communicator>& ranks, bool weighted) {
  if (!ranks)
    return a.graph.empty() ? OocEngine(generate_graph(a, weighted), options)
                           : OocEngine::load(a.graph, options);
  return a.graph.empty() ? OocEngine(generate_graph(a, weighted), options, ranks)
                         : OocEngine::load(a.graph, options, ranks);
}

namespace {

// The ids of a list of ids and ranges A-B (both ends in), as `flag` gives them.
std::vector<vid_t> listed_sources(const std::string& list, const char* flag) {
  std::vector<vid_t> out;
  for (const std::string& item : split_list(list)) {
    const auto bad = [&] {
      return InvalidInput(std::string(flag) +
                          " takes vertex ids and ranges A-B separated by commas (got '" + item +
                          "')");
    };
    const std::size_t dash = item.find('-');
    const auto id = [&](std::string_view text) {
      vid_t v = 0;
      const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (error != std::errc{} || stop != text.data() + text.size() || text.empty()) throw bad();
      return v;
    };
    const vid_t first = id(std::string_view(item).substr(0, dash));
    const vid_t last =
        dash == std::string::npos ? first : id(std::string_view(item).substr(dash + 1));
    if (last < first) throw bad();
    for (std::uint64_t v = first; v <= last; ++v)
      out.push_back(static_cast<vid_t>(v));
  }
  return out;
}

// --sources K: the count.
std::uint32_t source_count(const std::string& text) {
  std::uint32_t k = 0;
  const char* const end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, k);
  if (error != std::errc{} || stop != end) {
    throw InvalidInput(
        "--sources takes a count K, all, or ids and ranges A-B separated by commas "
        "(got '" +
        text + "')");
  }
  return k;
}

}  // namespace

void check_sources(const Args& a) {
  if (!a.source_list.empty()) {
    listed_sources(a.source_list, "--source-list");
  } else if (a.sources.find_first_of(",-") != std::string::npos) {
    listed_sources(a.sources, "--sources");
  } else if (!a.sources.empty() && a.sources != "all" && source_count(a.sources) == 0) {
    throw InvalidInput("--sources: sampling needs at least one source (got 0)");
  }
}

bool sources_given(const Args& a) {
  return !a.sources.empty() || !a.source_list.empty();
}

std::vector<vid_t> source_set_of(const Args& a, const OocEngine& engine) {
  std::vector<vid_t> out;
  if (!a.source_list.empty()) {
    out = listed_sources(a.source_list, "--source-list");
  } else if (a.sources == "all") {
    const Graph& g = engine.graph();
    out.resize(g.num_vertices());
    for (vid_t v = 0; v < g.num_vertices(); ++v)
      out[v] = g.original_id(v);
  } else if (a.sources.find_first_of(",-") != std::string::npos) {
    out = listed_sources(a.sources, "--sources");
  } else if (!a.sources.empty()) {
    out = engine.sample_sources(source_count(a.sources), a.seed);
  } else {
    out = {a.source ? *a.source : engine.highest_degree_vertex()};
  }
  for (const vid_t v : out)
    engine.internal_id(v);
  return out;
}

std::string describe_sources(const Args& a, const std::vector<vid_t>& sources) {
  std::string ids;
  for (std::size_t i = 0; i < sources.size() && i < 8; ++i)
    ids += (i > 0 ? ", " : "") + std::to_string(sources[i]);
  if (sources.size() > 8) ids += ", ...";
  if (!a.source_list.empty() || a.sources.find_first_of(",-") != std::string::npos)
    return std::to_string(sources.size()) + " listed (" + ids + ")";
  if (a.sources == "all") return "all " + std::to_string(sources.size()) + " vertices";
  if (!a.sources.empty()) {
    return std::to_string(sources.size()) + " sampled with seed " + std::to_string(a.seed) +
           " from the vertices with out-edges (" + ids + ")";
  }
  return ids + (a.source ? "" : " (highest out-degree)");
}

void warn_if_many_partitions(std::size_t partitions, const std::string& size) {
  if (partitions <= kManyPartitions) return;
  warn(with_commas(partitions) + " partitions of " + size +
       ": every iteration surveys and schedules each one, and copies that small run below the "
       "link's peak (Kronecker 26 BFS on an H200 took 1.5x the time of the default 32MiB with "
       "16,000 partitions, 4.5x with 64,000)");
}

void warn_if_idle_ranks(const OocEngine& engine, const std::string& partition_size) {
  std::vector<bool> owns(static_cast<std::size_t>(engine.ranks()), false);
  for (const std::uint32_t owner : engine.owners())
    owns[owner] = true;
  const auto idle = std::count(owns.begin(), owns.end(), false);
  if (idle > 0) {
    warn(std::to_string(idle) + " of " + std::to_string(engine.ranks()) +
         " ranks own no partition (the graph has " + std::to_string(engine.partitions().size()) +
         " partition(s)" + " of " + partition_size +
         "): they only take part in the exchange; a smaller " +
         "--partition-bytes gives every rank a share");
  }
}

void warn_if_ranks_lack_huge_pages(const OocEngine& engine) {
  if (engine.ranks() < 2 || engine.backend() != Backend::cuda) return;
  if (transparent_huge_pages() != "never") return;
  warn(
      "transparent huge pages are off (/sys/kernel/mm/transparent_hugepage/enabled: never): each "
      "rank pins its share of the edges in place on 4 KiB pages, which a GPU copies from at "
      "about 60% of its link (31.5 against 52.5 GB/s on an H100, docs/distributed.md); set it to "
      "madvise for full speed");
}

}  // namespace ooc::tools
