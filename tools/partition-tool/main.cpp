// partition-tool: turns the graphs users have into .oocg files the engine runs, and inspects
// them. Subcommands: convert, generate, info, verify, export. See docs/cli.md.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "info.hpp"
#include "ooc/core/atomic_file.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/host_memory.hpp"
#include "ooc/core/progress.hpp"
#include "ooc/core/units.hpp"
#include "ooc/partitioner/bounded_build.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "ooc/partitioner/readers.hpp"
#include "ooc/partitioner/sage_reorder.hpp"
#include "tool_main.hpp"

namespace ooc::tools {
namespace {

namespace fs = std::filesystem;

struct Common {
  bool quiet = false;
  unsigned threads = 0;
};

struct BuildArgs {
  bool undirected = false;
  std::string weights;
  std::uint64_t seed = 1;
  std::string hub_sort = "0.08";
  std::string reorder = "hub";
  unsigned reorder_rounds = kDefaultSageRounds;
  const CLI::Option* hub_sort_option = nullptr;
  bool keep_self_loops = false;
  bool keep_duplicates = false;
  bool compact_ids = false;
  bool compress = false;  // the default: accepted, changes nothing
  bool compress_only = false;
  bool raw_only = false;
  bool in_edges = false;
  std::string memory{};  // empty: what the machine can spare (spare_memory)
  std::string tmp_dir{};
};

// A generator's size that must be at least 1, refused when parsing: --vertices 0 would build a
// graph without vertices, --rows or --cols 0 fall back to --scale's grid, and --edge-factor 0 was
// refused only once the generator ran (exit code 1).
CLI::Validator nonzero_count() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (text.empty() || text.find_first_not_of('0') != std::string::npos) return {};
        return "'" + text + "' is not above 0";
      },
      "");  // no name: a conversion error still says "not a non-negative integer"
}

void add_common(CLI::App& cmd, Common& c) {
  cmd.add_flag("-q,--quiet", c.quiet, "No progress bar and no summary line");
  add_threads_option(cmd, c.threads);
}

// Each subcommand binds its own BuildArgs: CLI11 writes defaults into the bound variable when
// the option is added, so a shared one would take the last subcommand's defaults.
void add_build(CLI::App& cmd, BuildArgs& b) {
  cmd.add_flag("--undirected", b.undirected,
               "Add the reverse of every edge (symmetric graph; needed for cc)");
  cmd.add_option("--weights", b.weights,
                 "file (the input's own, if it has any) | none | random:LO-HI (uniform integers, "
                 "symmetric)")
      ->capture_default_str();
  cmd.add_option("--seed", b.seed, "Seed for generated edges, random weights and SAGE's sampling")
      ->capture_default_str();
  b.hub_sort_option =
      cmd.add_option("--hub-sort", b.hub_sort, "Fraction of vertices moved first as hubs, or 'off'")
          ->capture_default_str();
  cmd.add_option("--reorder", b.reorder,
                 "hub (hub sort) | sage (hub sort, then SAGE's sampled reordering inside the hubs "
                 "and inside the rest) | none (the input's order, as --hub-sort off)")
      ->check(CLI::IsMember({"hub", "sage", "none"}))
      ->capture_default_str();
  cmd.add_option("--reorder-rounds", b.reorder_rounds,
                 "Rounds of SAGE's reordering (--reorder sage)")
      ->check(CLI::Range(1u, 1000u))
      ->capture_default_str();
  cmd.add_flag("--keep-self-loops", b.keep_self_loops, "Keep edges (v, v)");
  cmd.add_flag("--keep-duplicates", b.keep_duplicates, "Keep repeated edges");
  cmd.add_flag("--compact-ids", b.compact_ids, "Renumber the vertices that have edges to 0..n-1");
  // Raw and compressed by default: out of core the engine reads the compressed lists, and in-memory
  // mode, --compressed off and --transfer unified the raw ones (docs/file-format.md says why).
  CLI::Option* compress_flag = cmd.add_flag(
      "--compress", b.compress,
      "The default, so it changes nothing: the lists are stored raw and compressed (sorted, delta "
      "bit-packed) and integer weights also packed at the width of their range; the engine "
      "reads the compressed ones out of core and the raw ones in GPU memory");
  // A flag of its own: an optional value of --compress would take the input file after it.
  CLI::Option* compress_only_flag = cmd.add_flag(
      "--compress-only", b.compress_only,
      "Store the lists compressed and the integer weights packed, without the raw targets (and "
      "raw weights, when packed): format version 5, the smallest file, read by the engine with "
      "--compressed on and never in in-memory mode, which copies raw lists (the edge cache "
      "keeps the compressed ones instead)");
  cmd.add_flag("--raw-only", b.raw_only,
               "Store the raw lists alone, without the compressed ones or packed weights (format "
               "version 1, 4 with --in-edges): a smaller file, built faster, that runs out of "
               "core read raw, more slowly")
      ->excludes(compress_flag)
      ->excludes(compress_only_flag);
  cmd.add_flag("--in-edges", b.in_edges,
               "Also store the in-edges (each vertex's in-neighbours; file version 4), which the "
               "pull direction needs on a directed graph (ooc-run --direction pull|auto)");
  cmd.add_option("--memory", b.memory,
                 "Memory the build may take (default: 80% of the memory this machine has "
                 "available); a graph whose "
                 "in-memory build needs more is built in bounded memory, its edges spilled to "
                 "temporary files")
      ->check(nonzero_size_validator());
  cmd.add_option("--tmp-dir", b.tmp_dir,
                 "Folder for a bounded build's temporary files (default: the output's)");
}

