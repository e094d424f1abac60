#!/usr/bin/env python3
"""Bytes per edge of candidate neighbour-list encodings, from a .oocg file (docs/file-format.md):
the figures that choose the compressed section's encoding (docs/cost-model.md, "Compressed
neighbour lists"). Needs numpy (Debian python3-numpy); reads the file through a memory map.

  python3 bench/codec_estimate.py g.oocg [more.oocg ...]

  bp32    each list in blocks of 32 targets: a 4-byte first target, a 1-byte bit width, then
          the other targets as deltas from the one before at that width (a warp decodes a block
          with one prefix sum); weights in the same blocks at their own width
  gvarint the deltas in group varint: a control byte per 4 values, each value in 1-4 bytes
Each list is sorted first, its weights moved with it (hub sort renumbers without re-sorting).
"""
import sys
import numpy as np

def read(path):
    with open(path, "rb") as f:
        head = f.read(256)
    v = int.from_bytes(head[24:32], "little")
    e = int.from_bytes(head[32:40], "little")
    wt = int.from_bytes(head[40:44], "little")
    sec = [(int.from_bytes(head[48 + 24 * i:56 + 24 * i], "little"),
            int.from_bytes(head[56 + 24 * i:64 + 24 * i], "little")) for i in range(4)]
    m = np.memmap(path, dtype=np.uint8, mode="r")
    off = np.frombuffer(m[sec[0][0]:sec[0][0] + sec[0][1]], dtype=np.uint64)
    tgt = np.frombuffer(m[sec[1][0]:sec[1][0] + sec[1][1]], dtype=np.uint32)
    w = np.frombuffer(m[sec[2][0]:sec[2][0] + sec[2][1]], dtype=np.uint32) if wt else None
    return v, e, off, tgt, w

def bits(x):
    """Bit length of each value (0 for 0); exact below 2^32, where float64 holds every integer."""
    out = np.zeros(x.shape, dtype=np.uint8)
    nz = x > 0
    out[nz] = (np.floor(np.log2(x[nz].astype(np.float64))) + 1).astype(np.uint8)
    return out

def main(path):
    v, e, off, tgt, w = read(path)
    deg = np.diff(off).astype(np.int64)
    lid = np.repeat(np.arange(v, dtype=np.int64), deg)
    pos = np.arange(e, dtype=np.int64) - np.repeat(off[:-1].astype(np.int64), deg)
    order = np.lexsort((tgt, lid))  # each list sorted (hub sort renumbers, it does not re-sort)
    t = tgt[order].astype(np.int64)
    if w is not None:
        w = w[order]
    delta = np.empty(e, dtype=np.int64)
    delta[0:1] = 0
    delta[1:] = t[1:] - t[:-1]
    first_of_block = (pos % 32) == 0
    delta[first_of_block] = 0
    assert (delta >= 0).all(), "lists are not sorted"
    starts = np.flatnonzero(first_of_block)
    width = np.maximum.reduceat(bits(delta), starts) if e else np.array([])
    count = np.diff(np.append(starts, e))
    bp = (5 + (count * width.astype(np.int64) + 7) // 8).sum()
    line = "targets: raw 4.00, bp32 %.2f" % (bp / e)
    if w is not None:
        ww = np.maximum.reduceat(bits(w.astype(np.int64)), starts)
        wb = (1 + (count * ww.astype(np.int64) + 7) // 8).sum()
        line += "; weights: raw 4.00, bp32 %.2f" % (wb / e)
    # group varint of the deltas, the list's first value whole
    d = t.copy()
    d[1:] = t[1:] - t[:-1]
    d[pos == 0] = t[pos == 0]
    nbytes = np.where(d < 1 << 8, 1, np.where(d < 1 << 16, 2, np.where(d < 1 << 24, 3, 4)))
    gv = nbytes.sum() + ((deg + 3) // 4).sum()
    line += "; targets gvarint %.2f" % (gv / e)
    blocks = len(starts)
    print("%s: V %d, E %d, mean degree %.1f, blocks %d (%.1f edges each); bytes per edge: %s" %
          (path, v, e, e / max(v, 1), blocks, e / max(blocks, 1), line))

if __name__ == "__main__":
    for p in sys.argv[1:]:
        main(p)
