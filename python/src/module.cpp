// oocgraph._core: the engine for Python (pybind11). The public module, oocgraph/__init__.py,
// checks arguments, turns results into numpy arrays with .stats and documents it all; this file
// only crosses the language boundary:
//   - graphs in: load a .oocg, generate one, build one from numpy edge arrays (read in place when
//     they are uint32 and contiguous), convert a text file to .oocg;
//   - runs out: the values in a numpy array that owns the engine's vector (no second copy; BFS
//     from several sources gives its rows in one vector, copied once), the run's statistics as
//     ooc-run's --json holds them, and whether it converged;
//   - the GIL is released while the engine works, and SIGINT (Ctrl-C) during a run stops it at
//     the next iteration and raises KeyboardInterrupt;
//   - the library's errors become ValueError, OSError, MemoryError or RuntimeError with the
//     same message.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ooc/core/error.hpp"
#include "ooc/core/units.hpp"
#include "ooc/core/version.hpp"
#include "ooc/engine/engine.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "ooc/partitioner/readers.hpp"
#include "stats_json.hpp"

namespace py = pybind11;

namespace ooc::python {
namespace {

// --- options ---------------------------------------------------------------------------------

template <class T>
T cast_option(const py::handle& value, const char* key, const char* type) {
  try {
    return value.cast<T>();
  } catch (const py::cast_error&) {
    throw py::type_error(std::string(key) + " must be " + type + ", not " +
                         std::string(py::str(py::type::of(value).attr("__name__"))));
  }
}

bool bool_option(const py::handle& v, const char* key) {
  if (!py::isinstance<py::bool_>(v)) {
    throw py::type_error(std::string(key) + " must be a bool, not " +
                         std::string(py::str(py::type::of(v).attr("__name__"))));
  }
  return v.cast<bool>();
}

// Priority: True (on), False (off) or "auto" (the default: per program, options.hpp).
Priority priority_option(const py::handle& v, const char* key) {
  if (py::isinstance<py::str>(v) && v.cast<std::string>() == "auto") return Priority::automatic;
  if (!py::isinstance<py::bool_>(v)) {
    throw py::type_error(std::string(key) + " must be a bool or \"auto\", not " +
                         std::string(py::str(py::type::of(v).attr("__name__"))));
  }
  return v.cast<bool>() ? Priority::on : Priority::off;
}

// A size in bytes: an int, or a string such as "8GiB" (what ooc-run's --budget takes).
std::uint64_t size_option(const py::handle& v, const char* key) {
  if (py::isinstance<py::str>(v)) return parse_size(v.cast<std::string>());
  if (py::isinstance<py::bool_>(v) || !py::isinstance<py::int_>(v)) {
    throw py::type_error(std::string(key) + " must be an int or a str such as '8GiB', not " +
                         std::string(py::str(py::type::of(v).attr("__name__"))));
  }
  const auto n = v.cast<long long>();
  if (n < 0) throw py::value_error(std::string(key) + " must not be negative");
  return static_cast<std::uint64_t>(n);
}

// The options that name a choice, given as a str. False when `key` is none of them.
bool set_choice_option(EngineOptions& o, const std::string& key, const py::handle& v) {
  const char* name = key.c_str();
  if (key == "backend") {
    o.backend = parse_backend(cast_option<std::string>(v, name, "a str"));
  } else if (key == "transfer") {
    o.transfer = parse_transfer_policy(cast_option<std::string>(v, name, "a str"));
  } else if (key == "load_balance") {
    o.load_balance = parse_load_balance(cast_option<std::string>(v, name, "a str"));
  } else if (key == "direction") {
    o.direction = parse_direction(cast_option<std::string>(v, name, "a str"));
  } else if (key == "exchange") {
    o.exchange = parse_exchange(cast_option<std::string>(v, name, "a str"));
  } else if (key == "cc") {
    o.cc = parse_cc_algorithm(cast_option<std::string>(v, name, "a str"));
  } else {
    return false;
  }
  return true;
}

// The options given as numbers, flags and sizes. False when `key` is none of them.
bool set_value_option(EngineOptions& o, const std::string& key, const py::handle& v) {
  const char* name = key.c_str();
  if (key == "exchange_rounds") {
    o.exchange_rounds = cast_option<std::uint32_t>(v, name, "an int from 0 to 64");
  } else if (key == "pull_blocks") {
    o.pull_blocks = cast_option<std::uint32_t>(v, name, "an int from 0 to 64");
  } else if (key == "resident_slices") {
    o.resident_slices = cast_option<std::uint32_t>(v, name, "an int from 1 to 256");
  } else if (key == "frontier_loop") {
    o.frontier_loop_edges = cast_option<std::uint64_t>(v, name, "an int (0: off)");
  } else if (key == "frontier_loop_hops") {
    o.frontier_loop_hops =
        py::isinstance<py::str>(v) && v.cast<std::string>() == "auto"
            ? kAutomaticLoopHops
            : cast_option<std::uint32_t>(v, name, "\"auto\" or an int from 0 to 4");
  } else if (key == "priority") {
    o.priority = priority_option(v, name);
  } else if (key == "in_memory") {
    o.in_memory = bool_option(v, name);
  } else if (key == "cache") {
    o.cache = bool_option(v, name);
  } else if (key == "compressed") {
    o.compressed = bool_option(v, name);
  } else if (key == "budget") {
    o.device_budget = size_option(v, name);
  } else if (key == "host_memory") {
    o.host_memory = size_option(v, name);
  } else if (key == "partition_bytes") {
    o.partition_bytes = size_option(v, name);
  } else if (key == "device") {
    o.device = cast_option<int>(v, name, "an int");
  } else if (key == "devices") {
    o.devices = cast_option<std::vector<int>>(v, name, "a list of ints");
  } else {
    return false;
  }
  return true;
}

// The engine's options from the keyword arguments that oocgraph/__init__.py passes on.
EngineOptions engine_options(const py::dict& kw) {
  EngineOptions o;
  for (const auto& [k, v] : kw) {
    const std::string key = k.cast<std::string>();
    if (!set_choice_option(o, key, v) && !set_value_option(o, key, v))
      throw py::type_error("unexpected keyword argument '" + key + "'");
  }
  return o;
}

// --- cancellation ----------------------------------------------------------------------------

// While runs are in flight, SIGINT sets a flag that RunOptions::cancelled reads before every
// iteration (on every rank's thread); Python's own handler is put back when the last one ends.
// Runs from several Python threads at once (the GIL is released) share the handler, so one
// Ctrl-C stops them all. The GIL is not needed to read the flag, so ranks on their own threads
// see it too.
std::atomic<bool> interrupted{false};

extern "C" void on_interrupt(int) {
  interrupted.store(true);
}

class InterruptScope {
 public:
  InterruptScope() {
    const std::lock_guard lock(mutex_);
    if (runs_++ > 0) return;
    interrupted.store(false);
    struct sigaction ours {};
    ours.sa_handler = on_interrupt;
    sigemptyset(&ours.sa_mask);
    installed_ = sigaction(SIGINT, &ours, &previous_) == 0;
  }
  ~InterruptScope() {
    const std::lock_guard lock(mutex_);
    if (--runs_ == 0 && installed_) sigaction(SIGINT, &previous_, nullptr);
  }
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

