#!/usr/bin/env python3
"""Point lookups on the same run: xarray/netCDF4 on the wrfout files vs. nwpcube on its cube.

Dev script, not part of the product. It times what a careful Python user would write:
open the run once (one dataset per wrfout file, as open_mfdataset needs dask), find the
nearest cell by great-circle distance over XLAT/XLONG with numpy, then read one value (T2)
at that cell and a random output hour with `.isel`; and a 24-hour series of the seven
inputs of the legacy metrics at one point (CLDFRA reduced over levels). Then it runs `nwpcube bench` on the cube of the
same run, in the same session, so that both sides see the same machine load.

usage: Benchmarks/compare_xarray.py RUN_DIR STORE_DIR NWPCUBE_BINARY [--queries N]
"""
import argparse
import glob
import json
import statistics
import subprocess
import time

import numpy as np
import xarray as xr


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("run")
    parser.add_argument("store")
    parser.add_argument("nwpcube")
    parser.add_argument("--queries", type=int, default=2000)
    args = parser.parse_args()

    files = sorted(glob.glob(f"{args.run}/wrfout_d01_*"))
    # open_mfdataset needs dask; a list of open datasets is what most scripts do instead.
    datasets = [xr.open_dataset(path) for path in files]
    lat = np.radians(datasets[0]["XLAT"].values[0])
    lon = np.radians(datasets[0]["XLONG"].values[0])
    rng = np.random.default_rng(42)
    points = [
        (rng.uniform(np.degrees(lat).min() + 0.5, np.degrees(lat).max() - 0.5),
         rng.uniform(np.degrees(lon).min() + 0.5, np.degrees(lon).max() - 0.5))
        for _ in range(args.queries)
    ]

    def nearest(p_lat, p_lon):
        phi, lam = np.radians(p_lat), np.radians(p_lon)
        a = np.sin((lat - phi) / 2) ** 2 + np.cos(phi) * np.cos(lat) * np.sin((lon - lam) / 2) ** 2
        return np.unravel_index(np.argmin(a), a.shape)

    one, series = [], []
    legacy = ["T2", "Q2", "RAINNC", "CLDFRA", "U10", "V10", "PSFC"]
    for k, (p_lat, p_lon) in enumerate(points):
        hour = int(rng.integers(0, len(datasets)))
        start = time.perf_counter_ns()
        j, i = nearest(p_lat, p_lon)
        float(datasets[hour]["T2"].isel(Time=0, south_north=j, west_east=i).values)
        one.append(time.perf_counter_ns() - start)

        first = int(rng.integers(0, len(datasets) - 24))
        start = time.perf_counter_ns()
        j, i = nearest(p_lat, p_lon)
        for name in legacy:
            for step in range(first, first + 24):
                cell = datasets[step][name].isel(Time=0, south_north=j, west_east=i)
                float(cell.max() if "bottom_top" in cell.dims else cell)
        series.append(time.perf_counter_ns() - start)

    bench = json.loads(subprocess.run(
        [args.nwpcube, "bench", "--store", args.store, "--queries", "200000", "--json"],
        check=True, capture_output=True, text=True).stdout)
    rows = [
        ("one value, nearest", statistics.median(one), percentile(one, 0.99), bench["nearest"]),
        ("24-hour series of 7 metrics", statistics.median(series), percentile(series, 0.99), bench["series24h"]),
    ]
    print("| lookup | xarray p50 | xarray p99 | nwpcube p50 | nwpcube p99 | speed-up at p50 |")
    print("|---|---|---|---|---|---|")
    for name, p50, p99, ours in rows:
        print(f"| {name} | {p50 / 1000:.1f} µs | {p99 / 1000:.1f} µs | {ours['p50_ns'] / 1000:.3f} µs "
              f"| {ours['p99_ns'] / 1000:.3f} µs | {p50 / ours['p50_ns']:.0f}× |")


if __name__ == "__main__":
    main()
