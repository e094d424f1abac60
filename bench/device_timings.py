#!/usr/bin/env python3
"""The timings stage of scripts/device/run.sh: the sets of scripts/device/timings.json, run.

  python3 bench/device_timings.py run SET...    (from run.sh, which exports its variables)
  python3 bench/device_timings.py check SET...  exit 64 naming a set timings.json lacks
  python3 bench/device_timings.py default       the default sets, on one line
  python3 bench/device_timings.py help          each set's line for run.sh --help

run reads run.sh's variables from the environment (KRON_SCALE, GRAPH, REPEAT, ... and RESULTS,
SUMMARY, BUDGET_S, RUN_T0: the epoch second run.sh started, DRY_RUN, STAGE_NOTE_FILE), writes
its logs and figures under $RESULTS/timings, its lines into $SUMMARY, the stage's one-line note
into $STAGE_NOTE_FILE, and exits 1 if a run failed. Every command is cut at what is left of
BUDGET_S (and its own cap); with DRY_RUN=1 it is printed ("+ COMMAND") instead of run.
"""
import glob
import json
import os
import re
import subprocess
import sys
import textwrap
import time

import device_report

HERE = os.path.dirname(os.path.abspath(__file__))
SETS_FILE = os.path.join(HERE, "..", "scripts", "device", "timings.json")
PR_REFERENCE = "/tmp/ooc-pagerank-1e-7.tsv"
RUN_LINE = re.compile(r"^(bfs|sssp|cc|pagerank) on")


def load_sets(path=SETS_FILE):
    with open(path) as f:
        return json.load(f)


