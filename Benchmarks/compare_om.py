#!/usr/bin/env python3
"""Bytes and read times of the same run: Open-Meteo's OM files (omfiles) vs. an nwpcube cube.

Dev script, not part of the product. Setup, one line:

    python3 -m venv /tmp/omvenv && /tmp/omvenv/bin/pip install omfiles numpy

usage: /tmp/omvenv/bin/python Benchmarks/compare_om.py RUN_DIR NWPCUBE_BINARY [--queries N] [--rounds R]

It ingests RUN_DIR's wrfout_d01_* files with NWPCUBE_BINARY into a temporary store at
nwpcube's default precisions, reads the cube's precision and stored bytes per metric from
`nwpcube info --json` (a v1 binary refuses --json: then every metric is 2 bytes per value
and its precision is the step `info` prints), exports the seven legacy fields with
`nwpcube export`, and writes each with omfiles as Open-Meteo writes its time series:
array [south_north][west_east][time], chunks [1, max(6, 3072 / steps), steps] (its
OmFileSplitter), compression pfor_delta_2d_int16 with scale factor 1 / the cube's precision
(add_offset 0, as Open-Meteo uses it; centred when a field's range does not fit 16 bits at
that precision, e.g. pressure at 0.01 hPa; int32 pfor_delta_2d on the quantized integers when
not even that fits). Every OM file is read back and checked within half the precision.

Then the read times, both sides in the same session, alternating for R rounds so that both
see the same machine load: OM through omfiles' Python reader (readers opened beforehand; only
the read is timed: `reader[j, i, t]` for one value, `reader[j, i, t0:t0 + 24]` of each of the
seven fields for a 24-hour series), and `nwpcube bench --kinds nearest,read,series24h` for
the cube. Both are timed in batches of 16 lookups, as bench does, so that the clock's own
cost is spread over a batch; percentiles are of the per-lookup time within each batch.
"""
import argparse
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

try:
    from importlib.metadata import version

    import numpy as np
    from omfiles import OmFileReader, OmFileWriter
except ImportError as error:
    sys.exit(f"compare_om: {error}; set up once with: "
             "python3 -m venv /tmp/omvenv && /tmp/omvenv/bin/pip install omfiles numpy, "
             "then run this script with /tmp/omvenv/bin/python")

LEGACY = ["temp", "hum", "rain", "cloud", "wind_u", "wind_v", "atm_press"]
BATCH = 16
INT16_LIMIT = 32766  # 32767 is OM's missing-value sentinel


def run(command):
    """Runs a command; on failure, exits with its standard error as the reason."""
    outcome = subprocess.run(command, capture_output=True, text=True)
    if outcome.returncode != 0:
        sys.exit(f"compare_om: {' '.join(command[:2])} failed ({outcome.returncode}): {outcome.stderr.strip()}")
    return outcome


def cube_info(binary, cube):
    """`info --json` (the v2 contract), or the same facts from a v1 binary's text output."""
    outcome = subprocess.run([binary, "info", "--json", cube], capture_output=True, text=True)
    if outcome.returncode == 0:
        return json.loads(outcome.stdout)
    text = run([binary, "info", cube]).stdout
    shape = re.search(r"(\d+) west-east × (\d+) south-north × (\d+) steps", text)
    size = re.search(r"size\s+(\d+) bytes", text)
    if not shape or not size:
        sys.exit(f"compare_om: cannot read the shape from `info {cube}`:\n{text}")
    cells, steps = int(shape[1]) * int(shape[2]), int(shape[3])
    metrics = []
    # v1 stores every value as one 16-bit word.
    rows = re.findall(r"^(?:metrics)?\s+(\w+)\s+(.+?)\s+([0-9][0-9.e+-]*)\s+-?[0-9.e+-]+…", text, re.M)
    for name, unit, step in rows:
        metrics.append({"name": name, "unit": unit, "precision": float(step), "stored_bytes": 2 * cells * steps,
                        "bytes_per_value": 2.0})
    return {"format_version": 1, "file_bytes": int(size[1]), "cells": cells, "steps": steps, "metrics": metrics}


def export(binary, cube, metric, directory):
    """The metric as the cube holds it, [step][south_north][west_east], through `nwpcube export`."""
    path = os.path.join(directory, f"{metric}.f32")
    outcome = subprocess.run([binary, "export", cube, "--metric", metric, "--out", path], capture_output=True, text=True)
    if outcome.returncode != 0:
        sys.exit(f"compare_om: export {metric} failed: {outcome.stderr.strip()}")
    shape = re.search(r"shape \[(\d+), (\d+), (\d+)\]", outcome.stderr)
    if not shape:
        sys.exit(f"compare_om: export printed no shape: {outcome.stderr.strip()}")
    steps, height, width = map(int, shape.groups())
    return np.fromfile(path, dtype="<f4").reshape(steps, height, width)