double hub_fraction(const std::string& text) {
  if (text == "off") return 0.0;
  try {
    std::size_t used = 0;
    const double f = std::stod(text, &used);
    if (used == text.size() && f >= 0.0 && f <= 1.0) return f;
  } catch (const std::exception&) {
  }
  throw InvalidInput("invalid --hub-sort '" + text +
                     "': expected a fraction between 0 and 1, or off");
}

using Clock = std::chrono::steady_clock;

// The hub fraction, once --reorder and --hub-sort are known to agree.
double checked_hub_fraction(const BuildArgs& b) {
  const double fraction = hub_fraction(b.hub_sort);
  if (b.reorder == "none" && fraction > 0.0 && b.hub_sort_option->count() > 0) {
    throw InvalidInput(
        "--reorder none keeps the input's order and moves no hubs: leave out "
        "--hub-sort " +
        b.hub_sort + " or use --reorder hub");
  }
  return fraction;
}

// A symmetric graph's in-lists are its out-lists: --in-edges would store a copy of them.
void refuse_symmetric_in_edges(const std::string& why) {
  throw InvalidInput("--in-edges is for directed graphs, and " + why +
                     ": its in-lists are its out-lists, which the pull direction reads instead "
                     "(leave out --in-edges)");
}

// The order --reorder asks for; returns how the summary line describes it.
std::string reorder(Graph& g, const BuildArgs& b, double fraction) {
  if (b.reorder == "none" || (b.reorder == "hub" && fraction == 0.0)) return "natural order";
  const auto start = Clock::now();
  std::string order = "hub order";
  if (b.reorder == "hub") {
    g = hub_sort(std::move(g), fraction);
  } else {
    SageOptions options;
    options.hub_fraction = fraction;
    options.rounds = b.reorder_rounds;
    options.seed = b.seed;
    g = sage_reorder(std::move(g), options);
    order = "sage order (" + std::to_string(b.reorder_rounds) + " rounds)";
  }
  char took[32];
  std::snprintf(took, sizeof took, " in %.2f s",
                std::chrono::duration<double>(Clock::now() - start).count());
  return order + took;
}

// Where a build's edges come from: read or generated whole, or in parts for a bounded build
// (null where the input is read only whole: Matrix Market, DIMACS, gzip, a pipe).
struct Input {
  std::function<EdgeList()> whole;
  std::unique_ptr<EdgeSource> parts;
};

// The memory a build may take: --memory, or what this machine can spare (80% of the memory it
// has available, as the engine's --host-memory), printed; half of its memory where /proc/meminfo
// does not say.
std::uint64_t build_memory(const BuildArgs& b, const Common& c) {
  if (!b.memory.empty()) return parse_size(b.memory);
  if (const std::uint64_t spare = spare_memory(); spare > 0) {
    if (!c.quiet) {
      std::printf("memory: %s, 80%% of the %s this machine has available (--memory to change)\n",
                  format_bytes(spare).c_str(), format_bytes(available_memory()).c_str());
    }
    return spare;
  }
  const auto machine = static_cast<std::uint64_t>(::sysconf(_SC_PHYS_PAGES)) *
                       static_cast<std::uint64_t>(::sysconf(_SC_PAGE_SIZE));
  if (!c.quiet) {
    std::printf("memory: %s, half of this machine's %s (--memory to change)\n",
                format_bytes(machine / 2).c_str(), format_bytes(machine).c_str());
  }
  return machine / 2;
}

