#!/usr/bin/env python3
"""Bytes per value of candidate cube layouts, computed from a real cube's values.

Dev script, not part of the product: it is how the layouts in docs/performance.md
("Cube format version 2") were compared before one was built. Setup, one line:

    python3 -m venv /tmp/xv && /tmp/xv/bin/pip install numpy

usage: /tmp/xv/bin/python Benchmarks/layouts.py CUBE NWPCUBE_BINARY [--metrics a,b,...]

It reads each metric's quantization step from `nwpcube info --json CUBE`, exports the
metric with `nwpcube export`, turns the values back into the cube's integer codes, and
counts every byte each layout would store, its tables included. The first layout is
version 2 as built, so its figure must come within a few tenths of a percent of
`info --json`'s stored bytes (the sections' padding is not counted): that is the check
that the counting is right.

Layouts, with what one random value costs to read:
- for_series: version 2. Frame of reference per cell series, an 8-byte entry per cell.
  One entry load, one payload load.
- tile_median: each 4×4 tile stores the per-step median of its cells as a series, and
  each cell a frame of reference of its difference from it (4-byte entry per cell, 8 per
  tile). Two entry loads, two payload loads.
- anchors: every 4th cell in each direction is an anchor series; every cell stores its
  difference from the bilinear interpolation of the four anchors around it (4-byte entry
  per cell and per anchor). Five entries, five payload loads and the interpolation.
- west_time_delta: the Lorenzo predictor in (west-east, time): a value minus its western
  neighbour's and its previous step's, plus their diagonal. Zigzag codes in groups of 8
  steps with a 5-bit width per group; no tables counted, so this is a lower bound for it.
  A value needs the prefix sum of its row of cells and of its steps: a chunk decode.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError as error:
    sys.exit(f"layouts: {error}; set up once with: python3 -m venv /tmp/xv && /tmp/xv/bin/pip install numpy")

LEGACY = ["temp", "hum", "rain", "cloud", "wind_u", "wind_v", "atm_press"]
TILE = 4
GROUP = 8


def run(command):
    outcome = subprocess.run(command, capture_output=True, text=True)
    if outcome.returncode != 0:
        sys.exit(f"layouts: {' '.join(command[:2])} failed ({outcome.returncode}): {outcome.stderr.strip()}")
    return outcome


def width(span):
    """Bits of a frame whose codes are 0…span plus the all-ones missing code (0 when constant)."""
    span = np.asarray(span)
    return np.where(span == 0, 0, np.ceil(np.log2(span + 2)).astype(np.int64))


def series_bits(codes):
    """Payload bits of frame-of-reference series along axis 0 of codes [step, …]."""
    steps = codes.shape[0]
    return int((width(codes.max(axis=0) - codes.min(axis=0)) * steps).sum())


def for_series(codes):
    steps, rows, columns = codes.shape
    return series_bits(codes) / 8 + 8 * rows * columns


def tile_median(codes):
    steps, rows, columns = codes.shape
    total = 0.0
    for row in range(0, rows, TILE):
        for column in range(0, columns, TILE):
            tile = codes[:, row:row + TILE, column:column + TILE].reshape(steps, -1)
            median = np.round(np.median(tile, axis=1)).astype(np.int64)
            total += series_bits(tile - median[:, None]) / 8 + 4 * tile.shape[1]
            total += series_bits(median[:, None]) / 8 + 8
    return total


def anchor_axis(length):
    positions = list(range(0, length, TILE))
    if positions[-1] != length - 1:
        positions.append(length - 1)
    positions = np.array(positions)
    below = np.minimum(np.searchsorted(positions, np.arange(length), side="right") - 1, len(positions) - 2)
    fraction = (np.arange(length) - positions[below]) / (positions[below + 1] - positions[below])
    return positions, below, fraction


def anchors(codes):
    steps, rows, columns = codes.shape
    ys, yb, fy = anchor_axis(rows)
    xs, xb, fx = anchor_axis(columns)
    grid = codes[:, ys][:, :, xs]
    g = grid.astype(np.float64)
    fy = fy[None, :, None]
    fx = fx[None, None, :]
    south = (1 - fx) * g[:, yb][:, :, xb] + fx * g[:, yb][:, :, xb + 1]
    north = (1 - fx) * g[:, yb + 1][:, :, xb] + fx * g[:, yb + 1][:, :, xb + 1]
    predicted = np.round((1 - fy) * south + fy * north).astype(np.int64)
    return (series_bits(codes - predicted) + series_bits(grid)) / 8 + 4 * (rows * columns + grid[0].size)


def west_time_delta(codes):
    residual = codes.copy()
    residual[:, :, 1:] -= codes[:, :, :-1]
    residual[1:] -= residual[:-1].copy()
    zigzag = np.where(residual >= 0, 2 * residual, -2 * residual - 1)
    steps = zigzag.shape[0]
    padded = np.concatenate([zigzag, np.zeros(((-steps) % GROUP,) + zigzag.shape[1:], np.int64)])
    groups = padded.reshape(-1, GROUP, *zigzag.shape[1:]).max(axis=1)
    bits = np.where(groups == 0, 0, np.floor(np.log2(np.maximum(groups, 1))).astype(np.int64) + 1)
    return (int(bits.sum()) * GROUP + 5 * groups.size) / 8


LAYOUTS = {"for_series": for_series, "tile_median": tile_median, "anchors": anchors,
           "west_time_delta": west_time_delta}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cube")
    parser.add_argument("nwpcube")
    parser.add_argument("--metrics", default=",".join(LEGACY))
    arguments = parser.parse_args()
    info = json.loads(run([arguments.nwpcube, "info", "--json", arguments.cube]).stdout)
    metrics = {metric["name"]: metric for metric in info["metrics"]}
    names = arguments.metrics.split(",")
    totals = dict.fromkeys(LAYOUTS, 0.0)
    stored = 0
    print(f"{'metric':<12}{'step':>7}{'info --json':>13}" + "".join(f"{name:>17}" for name in LAYOUTS))
    with tempfile.TemporaryDirectory() as scratch:
        for name in names:
            if name not in metrics:
                sys.exit(f"layouts: {arguments.cube} has no metric {name}")
            path = os.path.join(scratch, name + ".f32")
            # export names the shape on standard error: "shape [steps, south_north, west_east]"
            said = run([arguments.nwpcube, "export", arguments.cube, "--metric", name, "--out", path]).stderr
            shape = tuple(int(n) for n in re.search(r"shape \[(\d+), (\d+), (\d+)\]", said).groups())
            values = np.fromfile(path, "<f4").reshape(shape).astype(np.float64)
            if np.isnan(values).any():
                sys.exit(f"layouts: {name} has missing values, which these counts do not model")
            step = metrics[name]["precision"]
            codes = np.round(values / step).astype(np.int64)
            count = codes.size
            stored += metrics[name]["stored_bytes"]
            row = f"{name:<12}{step:>7g}{metrics[name]['stored_bytes'] / count:>13.3f}"
            for layout, measure in LAYOUTS.items():
                size = measure(codes)
                totals[layout] += size
                row += f"{size / count:>17.3f}"
            print(row, flush=True)
    count = len(names) * shape[0] * shape[1] * shape[2]
    print(f"{'all':<12}{'':>7}{stored / count:>13.3f}" + "".join(f"{totals[l] / count:>17.3f}" for l in LAYOUTS))


if __name__ == "__main__":
    main()