class Stage:
    """One timings stage: the variables, the budget, the failures and the summary lines."""

    def __init__(self, env, data):
        self.env = dict(env)
        self.data = data
        self.b = env.get("B", "build/device")
        self.tools = {"ooc-run": self.b + "/tools/ooc-run/ooc-run",
                      "partition-tool": self.b + "/tools/partition-tool/partition-tool",
                      "pcie-bench": self.b + "/tools/pcie-bench/pcie-bench"}
        self.d = os.path.join(env["RESULTS"], "timings")
        self.dry = env.get("DRY_RUN") == "1"
        self.t0 = float(env.get("RUN_T0") or time.time())
        self.budget = int(env.get("BUDGET_S", "570"))
        self.failed = []
        self.vars = dict(env, k="k" + env["KRON_SCALE"], d=self.d)
        for name in ("MAPPING_GRID", "DIRECTION_GRID", "REORDER_GRID", "HD_GRID"):
            rows, _, cols = env.get(name, "").partition("x")
            self.vars[name + "_ROWS"], self.vars[name + "_COLS"] = rows, cols
        self.graph = ["--graph", env["GRAPH"]]

    # ---- commands --------------------------------------------------------------------------
    def left(self):
        return self.budget - int(time.time() - self.t0)

    def note(self, *lines):
        with open(self.env["SUMMARY"], "a") as f:
            f.write("".join(line + "\n" for line in lines))

    def bounded(self, cap, cmd, log=None, err=None):
        """cmd for at most cap seconds and never past the budget; its output into log (or
        nowhere), its errors there too unless err names a file they are added to. Its exit
        status, 124 when cut or when no time is left."""
        t = min(self.left() - 10, cap)
        if t < 5:
            print("run.sh: no time left for: " + " ".join(cmd), file=sys.stderr)
            return 124
        out = open(log, "w") if log else subprocess.DEVNULL
        errors = open(err, "a") if err else subprocess.STDOUT
        try:
            if self.dry:
                print("+ " + " ".join(cmd), flush=True)
                if log:
                    out.write("+ timeout %d %s\n" % (t, " ".join(cmd)))
                return 0
            return subprocess.run(["timeout", "-k", "10", str(t), *cmd], stdout=out, stderr=errors).returncode
        finally:
            if log:
                out.close()
            if err:
                errors.close()

    def timing(self, name, cap, args, mpi=False, wrap=()):
        """One ooc-run into NAME.{log,json,csv} (mpi: as 2 ranks, each under wrap; the first rank
        writes every rank's trace)."""
        start = time.time()
        out = ["--json", "%s/%s.json" % (self.d, name), "--trace", "%s/%s.csv" % (self.d, name)]
        if mpi:
            launcher = ["mpirun", "-np", "2", "-x", "NCCL_NVLS_ENABLE"]
            if os.geteuid() == 0:
                launcher.append("--allow-run-as-root")
            cmd = [*launcher, *wrap, self.tools["ooc-run"], *args, *out]
        else:
            cmd = [self.tools["ooc-run"], *args, *out]
        rc = self.bounded(cap, cmd, "%s/%s.log" % (self.d, name))
        self.note("%-20s rc=%-3s %4d s" % (name, rc, time.time() - start))
        if rc:
            self.failed.append("%s(rc=%d)" % (name, rc))
        return rc

    def generate(self, name, path, args, cap=400):
        """partition-tool generate ARGS -o PATH, under /usr/bin/time -v where it is; on failure a
        note, NAME-generate counted as failed, PATH removed, False."""
        timev = ["/usr/bin/time", "-v", "-o", "%s/%s-time.log" % (self.d, name)] \
            if os.access("/usr/bin/time", os.X_OK) else []
        cmd = [*timev, self.tools["partition-tool"], "generate", *args, "-o", path]
        if self.bounded(cap, cmd, "%s/%s-generate.log" % (self.d, name)) == 0:
            return True
        self.note("%s: generating failed: timings/%s-generate.log" % (name, name))
        self.failed.append(name + "-generate")
        self.remove(path)
        return False

    def generate_time(self, name):
        """The wall time and peak memory that generate measured, on one line."""
        return time_line("%s/%s-time.log" % (self.d, name))

    def pr_reference(self, name, graph_file, out):
        """PageRank at tolerance 1e-7 into out, which later PageRank runs measure L1 against."""
        if self.bounded(300, [self.tools["ooc-run"], "pagerank", "--graph", graph_file, "--tolerance", "1e-7",
                              "-q", "--output", out], "%s/%s-pr-reference.log" % (self.d, name)) == 0:
            return True
        self.note("%s: pagerank reference failed: timings/%s-pr-reference.log" % (name, name))
        return False

    def remove(self, path):
        """Deletes a graph or reference the stage made (nothing under DRY_RUN, which made none)."""
        if not self.dry:
            remove(path)

    # ---- templates -------------------------------------------------------------------------
    def text(self, template, ctx):
        return template.format_map({**self.vars, **ctx})

    def args(self, items, ctx, shapes=None):
        out = []
        for item in items:
            if item == "@graph":
                out += ctx.get("graph", self.graph)
            elif item == "@host":
                out += ["--in-memory", "off"]
            elif item == "@shape":
                shape = (shapes or {}).get(ctx["kind"], (shapes or {}).get("*", []))
                out += self.args(shape, ctx)
            elif item == "@REORDER_ROUNDS":
                out += ["--reorder-rounds", self.vars["REORDER_ROUNDS"]] if self.vars.get("REORDER_ROUNDS") else []
            else:
                out.append(self.text(item, ctx))
        return out

    def files(self, patterns, ctx):
        out = []
        for p in patterns:
            p = self.text(p, ctx)
            out += (sorted(glob.glob(p)) or [p]) if "*" in p else [p]
        return out

    def report(self, item, ctx):
        """A note's computed line: a bench/device_report.py table, a grep, policy_choices.py."""
        files = self.files(item.get("files", []), ctx)
        name = item["report"]
        try:
            if name == "grep":
                return grep(item["pattern"], files, item.get("names", False), item.get("cut"))
            if name == "policy-choices":
                return subprocess.run([sys.executable, os.path.join(HERE, "policy_choices.py"),
                                       *item.get("args", []), *files], stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True).stdout.rstrip("\n")
            if name == "pr-distance":
                return device_report.pr_distance(*files)
            if name == "all-gpus-link":
                return device_report.all_gpus_link(files)
            if name == "locality":
                return device_report.locality(files[0])
            table = {"ranks": device_report.ranks_table, "direction": device_report.direction_table,
                     "loop": device_report.loop_table,
                     "cache": device_report.cache_table, "reorder": device_report.reorder_table,
                     "compressed": device_report.compressed_values}[name]
            return table(files)
        except Exception as e:  # the table's error in the summary, as the old heredocs' 2>&1
            return "" if item.get("quiet") else "%s: %s: %s" % (name, type(e).__name__, e)

    # ---- steps -----------------------------------------------------------------------------
    def steps(self, steps, ctx):
        """Runs the steps in order; False (the rest skipped) after a step that made no graph."""
        for step in steps:
            if not self.step(step, ctx):
                return False
        return True

    KINDS = ("run", "mpi", "each", "tool", "known", "generate", "reference", "when_file", "when", "call",
             "remove", "note")

    def step(self, s, ctx):
        """One step of timings.json (its kind: the first key of KINDS it has); False when it made
        no graph, so that the steps after it are skipped."""
        kind = next((k for k in self.KINDS if k in s), None)
        if kind in ("run", "mpi"):
            self.timing(self.text(s[kind], ctx), s["cap"], self.args(s["args"], ctx), mpi=kind == "mpi",
                        wrap=self.args(s.get("wrap", []), ctx))
        elif kind == "each":
            for word in self.text(s["each"], ctx).split():
                self.steps(s["steps"], {**ctx, s["as"]: word})
        elif kind == "tool":
            log = "%s/%s" % (self.d, self.text(s["log"], ctx))
            rc = self.bounded(s["cap"], [self.tools[s["tool"]], *self.args(s["args"], ctx, s.get("shapes"))], log)
            if rc and "note_failed" in s:
                self.note(self.text(s["note_failed"], ctx))
            elif "note" in s:
                self.note(self.text(s["note"], {**ctx, "rc": rc, "last_line": (read_lines(log) or [""])[-1]}))
        elif kind == "known":
            if ctx["kind"] not in s["known"]:
                self.note(self.text(s["note"], ctx))
                self.failed.append(self.text(s["failed"], ctx))
                return False
        elif kind == "generate":
            return self.generate_step(s, ctx)
        elif kind == "reference":
            if self.pr_reference(s["reference"], ctx["file"], ctx["reference"]):
                ctx["graph"] = ctx["graph"] + ["--pagerank-reference", ctx["reference"]]
        elif kind == "when_file":
            if nonempty(self.text(s["when_file"], ctx)):
                self.steps(s["steps"], ctx)
        elif kind == "when":
            if self.vars.get(s["when"]) == "1":
                self.steps(s["steps"], ctx)
        elif kind == "call":
            getattr(self, "set_" + s["call"])(s["cap"], ctx)
        elif kind == "remove":
            for p in s["remove"]:
                self.remove(self.text(p, ctx))
        elif kind == "note":
            self.note(*[self.text(x, ctx) if isinstance(x, str) else
                        self.text(x.get("prefix", ""), ctx) + self.report(x, ctx) for x in s["note"]])
        else:
            raise ValueError("timings.json: a step of no known kind: %s" % s)
        return True

    def generate_step(self, s, ctx):
        """A set's own graph: /tmp/ooc-NAME.oocg (and its PageRank reference, with "reference")."""
        name = self.text(s["generate"], ctx)
        ctx["file"] = "/tmp/ooc-%s.oocg" % name
        ctx["reference"] = "/tmp/ooc-%s-pagerank.tsv" % name
        ctx["graph"] = ["--graph", ctx["file"]]
        start = time.time()
        if not self.generate(name, ctx["file"], self.args(s["args"], ctx, s.get("shapes"))):
            return False
        last = (read_lines("%s/%s-generate.log" % (self.d, name)) or [""])[-1]
        if "note" in s:
            self.note(*[self.text(x, {**ctx, "seconds": int(time.time() - start), "last_line": last,
                                      "time": self.generate_time(name)}) for x in s["note"]])
        if s.get("reference") and self.pr_reference(name, ctx["file"], ctx["reference"]):
            ctx["graph"] = ctx["graph"] + ["--pagerank-reference", ctx["reference"]]
        return True

    # ---- the procedures: sets whose runs depend on what an earlier run wrote ---------------
    def cache_plan(self):
        """Each program's vertex data and staging (one iteration of each, --json) and the graph's
        stored bytes (partition-tool info --json), once per call, for the cache budgets."""
        plan, info = "%s/%s-cacheplan.json" % (self.d, self.vars["k"]), self.d + "/info.json"
        if nonempty(plan) and nonempty(info):
            return True
        log = "%s/%s-cacheplan.log" % (self.d, self.vars["k"])
        if self.bounded(120, [self.tools["ooc-run"], "bfs,sssp,cc,pagerank", "--graph", self.env["GRAPH"],
                              "--in-memory", "off", "--max-iterations", "1", "-q", "--json", plan], log) == 0 and \
                self.bounded(60, [self.tools["partition-tool"], "info", self.env["GRAPH"], "--json"], info,
                             err=log) == 0:
            return True
        self.note("cache: no plan (timings/%s-cacheplan.log)" % self.vars["k"])
        self.failed.append(self.vars["k"] + "-cacheplan")
        return False

    def cache_budget(self, algo, share):
        try:
            return device_report.cache_budget("%s/%s-cacheplan.json" % (self.d, self.vars["k"]),
                                              self.d + "/info.json", algo, share, self.env["CACHE_OF"])
        except (OSError, ValueError, KeyError):
            return None

    def set_cache(self, cap, ctx):
        """Each algorithm with a budget of its vertex data and staging plus CACHE_SHARES percent
        of its edge bytes; pagerank at each of CACHE_PR_TOLERANCES."""
        k = self.vars["k"]
        if not self.cache_plan():
            return
        names = ["bfs", "sssp", "cc"] + ["pagerank_tol" + t for t in self.env["CACHE_PR_TOLERANCES"].split()]
        slices = ["--resident-slices", self.env["CACHE_SLICES"]] if self.env.get("CACHE_SLICES") else []
        for name in names:
            algo, _, tol = name.partition("_tol")
            for share in self.env["CACHE_SHARES"].split():
                budget = self.cache_budget(algo, share)
                if budget is None:
                    self.note("cache: no plan for %s (timings/%s-cacheplan.log)" % (algo, k))
                    self.failed.append("%s-cache-%s" % (k, algo))
                    break
                self.timing("%s-cache-%s-%s" % (k, name, share), cap,
                            [algo, *self.graph, "--budget", str(budget), "--tolerance", tol or "1e-3",
                             "--repeat", self.env["CACHE_REPEAT"], *slices])
        self.note("", self.report({"report": "cache", "files": ["{d}/{k}-cache-*.json"]}, ctx))

    def set_slices(self, cap, ctx):
        """pagerank with --resident-slices in GPU memory, then with every list in the cache."""
        k = self.vars["k"]
        if not self.cache_plan():
            return
        budget = self.cache_budget("pagerank", 100)
        for tol in self.env["SLICES_TOLERANCES"].split():
            common = ["--tolerance", tol, "--resident-slices", self.env["RESIDENT_SLICES"], "--repeat",
                      self.env["REPEAT"]]
            self.timing("%s-slices-memory-%s" % (k, tol), cap, ["pagerank", *self.graph, *common])
            if budget is not None:
                self.timing("%s-slices-cache-%s" % (k, tol), cap,
                            ["pagerank", *self.graph, "--budget", str(budget), *common])

    def set_bc(self, cap, ctx):
        """bfs from each source bc sampled, then bc's phases against those bfs times."""
        k, d = self.vars["k"], self.d
        try:
            sources = device_report.bc_sources("%s/%s-bc.json" % (d, k))
        except (OSError, ValueError, KeyError, IndexError):
            sources = []
        bfs_files = []
        for source in sources:
            self.timing("%s-bc-bfs-%s" % (k, source), cap,
                        ["bfs", *self.graph, "--in-memory", "off", "-s", str(source)])
            bfs_files.append("%s/%s-bc-bfs-%s.json" % (d, k, source))
        lines = grep(r"^(bc sources|bc on|  bc )", ["%s/%s-bc.log" % (d, k)])
        try:
            report = device_report.bc_report("%s/%s-bc.json" % (d, k), bfs_files)
        except Exception as e:
            report = "bc: %s: %s" % (type(e).__name__, e)
        self.note(lines, report)

    # ---- the stage -------------------------------------------------------------------------
    def main_graph(self, sets):
        """$GRAPH, generated unless KEEP_GRAPH=1 finds it, its info, and the PageRank reference;
        False (and the stage's note) when generating it failed."""
        d, env, pt = self.d, self.env, self.tools["partition-tool"]
        graph = env["GRAPH"]
        if env.get("KEEP_GRAPH") == "1" and nonempty(graph):
            self.note("graph: reusing %s (KEEP_GRAPH=1)" % graph)
        else:
            start = time.time()
            timev = ["/usr/bin/time", "-v", "-o", d + "/generate-time.log"] if os.access("/usr/bin/time", os.X_OK) \
                else []
            # Raw lists only unless a set reads compressed ones (partition-tool writes both by
            # default): the other sets measure what they did before, and kron-26 generates in
            # about a third of the time.
            compress = ["--compress"] if env.get("COMPRESS") == "1" or any(
                self.data["sets"][s].get("compress") for s in sets) else ["--raw-only"]
            g = self.data["graph"]
            if self.bounded(g["cap"], [*timev, pt, "generate", *self.args(g["generate"], {}), *compress, "-o", graph],
                            d + "/generate.log"):
                self.stage_note = "generating kron-%s failed: timings/generate.log" % env["KRON_SCALE"]
                for line in read_lines(d + "/generate.log")[-5:]:
                    print("    " + line)
                self.remove(graph)
                return False
            size = os.path.getsize(graph) if os.path.exists(graph) else ""
            self.note("generate kron-%s: %d s, file %s bytes;" % (env["KRON_SCALE"], time.time() - start, size),
                      "  " + time_line(d + "/generate-time.log"))
        self.bounded(60, [pt, "info", graph], d + "/info.txt")
        if any(self.data["sets"][s].get("pagerank_reference") for s in sets):
            start = time.time()
            if self.bounded(300, [self.tools["ooc-run"], "pagerank", *self.graph, "--tolerance", "1e-7", "-q",
                                  "--output", PR_REFERENCE], d + "/pr-reference.log") == 0:
                self.graph += ["--pagerank-reference", PR_REFERENCE]
                self.note("pagerank reference (tolerance 1e-7): %d s" % (time.time() - start))
            else:
                self.note("pagerank reference failed: timings/pr-reference.log")
        return True

    def peak(self):
        """The pinned H2D peak, for BFS's lower bound: from the pcie stage, else measured now."""
        path = self.env["RESULTS"] + "/pcie/pcie.json"
        if not nonempty(path):
            path = self.d + "/peak.json"
            self.bounded(60, [self.tools["pcie-bench"], "--quick", "--only", "copy", "--quiet", "--json", path])
        try:
            return device_report.peak_gbps(path)
        except (OSError, ValueError, KeyError):
            return None

    def run(self, sets):
        self.stage_note = ""
        if any(not self.data["sets"][s].get("own_graph") for s in sets) and not self.main_graph(sets):
            return 1
        peak = self.peak()
        self.note("pinned H2D peak: %s GB/s" % (peak if peak is not None else "not measured"))
        for s in sets:
            self.steps(self.data["sets"][s]["steps"], {})
        if self.env.get("KEEP_GRAPH") != "1":
            self.remove(self.env["GRAPH"])
        self.remove(PR_REFERENCE)
        jsons = []
        for s in sets:
            spec = self.data["sets"][s]
            if spec.get("in_table", True):
                prefix = "%s/%s" % (self.d, self.text(spec.get("json_prefix", "{k}-" + s), {}))
                jsons += [p for p in [prefix + ".json"] + sorted(glob.glob(glob.escape(prefix) + "-*.json"))
                          if os.path.exists(p)]
        if jsons:
            self.note("", device_report.timing_table(peak, jsons))
        if self.failed:
            # A set cut by its timeout leaves no JSON; its log keeps the runs that finished.
            lines = [re.sub(r" edges processed, bytes:", " e,", x)[:200]
                     for p in sorted(glob.glob(self.d + "/*.log")) for x in read_lines(p) if RUN_LINE.match(x)]
            self.note("summary lines of the failed sets:", "\n".join(lines))
            self.stage_note = "failed: " + " ".join(self.failed)
            return 1
        self.stage_note = "sets: %s (graph kron-%s, peak %s GB/s)" % (
            " ".join(sets), self.env["KRON_SCALE"], peak if peak is not None else "?")
        return 0


