"""Running the tools for bench/suite.py: partition-tool generate and info, ooc-run within what
is left of --time-limit (Clock), pcie-bench's measured peak, and the GPU's name."""
import json
import os
import subprocess
import sys
import time


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def run(cmd, **kw):
    log("$", " ".join(cmd))
    return subprocess.run(cmd, check=True, **kw)


def run_bounded(cmd, timeout):
    """run() for the multi-GPU runs: NVLink multicast off (NCCL_NVLS_ENABLE=0 unless set); at the
    timeout SIGTERM first, which mpirun passes to its ranks, and SIGKILL 10 s later. ooc-run's
    stderr is passed on and kept in the CalledProcessError of a failure."""
    log("$", " ".join(cmd))
    env = dict(os.environ)
    env.setdefault("NCCL_NVLS_ENABLE", "0")
    with subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, text=True) as p:
        try:
            _, err = p.communicate(timeout=timeout)
        except BaseException:
            p.terminate()
            try:
                p.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.communicate()
            raise
    sys.stderr.write(err)
    if p.returncode:
        raise subprocess.CalledProcessError(p.returncode, cmd, stderr=err)


class Clock:
    """What is left of --time-limit."""

    def __init__(self, limit):
        self.start = time.time()
        self.limit = limit

    def left(self):
        return None if self.limit is None else self.limit - (time.time() - self.start)


def measured_peak(bin_dir, out):
    path = os.path.join(out, "pcie.json")
    run([os.path.join(bin_dir, "tools/pcie-bench/pcie-bench"), "--quick", "--only", "copy", "--quiet", "--json", path],
        stdout=subprocess.DEVNULL)
    # GPU 0's "pinned H2D peak" row, the figure pcie-bench's table and plots use.
    return json.load(open(path))["peak_gbps"]["0"]


def gpu_name():
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                              text=True, check=True).stdout.strip().splitlines()[0]
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def ooc_run(args, clock, label, json_path, algorithms, *options, launcher=None, tolerance=True):
    """One ooc-run: its JSON, or None and the reason when time ran out. With a launcher (a list,
    empty for none; mpirun ...) it runs through run_bounded; the JSON then gets the command. Without
    tolerance, PageRank runs at ooc-run's default tolerance rather than --tolerance's."""
    left = clock.left()
    if left is not None and left < 5:
        return None, "no time left"
    cmd = [os.path.join(args.bin, "tools/ooc-run/ooc-run"), algorithms] + \
        (["--tolerance", str(args.tolerance)] if tolerance else []) + \
        ["--repeat", str(args.repeat), "--json", json_path, "-q", *options]
    try:
        if launcher is None:
            run(cmd, timeout=left)
        else:
            cmd = [*launcher, *cmd]
            run_bounded(cmd, left)
    except subprocess.TimeoutExpired:
        log("suite: %s stopped at the time limit" % label)
        return None, "stopped at the time limit"
    doc = json.load(open(json_path))
    if launcher is not None:
        doc["command"] = " ".join(cmd)
    return doc, None


def generate(args, name, spec, directed=False, as_a_user=False):
    """partition-tool generate into --work, undirected (or with its in-edges), weights 1..64 unless
    the spec names its own, in the suite's order (--reorder, --compressed): the file and the seconds
    it took. as_a_user: in partition-tool's own order and lists instead, as a new user gets them."""
    work = os.path.join(args.work, name + ".oocg")
    weights = [] if "--weights" in spec else ["--weights", "random:1-64"]
    order = [] if as_a_user else ["--reorder", args.reorder]
    # partition-tool writes raw and compressed lists by default, and the engine then reads the
    # compressed ones: without --compressed the suite's runs are of the raw lists alone.
    compress = [] if as_a_user or args.compressed else ["--raw-only"]
    start = time.time()
    run([os.path.join(args.bin, "tools/partition-tool/partition-tool"), "generate", *spec,
         "--in-edges" if directed else "--undirected", *weights, *order, "-o", work, "-q"] + compress)
    return work, time.time() - start


def pagerank_reference(args, clock, name, graph):
    """PageRank is judged at a measured accuracy: every run's L1 distance to a run at tolerance 1e-7.
    That run's ranks file, and the options that give the others their L1 (none when no time is left)."""
    reference = os.path.join(args.work, name + "-pagerank-1e-7.tsv")
    left = clock.left()
    try:
        if left is not None and left < 5:
            raise subprocess.TimeoutExpired("pagerank reference", 0)
        run([os.path.join(args.bin, "tools/ooc-run/ooc-run"), "pagerank", *graph, "--tolerance", "1e-7",
             "-q", "--output", reference], timeout=left)
        return reference, ["--pagerank-reference", reference]
    except subprocess.TimeoutExpired:
        log("suite: %s: no time left for the PageRank reference; PageRank runs go without L1" % name)
        return reference, []


def file_info(args, work):
    """What partition-tool info --json says of a file's format and lists: its "format_version",
    "file_bytes" and "compressed" (null where the file has raw lists only)."""
    info = json.loads(run([os.path.join(args.bin, "tools/partition-tool/partition-tool"), "info", work, "--json"],
                          stdout=subprocess.PIPE, text=True).stdout)
    return {key: info[key] for key in ["format_version", "file_bytes", "compressed"]}