// The first option that a bounded build does not stream, or nothing.
std::string unstreamed_option(const BuildArgs& b) {
  if (b.compact_ids) return "--compact-ids";
  if (b.reorder == "sage") return "--reorder sage";
  if (b.in_edges) return "--in-edges";
  return "";
}

// Whether to build in bounded memory: when the input is read in parts and its in-memory build is
// estimated above the memory. An option that is not streamed is then refused under --memory, and
// built in memory, as before there was a bounded build, under the default.
bool bounded(const Input& input, const BuildArgs& b, const BuildOptions& options,
             std::uint64_t memory) {
  if (!input.parts) return false;
  const std::uint64_t need = input.parts->footprint(options).in_memory;
  if (need <= memory) return false;
  const std::string option = unstreamed_option(b);
  if (option.empty()) return true;
  const std::string why = "this graph's in-memory build needs about " + format_bytes(need) +
                          ", more than " + format_bytes(memory) + ", but " + option +
                          " is not available in a bounded build";
  if (!b.memory.empty()) throw InvalidInput("--memory: " + why + " (give more, or leave it out)");
  warn(why + ": building in memory");
  return false;
}

// A bounded build that fills its temporary folder's disk fails late: warn before it starts.
void warn_if_short_of_disk(const fs::path& dir, std::uint64_t spilled) {
  std::error_code error;
  const fs::space_info space = fs::space(dir.empty() ? fs::path(".") : dir, error);
  if (error || space.available >= spilled) return;
  warn("'" + dir.string() + "' has " + format_bytes(space.available) +
       " free, and this build may spill up to " + format_bytes(spilled) +
       " there (--tmp-dir to choose another folder)");
}

// A line as each pass ends, flushed so that a log shows how far a long build has come.
void print_pass(const PassReport& pass) {
  std::printf("  %s: %s %s in %.2f s, %.1f M/s\n", pass.pass.c_str(),
              with_commas(pass.count).c_str(), std::string(pass.unit).c_str(), pass.seconds,
              pass.seconds > 0 ? static_cast<double>(pass.count) / pass.seconds * 1e-6 : 0.0);
  std::fflush(stdout);
}

// Builds in memory, reorders and writes; returns how the summary line describes the order.
std::string build_in_memory(EdgeList&& edges, const BuildArgs& b, const BuildOptions& options,
                            double fraction, const fs::path& out) {
  Graph g = build_graph(std::move(edges), options);
  if (b.in_edges && g.symmetric)
    refuse_symmetric_in_edges("this one is symmetric (its input declares it, or its shape is)");
  const std::string order = reorder(g, b, fraction);
  if (!b.raw_only) compress(g);
  // Last: hub sort, SAGE's reordering and compression all move the lists.
  if (b.in_edges) {
    ProgressStep progress("computing the in-edges", g.num_edges());
    g.in_edges = in_edges_of(g);
    progress.advance(g.num_edges());
  }
  if (b.compress_only) drop_raw_lists(g);  // after the in-edges, which are computed from them
  write_oocg(g, out);
  return order;
}

// The summary line of a written file.
void print_summary(const fs::path& out, const std::string& order, double seconds) {
  const OocgInfo g = read_oocg_info(out);
  std::string compressed;
  if (g.compressed && g.num_edges > 0) {
    char buf[96];
    std::snprintf(buf, sizeof buf, ", lists compressed to %.2f bytes per edge",
                  static_cast<double>(g.compressed_bytes) / static_cast<double>(g.num_edges));
    compressed = buf;
    if (g.packed_weights) {
      std::snprintf(buf, sizeof buf, ", weights packed at %u bits", g.weight_width);
      compressed += buf;
    }
    if (g.compressed_only) compressed += ", compressed only";
  }
  std::printf(
      "wrote %s: %s vertices, %s edges (%s, weights %s, %s hubs, %s%s%s), %s, built in %.1f s\n",
      out.c_str(), with_commas(g.num_vertices).c_str(), with_commas(g.num_edges).c_str(),
      g.symmetric ? "symmetric" : "directed", std::string(to_string(g.weight_type)).c_str(),
      with_commas(g.hub_count).c_str(), order.c_str(), compressed.c_str(),
      g.in_edges ? ", with in-edges" : "", format_bytes(g.file_bytes).c_str(), seconds);
}