def nonempty(path):
    return os.path.exists(path) and os.path.getsize(path) > 0


def read_lines(path):
    try:
        with open(path, errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return []


def remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def time_line(path):
    """GNU time -v's wall time and peak memory lines, blanks squeezed, each ended by ';'."""
    return "".join(re.sub(r"[ \t]+", " ", x) + ";" for x in read_lines(path)
                   if "Elapsed" in x or "Maximum resident" in x)


def grep(pattern, files, names=False, cut=None):
    """grep -hE (or -H with names) PATTERN FILES, each line cut at `cut` characters."""
    rx = re.compile(pattern)
    out = []
    for f in files:
        for line in read_lines(f):
            if rx.search(line):
                line = "%s:%s" % (f, line) if names else line
                out.append(line[:cut] if cut else line)
    return "\n".join(out)


def main(argv):
    data = load_sets()
    if len(argv) < 1 or argv[0] not in ("run", "check", "default", "help"):
        print(__doc__, file=sys.stderr)
        return 64
    command, sets = argv[0], argv[1:]
    unknown = [s for s in sets if s not in data["sets"]]
    if unknown:
        print("run.sh: unknown timing set '%s' in TIMINGS (see --help)" % unknown[0], file=sys.stderr)
        return 64
    if command == "default":
        print(" ".join(data["default"]))
    elif command == "help":
        for name, spec in data["sets"].items():
            wrapped = textwrap.wrap(spec["help"], 80)
            print("  %-12s %s" % (name, wrapped[0]) if len(name) <= 12 else "  %s  %s" % (name, wrapped[0]))
            for line in wrapped[1:]:
                print(" " * 15 + line)
    elif command == "run":
        stage = Stage(os.environ, data)
        rc = stage.run(sets)
        if os.environ.get("STAGE_NOTE_FILE"):
            with open(os.environ["STAGE_NOTE_FILE"], "w") as f:
                f.write(stage.stage_note)
        return rc
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