def write_om(values, precision, path):
    """Writes [y][x][t] values as Open-Meteo does; returns (bytes, how, max read-back error)."""
    chunks = [1, min(values.shape[1], max(6, 3072 // values.shape[2])), values.shape[2]]
    scale = 1 / precision
    low, high = float(np.nanmin(values)), float(np.nanmax(values))
    writer = OmFileWriter(path)
    if max(abs(low), abs(high)) * scale <= INT16_LIMIT:
        how = "int16"
        variable = writer.write_array(values, chunks=chunks, scale_factor=scale, add_offset=0.0,
                                      compression="pfor_delta_2d_int16")
    elif (high - low) * scale <= 2 * INT16_LIMIT:
        # OM stores round((v + add_offset) × scale): centre the range on 0, on the precision's grid.
        how = "int16, centred"
        offset = -round((low + high) / 2 / precision) * precision
        variable = writer.write_array(values, chunks=chunks, scale_factor=scale, add_offset=offset,
                                      compression="pfor_delta_2d_int16")
    else:
        how = "int32"
        quantized = np.where(np.isnan(values), np.iinfo(np.int32).max, np.rint(values / precision)).astype(np.int32)
        variable = writer.write_array(quantized, chunks=chunks, compression="pfor_delta_2d")
    writer.close(variable)
    reader = OmFileReader(path)
    back = reader[:, :, :].astype(np.float64)
    reader.close()
    if how == "int32":
        back = np.where(back == np.iinfo(np.int32).max, np.nan, back * precision)
    if not np.array_equal(np.isnan(back), np.isnan(values)):
        sys.exit(f"compare_om: {path}: missing values not where the cube has them")
    error = float(np.nanmax(np.abs(back - values))) if not np.isnan(values).all() else 0.0
    if error > precision / 2 + 1e-3 * precision + 1e-6 * max(abs(low), abs(high)):
        sys.exit(f"compare_om: {path}: read back {error} off, more than half the precision {precision}")
    return os.path.getsize(path), how, error


def percentiles(samples):
    ordered = sorted(samples)
    pick = lambda fraction: ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]
    return {"p50_ns": pick(0.5), "p90_ns": pick(0.9), "p99_ns": pick(0.99)}


def time_om(readers, shape, queries, rng):
    """Per-lookup ns of one value and of a 24-hour series of the seven fields, batches of 16."""
    height, width, steps = shape
    js, is_ = rng.integers(0, height, queries), rng.integers(0, width, queries)
    ts, starts = rng.integers(0, steps, queries), rng.integers(0, steps - 24 + 1, queries)
    fields = rng.integers(0, len(readers), queries)
    # Plain Python ints, so that the timed loop does no numpy scalar conversions of its own.
    js, is_, ts, starts, fields = (a.tolist() for a in (js, is_, ts, starts, fields))
    sink = 0.0

    def one(q):
        return readers[fields[q]][js[q], is_[q], ts[q]]

    def series(q):
        j, i, t = js[q], is_[q], starts[q]
        return [reader[j, i, t:t + 24] for reader in readers]

    def loop(q):
        # The same loop and argument lookups, calling a function that reads nothing: what
        # Python itself adds to `one`.
        return nothing(fields[q], js[q], is_[q], ts[q])

    def nothing(*_):
        return None

    results = {}
    for kind, body in (("one value", one), ("24-hour series of 7", series), ("loop", loop)):
        for q in range(min(queries, 1000)):  # warm the mapping, as bench does
            body(q)
        samples = []
        for first in range(0, queries - BATCH + 1, BATCH):
            start = time.perf_counter_ns()
            for q in range(first, first + BATCH):
                body(q)
            samples.append((time.perf_counter_ns() - start) / BATCH)
        results[kind] = percentiles(samples)
    return results


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            model = next(line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{model}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", help="directory of the run's wrfout_d01_* files")
    parser.add_argument("nwpcube", help="the nwpcube binary to compare (release build)")
    parser.add_argument("--queries", type=int, default=20000, help="lookups per kind and round (default 20000)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating OM/cube rounds (default 3)")
    args = parser.parse_args()
    if args.queries < BATCH:
        sys.exit(f"compare_om: --queries {args.queries} must be at least {BATCH}")
    files = sorted(glob.glob(os.path.join(args.run, "wrfout_d01_*")))
    if len(files) < 24:
        sys.exit(f"compare_om: {args.run} has {len(files)} wrfout_d01_* files; a 24-hour series needs at least 24")

    # An older binary answers `export --help` with its general help, which has no export usage.
    if "nwpcube export" not in subprocess.run([args.nwpcube, "export", "--help"], capture_output=True, text=True).stdout:
        sys.exit(f"compare_om: {args.nwpcube} has no export command; use a build that has it (branch compare-om or later)")

    work = tempfile.mkdtemp(prefix="compare-om-")
    try:
        store = os.path.join(work, "store")
        cube = run([args.nwpcube, "ingest", "--store", store] + files).stdout.strip().splitlines()[-1]
        info = cube_info(args.nwpcube, cube)
        by_name = {metric["name"]: metric for metric in info["metrics"]}
        missing = [name for name in LEGACY if name not in by_name]
        if missing:
            sys.exit(f"compare_om: the cube lacks {', '.join(missing)}")

        rows, paths, shape = [], [], None
        for name in LEGACY:
            values = export(args.nwpcube, cube, name, work)
            grid = np.ascontiguousarray(values.transpose(1, 2, 0))  # OM's layout: [y][x][t]
            shape = grid.shape
            path = os.path.join(work, f"{name}.om")
            size, how, error = write_om(grid, by_name[name]["precision"], path)
            rows.append((name, by_name[name], size, how, error, grid.size))
            paths.append(path)

        print(f"Run {args.run}: {len(files)} files, {shape[1]}×{shape[0]} cells, {shape[2]} steps; "
              f"cube format v{info['format_version']}, {info['file_bytes']} bytes for {len(info['metrics'])} metrics; "
              f"{args.nwpcube}; omfiles {version('omfiles')}; {machine()}\n")
        print("| field | precision | OM bytes | OM B/value | cube bytes | cube B/value | cube / OM | OM coding |")
        print("|---|---|---|---|---|---|---|---|")
        om_total = cube_total = values_total = 0
        for name, metric, size, how, error, count in rows:
            stored = metric["stored_bytes"]
            print(f"| {name} | {metric['precision']:g} {metric['unit']} | {size} | {size / count:.3f} | {stored} "
                  f"| {stored / count:.3f} | {stored / size:.2f} | {how} |")
            om_total, cube_total, values_total = om_total + size, cube_total + stored, values_total + count
        print(f"| **seven together** | | {om_total} | {om_total / values_total:.3f} | {cube_total} "
              f"| {cube_total / values_total:.3f} | {cube_total / om_total:.2f} | |")

        readers = [OmFileReader(path) for path in paths]
        rng = np.random.default_rng(42)
        om_rounds, cube_rounds = [], []
        legacy_metrics = ",".join(LEGACY)
        for _ in range(args.rounds):
            om_rounds.append(time_om(readers, shape, args.queries, rng))
            bench = run([args.nwpcube, "bench", "--store", store, "--kinds", "nearest,read,series24h", "--json",
                         "--queries", str(args.queries), "--metrics", legacy_metrics])
            cube_rounds.append(json.loads(bench.stdout))
        for reader in readers:
            reader.close()

        def median(rounds, kind, key):
            figures = [r[kind][key] for r in rounds if key in r[kind]]
            return f"{statistics.median(figures) / 1000:.3f} µs" if figures else "–"

        print(f"\nRead times, median over {args.rounds} alternating rounds of {args.queries} random lookups each "
              f"(per-lookup time in batches of {BATCH}):\n")
        print("| lookup | side | p50 | p90 | p99 |")
        print("|---|---|---|---|---|")
        for label, om_kind, cube_kinds in (
            ("one value", "one value", [("nearest", "cube, from latitude/longitude (bench nearest)"),
                                        ("read", "cube, at a located point (bench read)")]),
            ("24-hour series", "24-hour series of 7", [("series24h", "cube (bench series24h)")]),
        ):
            print(f"| {label} | OM, omfiles Python reader | " +
                  " | ".join(median(om_rounds, om_kind, key) for key in ("p50_ns", "p90_ns", "p99_ns")) + " |")
            if om_kind == "one value":
                print("| one value | Python's loop and call alone, no read (part of the row above) | " +
                      " | ".join(median(om_rounds, "loop", key) for key in ("p50_ns", "p90_ns", "p99_ns")) + " |")
            for kind, side in cube_kinds:
                print(f"| {label} | {side} | " +
                      " | ".join(median(cube_rounds, kind, key) for key in ("p50_ns", "p90_ns", "p99_ns")) + " |")
        print("""
What each side's time includes. OM: one call into omfiles' Python reader with the cell
indices and step known (no geolocation: Open-Meteo finds the cell elsewhere), which
decodes the whole chunk holding the value (up to 3072 values of one field) through
Rust, plus Python's loop and call (the row "Python's loop and call alone" measures the
part a call to an empty function costs) and the numpy array it returns; the series is
seven such calls, one per field. Cube: native code, no Python. nearest includes finding
the cell from a latitude/longitude and interpolating in time between two steps at a
random second; read is the same at an already located point; series24h finds the cell,
then reads 24 steps of temp, hum, rain, cloud, wind speed and direction (each from u and
v) and atm_press. So the cube's figures do more work per lookup than OM's, in a
different language: read the ratio as what a user of each gets, not as a comparison of
the two codecs.""")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