// Builds, reorders and writes, in memory or bounded; prints a summary line unless quiet.
void build_and_write(const Input& input, const BuildArgs& b, const fs::path& out, const Common& c) {
  const auto start = Clock::now();
  const double fraction = checked_hub_fraction(b);
  if (b.in_edges && b.undirected)
    refuse_symmetric_in_edges("--undirected makes this one symmetric");
  BuildOptions options;
  options.undirected = b.undirected;
  options.remove_self_loops = !b.keep_self_loops;
  options.remove_duplicates = !b.keep_duplicates;
  options.compact_ids = b.compact_ids;
  options.weights = parse_weight_spec(b.weights, b.seed);
  const std::uint64_t memory = build_memory(b, c);
  std::string order;
  if (bounded(input, b, options, memory)) {
    BoundedOptions bounded_options;
    bounded_options.memory = memory;
    bounded_options.tmp_dir = b.tmp_dir;
    bounded_options.hub_fraction = b.reorder == "hub" ? fraction : 0.0;
    bounded_options.lists = b.compress_only ? StoredLists::compressed_only
                            : b.raw_only    ? StoredLists::raw
                                            : StoredLists::raw_and_compressed;
    const Footprint footprint = input.parts->footprint(options);
    warn_if_short_of_disk(b.tmp_dir.empty() ? out.parent_path() : fs::path(b.tmp_dir),
                          footprint.spilled);
    if (!c.quiet) {
      std::printf("building in bounded memory (%s; in memory: about %s)\n",
                  format_bytes(memory).c_str(), format_bytes(footprint.in_memory).c_str());
      bounded_options.report = print_pass;
    }
    build_bounded(*input.parts, options, bounded_options, out);
    order = bounded_options.hub_fraction > 0.0 ? "hub order" : "natural order";
  } else {
    order = build_in_memory(input.whole(), b, options, fraction, out);
  }
  if (c.quiet) return;
  print_summary(out, order, std::chrono::duration<double>(Clock::now() - start).count());
}

// Each subcommand's arguments, bound to its options, and what it does with them.
struct ConvertArgs {
  std::string input, output, format;
  BuildArgs build{.weights = "file"};
};

CLI::App* add_convert(CLI::App& app, ConvertArgs& a, Common& common) {
  auto* cmd = app.add_subcommand(
      "convert",
      "Read a graph (text edge list, .wel, .mtx, DIMACS .gr, gzip or not; or a binary edge list) "
      "into .oocg");
  cmd->add_option("INPUT", a.input, "Input graph file")->required();
  cmd->add_option("-o,--output", a.output, "Output .oocg file")->required();
  cmd->add_option("--format", a.format,
                  "el | wel | mtx | gr | bin32 | bin64 | wbin32 | wbin64 (default: from the file "
                  "name; dimacs is gr). "
                  "binN: little-endian uN source, uN target per edge; wbinN: and a u32 weight");
  add_build(*cmd, a.build);
  add_common(*cmd, common);
  return cmd;
}

void run_convert(const ConvertArgs& a, const Common& common) {
  const Format f = a.format.empty() ? detect_format(a.input) : parse_format(a.format);
  if (f == Format::oocg) {
    throw InvalidInput("'" + a.input +
                       "' is already an .oocg file (use 'partition-tool export' to get text)");
  }
  build_and_write({[&] { return read_edges(a.input, f); }, file_edges_source(a.input, f)}, a.build,
                  a.output, common);
}

// --weights file keeps a generator's own weights: road's; the others have none.
struct GenerateArgs {
  GeneratorSpec gen;
  std::string output;
  BuildArgs build{.weights = "file"};
};

CLI::App* add_generate(CLI::App& app, GenerateArgs& a, Common& common) {
  auto* cmd = app.add_subcommand("generate", "Generate a synthetic graph into .oocg");
  cmd->add_option("KIND", a.gen.kind,
                  "kron | urand | grid | road | star | chain | complete | empty")
      ->required()
      ->check(
          CLI::IsMember({"kron", "urand", "grid", "road", "star", "chain", "complete", "empty"}));
  cmd->add_option("-o,--output", a.output, "Output .oocg file")->required();
  cmd->add_option("--scale", a.gen.scale, "kron, urand, grid: 2^scale vertices")
      ->capture_default_str();
  cmd->add_option("--edge-factor", a.gen.edge_factor, "kron, urand: edges per vertex")
      ->check(nonzero_count())
      ->capture_default_str();
  cmd->add_option("--rows", a.gen.rows, "grid: rows (default from --scale)")
      ->check(nonzero_count());
  cmd->add_option("--cols", a.gen.cols, "grid: columns (default from --scale)")
      ->check(nonzero_count());
  cmd->add_option("--vertices", a.gen.vertices, "road, star, chain, complete, empty: vertex count")
      ->check(nonzero_count())
      ->capture_default_str();
  add_build(*cmd, a.build);
  add_common(*cmd, common);
  return cmd;
}