 private:
  // Shared by every scope: the handler is installed by the first and restored by the last.
  static inline std::mutex mutex_;
  static inline int runs_ = 0;
  static inline bool installed_ = false;
  static inline struct sigaction previous_ {};
};

// --- results ---------------------------------------------------------------------------------

// A numpy array that owns the vector it views: the engine's values are not copied again.
template <class T>
py::array to_numpy(std::vector<T>&& values) {
  auto* owned = new std::vector<T>(std::move(values));
  py::capsule owner(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({owned->size()}, {sizeof(T)}, owned->data(), owner);
}

// A run's statistics, turned into ooc-run's --json text only when Python asks.
struct Stats {
  RunStats stats;
  std::string json() const { return tools::to_json(stats).dump(); }
};

// BFS from several sources: the levels one source after another in one vector (a row per
// source, which oocgraph/__init__.py reshapes), each row freed once copied.
Result<std::uint32_t> flattened(LevelsResult&& r) {
  Result<std::uint32_t> out;
  std::size_t size = 0;
  for (const auto& row : r.levels)
    size += row.size();
  out.values.reserve(size);
  for (auto& row : r.levels) {
    out.values.insert(out.values.end(), row.begin(), row.end());
    std::vector<std::uint32_t>().swap(row);
  }
  out.stats = std::move(r.stats);
  out.converged = r.converged;
  return out;
}

// (values, Stats, converged, seconds the engine's call took in all).
template <class T>
py::tuple to_python(Result<T>&& r, double call_seconds) {
  return py::make_tuple(to_numpy(std::move(r.values)), Stats{std::move(r.stats)}, r.converged,
                        call_seconds);
}

// Per-run settings (None: the engine's own), put back after the run. Python's RunSettings.
struct RunOverrides {
  std::optional<std::string> transfer, load_balance, direction, priority;  // priority: on|off|auto
  std::uint32_t max_iterations = 0;
};

class PyEngine {
 public:
  explicit PyEngine(OocEngine engine) : engine_(std::move(engine)) {}

  vid_t num_vertices() const { return engine_.graph().num_vertices(); }
  eid_t num_edges() const { return engine_.graph().num_edges(); }
  std::string weights() const { return std::string(to_string(engine_.graph().weight_type)); }
  bool symmetric() const { return engine_.graph().symmetric; }
  bool compressed() const { return !engine_.graph().compressed.empty(); }
  std::string backend() const { return std::string(to_string(engine_.backend())); }
  std::size_t partitions() const { return engine_.partitions().size(); }
  vid_t highest_degree_vertex() const { return engine_.highest_degree_vertex(); }
  std::vector<vid_t> sample_sources(std::uint32_t count, std::uint64_t seed) const {
    return engine_.sample_sources(count, seed);
  }

  // Runs f(engine, run options) without the GIL, under the per-run settings; a run stopped by
  // Ctrl-C raises KeyboardInterrupt.
  template <class F>
  py::tuple run(const RunOverrides& s, F&& f) {
    const RunSettings before = engine_.settings();
    RunSettings during = before;
    if (s.transfer) during.transfer = parse_transfer_policy(*s.transfer);
    if (s.load_balance) during.load_balance = parse_load_balance(*s.load_balance);
    if (s.direction) during.direction = parse_direction(*s.direction);
    if (s.priority) during.priority = parse_priority(*s.priority);
    engine_.configure(during);
    RunOptions run;
    run.max_iterations = s.max_iterations;
    run.cancelled = [] { return interrupted.load(); };
    const auto restore = [&] { engine_.configure(before); };
    std::optional<decltype(f(engine_, run))> result;
    double call_seconds = 0;
    try {
      InterruptScope scope;
      py::gil_scoped_release unlocked;
      const auto start = std::chrono::steady_clock::now();
      result.emplace(f(engine_, run));
      call_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    } catch (const Cancelled&) {
      restore();
      PyErr_SetNone(PyExc_KeyboardInterrupt);
      throw py::error_already_set();
    } catch (...) {
      restore();
      throw;
    }
    restore();
    if (interrupted.load()) {  // Ctrl-C after the last iteration's question: still honoured
      PyErr_SetNone(PyExc_KeyboardInterrupt);
      throw py::error_already_set();
    }
    return to_python(std::move(*result), call_seconds);
  }

 private:
  OocEngine engine_;
};

// --- graphs in -------------------------------------------------------------------------------

struct BuildSettings {
  bool undirected = false;
  std::string weights = "file";  // WeightSpec text
  std::uint64_t seed = 1;
  double hub_sort = kDefaultHubFraction;  // 0: off
  bool compress = false;
  bool compress_only = false;         // and leave out the raw lists (--compress-only)
  bool in_edges = false;              // also the in-edges, for the pull direction
  std::optional<std::string> output;  // also write the .oocg here
};

Graph build(EdgeList&& edges, const BuildSettings& s) {
  BuildOptions options;
  options.undirected = s.undirected;
  options.weights = parse_weight_spec(s.weights, s.seed);
  Graph g = build_graph(std::move(edges), options);
  if (s.hub_sort > 0.0) g = hub_sort(std::move(g), s.hub_sort);
  if (s.compress) compress(g);
  if (s.in_edges) {  // last: hub sort moves the lists
    if (g.symmetric) {
      throw InvalidInput(
          "in_edges is for directed graphs, and this one is symmetric: its in-lists are its "
          "out-lists, which the pull direction reads instead (leave out in_edges)");
    }
    g.in_edges = in_edges_of(g);
  }
  if (s.compress_only) drop_raw_lists(g);  // after the in-edges, computed from the raw lists
  if (s.output) write_oocg(g, *s.output);
  return g;
}

std::unique_ptr<PyEngine> engine_of(Graph&& g, const EngineOptions& o) {
  return std::make_unique<PyEngine>(OocEngine(std::move(g), o));
}

// `compress`: "off", "on" or "only" (oocgraph/__init__.py's _compress).
BuildSettings build_settings(bool undirected, std::string weights, std::uint64_t seed,
                             double hub_sort, const std::string& compress, bool in_edges,
                             std::optional<std::string> output) {
  return {undirected,        std::move(weights), seed,     hub_sort,
          compress != "off", compress == "only", in_edges, std::move(output)};
}

using U32Array = py::array_t<std::uint32_t, py::array::c_style>;

// Viewed, not copied: the arrays outlive the build, which only reads them (ids are kept as
// given), and the build runs before this call returns.
Buffer<std::uint32_t> view_of(const U32Array& a) {
  return Buffer<std::uint32_t>::view(const_cast<std::uint32_t*>(a.data()),
                                     static_cast<std::size_t>(a.size()), nullptr);
}

void translate_errors() {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InvalidInput& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const FormatError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const IoError& e) {
      PyErr_SetString(PyExc_OSError, e.what());
    } catch (const OutOfMemory& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
}

// --- bindings --------------------------------------------------------------------------------

// An engine: what it holds, and the algorithms it runs.
void bind_engine(py::module_& m) {
  py::class_<PyEngine>(m, "Engine")
      .def_property_readonly("num_vertices", &PyEngine::num_vertices)
      .def_property_readonly("num_edges", &PyEngine::num_edges)
      .def_property_readonly("weights", &PyEngine::weights)
      .def_property_readonly("symmetric", &PyEngine::symmetric)
      .def_property_readonly("compressed", &PyEngine::compressed)
      .def_property_readonly("backend", &PyEngine::backend)
      .def_property_readonly("partitions", &PyEngine::partitions)
      .def("highest_degree_vertex", &PyEngine::highest_degree_vertex)
      .def("bfs",
           [](PyEngine& e, vid_t source, const RunOverrides& s) {
             return e.run(s, [&](OocEngine& g, const RunOptions& r) { return g.bfs(source, r); });
           })
      .def("bfs_sources",
           [](PyEngine& e, const std::vector<vid_t>& sources, std::uint32_t batch,
              const RunOverrides& s) {
             return e.run(s, [&](OocEngine& g, const RunOptions& r) {
               return flattened(g.bfs(sources, r, batch));
             });
           })
      .def("sssp",
           [](PyEngine& e, vid_t source, const RunOverrides& s) {
             return e.run(s, [&](OocEngine& g, const RunOptions& r) { return g.sssp(source, r); });
           })
      .def("cc",
           [](PyEngine& e, const RunOverrides& s) {
             return e.run(s, [&](OocEngine& g, const RunOptions& r) { return g.cc(r); });
           })
      .def("triangles",
           [](PyEngine& e, const RunOverrides& s) {
             return e.run(s, [&](OocEngine& g, const RunOptions& r) { return g.triangles(r); });
           })
      .def("kcore",
           [](PyEngine& e, const RunOverrides& s) {
             return e.run(s, [&](OocEngine& g, const RunOptions& r) { return g.kcore(r); });
           })
      .def("scc",
           [](PyEngine& e, const RunOverrides& s) {
             return e.run(s, [&](OocEngine& g, const RunOptions& r) { return g.scc(r); });
           })
      .def("pagerank",
           [](PyEngine& e, float damping, float tolerance, double l1, const std::string& push,
              const RunOverrides& s) {
             const PushRule rule = parse_push_rule(push);
             return e.run(s, [&](OocEngine& g, const RunOptions& r) {
               PageRankOptions pr;
               pr.damping = damping;
               pr.tolerance = tolerance;
               pr.l1 = l1;
               pr.push = rule;
               pr.run = r;
               return g.pagerank(pr);
             });
           })
      .def("bc",
           [](PyEngine& e, const std::vector<vid_t>& sources, std::uint32_t batch,
              const RunOverrides& s) {
             return e.run(s, [&](OocEngine& g, const RunOptions& r) {
               return static_cast<Result<double>>(g.bc(sources, r, batch));
             });
           })
      .def("closeness",
           [](PyEngine& e, const std::vector<vid_t>& sources, std::uint32_t batch,
              const RunOverrides& s) {
             return e.run(s, [&](OocEngine& g, const RunOptions& r) {
               return static_cast<Result<double>>(g.closeness(sources, r, batch));
             });
           })
      .def("sample_sources", &PyEngine::sample_sources);
}

// What a run gives back besides its values, and what it may change for itself.
void bind_run_types(py::module_& m) {
  py::class_<Stats>(m, "Stats").def("json", &Stats::json);

  py::class_<RunOverrides>(m, "RunSettings")
      .def(py::init<>())
      .def_readwrite("transfer", &RunOverrides::transfer)
      .def_readwrite("load_balance", &RunOverrides::load_balance)
      .def_readwrite("direction", &RunOverrides::direction)
      .def_readwrite("priority", &RunOverrides::priority)
      .def_readwrite("max_iterations", &RunOverrides::max_iterations);
}

// Engines from a .oocg file and from a generator.
void bind_load_and_generate(py::module_& m) {
  m.def("load", [](const std::string& path, const py::dict& options) {
    const EngineOptions o = engine_options(options);
    py::gil_scoped_release unlocked;
    return std::make_unique<PyEngine>(OocEngine::load(path, o));
  });
  m.def("generate", [](const GeneratorSpec& spec, bool undirected, const std::string& weights,
                       double hub_sort, const std::string& compress, bool in_edges,
                       std::optional<std::string> output, const py::dict& options) {
    const EngineOptions o = engine_options(options);
    const BuildSettings s = build_settings(undirected, weights, spec.seed, hub_sort, compress,
                                           in_edges, std::move(output));
    py::gil_scoped_release unlocked;
    return engine_of(build(generate(spec), s), o);
  });
}

// An engine from numpy edge arrays.
void bind_from_edges(py::module_& m) {
  m.def("from_edges",
        [](const U32Array& sources, const U32Array& targets, std::optional<U32Array> weights,
           const std::string& weight_type, vid_t num_vertices, bool undirected, double hub_sort,
           const std::string& compress, bool in_edges, std::optional<std::string> output,
           const py::dict& options) {
          const EngineOptions o = engine_options(options);
          EdgeList edges;
          edges.sources = view_of(sources);
          edges.targets = view_of(targets);
          if (weights) {
            edges.weights = view_of(*weights);
            edges.weight_type = weight_type == "f32" ? WeightType::f32 : WeightType::u32;
          }
          edges.num_vertices = num_vertices;
          const BuildSettings s = build_settings(undirected, weights ? "file" : "none", 1, hub_sort,
                                                 compress, in_edges, std::move(output));
          py::gil_scoped_release unlocked;
          return engine_of(build(std::move(edges), s), o);
        });
}

// A text or binary edge list to .oocg.
void bind_convert(py::module_& m) {
  m.def("convert",
        [](const std::string& input, const std::string& output, std::optional<std::string> format,
           bool undirected, const std::string& weights, std::uint64_t seed, double hub_sort,
           const std::string& compress, bool in_edges) {
          const BuildSettings s =
              build_settings(undirected, weights, seed, hub_sort, compress, in_edges, output);
          py::gil_scoped_release unlocked;
          const Format f = format ? parse_format(*format) : detect_format(input);
          if (f == Format::oocg) throw InvalidInput("'" + input + "' is already an .oocg file");
          build(read_edges(input, f), s);
        });
}

void bind_generator_spec(py::module_& m) {
  py::class_<GeneratorSpec>(m, "GeneratorSpec")
      .def(py::init<>())
      .def_readwrite("kind", &GeneratorSpec::kind)
      .def_readwrite("scale", &GeneratorSpec::scale)
      .def_readwrite("edge_factor", &GeneratorSpec::edge_factor)
      .def_readwrite("rows", &GeneratorSpec::rows)
      .def_readwrite("cols", &GeneratorSpec::cols)
      .def_readwrite("vertices", &GeneratorSpec::vertices)
      .def_readwrite("seed", &GeneratorSpec::seed);
}

}  // namespace
}  // namespace ooc::python

PYBIND11_MODULE(_core, m) {
  using namespace ooc::python;
  m.doc() = "OocGraph's engine (internal: use the oocgraph package)";
  m.attr("__version__") = ooc::kVersion;
  translate_errors();
  bind_engine(m);
  bind_run_types(m);
  bind_load_and_generate(m);
  bind_from_edges(m);
  bind_convert(m);
  bind_generator_spec(m);
}
