#!/usr/bin/env python3
"""Draws pcie-bench's results (its --json output) as PNGs; pcie-bench --plot DIR runs it.

    plot_pcie.py RESULTS.json OUT_DIR    writes, for the tests present in the file:
        transfer_size.png    pinned H2D cudaMemcpy bandwidth against the size of one copy
        access_pattern.png   every copy and zero-copy pattern side by side
        list_length.png      a warp per neighbour list: bandwidth against list length L,
                             lists end to end, with EMOGI's shift, and 128 B aligned
        resident_blocks.png  merged+aligned zero-copy against one-warp blocks per SM
    plot_pcie.py --check                 exits 0 if matplotlib can be imported

The dashed line in each plot is the GPU's pinned H2D peak of the same run, the JSON's
peak_gbps: its copy test's "pinned H2D", "1 stream" row, the figure the table's '% peak'
divides by (EMOGI, VLDB'21, compares every zero-copy pattern with that figure). For the
all-GPUs-at-once rows it is the sum of the GPUs' peaks.
"""
import json
import os
import sys

ALL_DEVICES = -1
PEAK_NAME = "pinned H2D peak"  # as the table's note names it (peak.hpp, kPeakName)


def load(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    rows = [r for r in doc["rows"] if not r["skipped"]]
    return doc, rows


def device_name(doc, device):
    if device == ALL_DEVICES:
        return "all GPUs at once"
    for d in doc["devices"]:
        if d["index"] == device:
            return f"GPU {device}: {d['name']}, PCIe {d['pcie_link']}"
    return f"GPU {device}"


def devices_of(rows):
    return sorted({r["device"] for r in rows})


LINESTYLES = ("-", "--", ":", "-.")


def peak_of(doc, device):
    """The figure the table's '% peak' divides by, from the JSON's peak_gbps; None if absent."""
    return doc["peak_gbps"].get("all" if device == ALL_DEVICES else str(device))


def peak_label(device, peak):
    """Names the peak as the table does, with the table's two decimals."""
    if device == ALL_DEVICES:
        return f"all GPUs: sum of the GPUs' {PEAK_NAME}s {peak:.2f} GB/s"
    return f"GPU {device} {PEAK_NAME} (copy, 1 stream) {peak:.2f} GB/s"


def peak_line(ax, doc, device, style):
    peak = peak_of(doc, device)
    if peak:
        ax.axhline(peak, color="gray", linestyle=style, linewidth=1, label=peak_label(device, peak))


def finish(fig, ax, title, path):
    ax.set_title(title)
    ax.set_ylabel("GB/s (1e9 bytes/s of useful data)")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"plot_pcie.py: wrote {path}")


def size_label(value):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024:
            return f"{value:g} {unit}"
        value /= 1024
    return f"{value:g} TiB"


def plot_lines(plt, doc, rows, test, out, title, xlabel, xticks_as_size=False):
    """One line per (GPU, pattern) of `test`, bandwidth against row['x'], log2 x axis."""
    chosen = [r for r in rows if r["test"] == test]
    if not chosen:
        return
    fig, ax = plt.subplots(figsize=(8, 5))
    devices = devices_of(chosen)
    patterns = list(dict.fromkeys(r["pattern"] for r in chosen))
    for i, device in enumerate(devices):
        style = LINESTYLES[i % len(LINESTYLES)]
        for j, pattern in enumerate(patterns):
            series = sorted((r for r in chosen if r["device"] == device and r["pattern"] == pattern),
                            key=lambda r: r["x"])
            if not series:
                continue
            label = pattern if len(devices) == 1 else f"GPU {device}: {pattern}"
            ax.plot([r["x"] for r in series], [r["gbps"] for r in series], marker="o",
                    color=f"C{j}", linestyle=style, label=label)
        peak_line(ax, doc, device, style if len(devices) > 1 else "--")
    xs = sorted({r["x"] for r in chosen})
    ax.set_xscale("log", base=2)
    ax.set_xticks(xs)
    ax.set_xticklabels([size_label(x) if xticks_as_size else f"{x:g}" for x in xs],
                       rotation=45 if xticks_as_size else 0)
    ax.set_xlabel(xlabel)
    names = "; ".join(device_name(doc, d) for d in devices_of(chosen))
    finish(fig, ax, f"{title}\n{names}", out)
    plt.close(fig)


def plot_patterns(plt, doc, rows, out):
    """Horizontal bars: every copy, zero-copy and unified-memory figure, per GPU."""
    chosen = [r for r in rows if r["test"] in ("copy", "zerocopy", "unified")]
    if not chosen:
        return
    labels = list(dict.fromkeys(f"{r['test']}: {r['pattern']} ({r['param']})" for r in chosen))
    devices = devices_of(chosen)
    height = 0.8 / len(devices)
    fig, ax = plt.subplots(figsize=(10, 0.35 * len(labels) * len(devices) + 1.5))
    for i, device in enumerate(devices):
        by_label = {f"{r['test']}: {r['pattern']} ({r['param']})": r["gbps"]
                    for r in chosen if r["device"] == device}
        ys = [j + i * height for j, label in enumerate(labels) if label in by_label]
        ax.barh(ys, [by_label[label] for label in labels if label in by_label], height=height,
                label=device_name(doc, device), color=f"C{i}")
        peak = peak_of(doc, device)
        if peak:
            ax.axvline(peak, color=f"C{i}", linestyle="--", linewidth=1,
                       label=peak_label(device, peak))
    ax.set_yticks([j + 0.4 - height / 2 for j in range(len(labels))])
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(f"GB/s (1e9 bytes/s of useful data); dashed: {PEAK_NAME}")
    ax.set_title("Bandwidth by transfer method and access pattern")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"plot_pcie.py: wrote {out}")
    plt.close(fig)


def main(argv):
    if len(argv) == 2 and argv[1] == "--check":
        import matplotlib  # noqa: F401  (the check is that this import works)
        return 0
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    doc, rows = load(argv[1])
    out = argv[2]
    os.makedirs(out, exist_ok=True)
    plot_lines(plt, doc, rows, "sweep", os.path.join(out, "transfer_size.png"),
               "cudaMemcpyAsync pinned H2D: bandwidth against the size of one copy",
               "bytes per copy", xticks_as_size=True)
    plot_patterns(plt, doc, rows, os.path.join(out, "access_pattern.png"))
    plot_lines(plt, doc, rows, "lists", os.path.join(out, "list_length.png"),
               "Zero-copy, a warp per neighbour list: useful bandwidth against list length",
               "list length L (4-byte elements)")
    plot_lines(plt, doc, rows, "blocks", os.path.join(out, "resident_blocks.png"),
               "Zero-copy merged+aligned: bandwidth against reads in flight",
               "resident one-warp blocks per SM (one 128 B read in flight each)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