void run_generate(GenerateArgs& a, const Common& common) {
  a.gen.seed = a.build.seed;
  build_and_write({[&] { return generate(a.gen); }, generated_edges_source(a.gen)}, a.build,
                  a.output, common);
}

struct InfoArgs {
  std::string file;
  std::string partition_bytes = "32MiB";
  std::string host_memory;  // empty: no host tier plan shown
  bool as_json = false;
  bool locality = false;
};

CLI::App* add_info(CLI::App& app, InfoArgs& a) {
  auto* cmd = app.add_subcommand("info", "Counts, degrees, partitions and hubs of a .oocg file");
  cmd->add_option("FILE", a.file, ".oocg file")->required();
  cmd->add_option("--partition-bytes", a.partition_bytes, "Partition size to show the layout for")
      ->check(nonzero_size_validator())
      ->capture_default_str();
  cmd->add_option("--host-memory", a.host_memory,
                  "Also show which partitions a run keeps in this much host "
                  "memory, and how many it reads from the file (ooc-run --host-memory)")
      ->check(nonzero_size_validator());
  cmd->add_flag("--json", a.as_json, "Print JSON instead of text");
  cmd->add_flag("--locality", a.locality,
                "Also measure the order's locality: value sectors per tile, and the target lines "
                "that 4 BFS runs read (a pass over the edges per run)");
  return cmd;
}

void run_info(const InfoArgs& a) {
  const auto description =
      describe_graph_file(a.file, parse_size(a.partition_bytes), a.locality,
                          a.host_memory.empty() ? 0 : parse_size(a.host_memory));
  std::fputs(
      a.as_json ? (description.dump(2) + "\n").c_str() : format_description(description).c_str(),
      stdout);
}

CLI::App* add_verify(CLI::App& app, std::string& file) {
  auto* cmd =
      app.add_subcommand("verify", "Check a .oocg file's integrity; exit 0 only if it is sound");
  cmd->add_option("FILE", file, ".oocg file")->required();
  return cmd;
}

void run_verify(const std::string& file) {
  const OocgInfo checked = verify_oocg(file);
  std::printf("%s: sound (%s vertices, %s edges; header, checksums and structure%s checked%s)\n",
              file.c_str(), with_commas(checked.num_vertices).c_str(),
              with_commas(checked.num_edges).c_str(),
              checked.compressed_only ? ", compressed-only lists decoded and"
              : checked.compressed    ? ", compressed lists decoded and"
                                      : "",
              checked.in_edges ? "; in-edges match the out-edges" : "");
}

struct ExportArgs {
  std::string file, output;
};

CLI::App* add_export(CLI::App& app, ExportArgs& a, Common& common) {
  auto* cmd =
      app.add_subcommand("export", "Write a .oocg graph as a text edge list in the original ids");
  cmd->add_option("FILE", a.file, ".oocg file")->required();
  cmd->add_option("-o,--output", a.output, "Output edge list (src dst [weight] per line)")
      ->required();
  add_common(*cmd, common);
  return cmd;
}

}  // namespace
}  // namespace ooc::tools

int main(int argc, char** argv) {
  using namespace ooc;
  using namespace ooc::tools;
  CLI::App app{"Turns graphs into .oocg files for OocGraph, and inspects them.", "partition-tool"};
  app.require_subcommand(1);
  Common common;
  ConvertArgs convert_args;
  GenerateArgs generate_args;
  InfoArgs info_args;
  std::string verify_file;
  ExportArgs export_args;
  const CLI::App* convert = add_convert(app, convert_args, common);
  const CLI::App* generate_cmd = add_generate(app, generate_args, common);
  const CLI::App* info = add_info(app, info_args);
  const CLI::App* verify = add_verify(app, verify_file);
  add_export(app, export_args, common);
  return run_main(app, argc, argv, [&] {
    // The subcommand's output (the others' are empty) can be written: checked before any input
    // is read, since it is written last.
    for (const std::string* out :
         {&convert_args.output, &generate_args.output, &export_args.output})
      if (!out->empty()) check_writable(*out, "--output");
    const auto threads = limit_threads(common.threads);
    const ProgressBar progress(common.quiet);
    if (*convert) {
      run_convert(convert_args, common);
    } else if (*generate_cmd) {
      run_generate(generate_args, common);
    } else if (*info) {
      run_info(info_args);
    } else if (*verify) {
      run_verify(verify_file);
    } else {
      Graph g = read_oocg(export_args.file);
      decode_raw_lists(g);  // a compressed-only file's lists
      write_edge_list(g, export_args.output);
    }
  });
}
