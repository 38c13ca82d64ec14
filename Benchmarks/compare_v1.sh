#!/usr/bin/env bash
# Cube format version 2 against version 1, side by side in one session (issue 16).
#
# Usage: Benchmarks/compare_v1.sh OLD_NWPCUBE NEW_NWPCUBE [ROUNDS] [WORKDIR]
#
# OLD_NWPCUBE writes version 1 (e.g. a build of 2d5d403), NEW_NWPCUBE version 2 (a release
# build of this branch). Generates the full-size sample run (73 hourly files, 135×80) once,
# then for each of ROUNDS (default 7) rounds, old and new alternating, in that order:
#   - ingest the run into a fresh store with each binary (wall time, `date +%s%N`);
#   - `bench --kinds nearest,bilinear,series24h,daily7 --json` on each store.
# Also ingests with NEW at `--precision v1` (version 1's 0.01 steps) for the size figure.
# Prints every round's figures, then the median and the spread (min…max over rounds) of
# each, and the ratio new/old of the medians. Sizes come from `info --json`.
set -euo pipefail
old=${1:?old binary}
new=${2:?new binary}
rounds=${3:-7}
work=${4:-$(mktemp -d)}
queries=${QUERIES:-100000}
mkdir -p "$work"
[ -d "$work/run" ] || "$new" sample-run --hours 72 --out "$work/run" > /dev/null
files=("$work"/run/wrfout_d01_*)
kinds=nearest,bilinear,series24h,daily7
log="$work/rounds.tsv"
: > "$log"
for round in $(seq 1 "$rounds"); do
  for side in old new; do
    binary=$old
    [ "$side" = new ] && binary=$new
    store="$work/store-$side"
    rm -rf "$store"
    start=$(date +%s%N)
    "$binary" ingest --store "$store" "${files[@]}" > /dev/null 2> /dev/null
    end=$(date +%s%N)
    printf '%s\t%s\tingest_ms\t%s\n' "$round" "$side" "$(( (end - start) / 1000000 ))" >> "$log"
    "$binary" bench --store "$store" --queries "$queries" --seed "$round" --json --kinds "$kinds" \
      | python3 -c '
import json, sys
round, side = sys.argv[1], sys.argv[2]
for kind, figures in json.load(sys.stdin).items():
    for key in ("p50_ns", "p99_ns"):
        print(f"{round}\t{side}\t{kind}_{key}\t{figures[key]}")
' "$round" "$side" >> "$log"
  done
done
rm -rf "$work/store-fine"
"$new" ingest --store "$work/store-fine" --precision v1 "${files[@]}" > /dev/null 2> /dev/null
python3 - "$log" "$old" "$new" "$work" <<'PY'
import json, statistics, subprocess, sys, glob
log, old, new, work = sys.argv[1:5]
rows = [line.rstrip("\n").split("\t") for line in open(log)]
figures = {}
for round, side, key, value in rows:
    figures.setdefault(key, {}).setdefault(side, []).append(float(value))
print(f"{'figure':22s} {'v1 median':>10s} {'v1 min…max':>18s} {'v2 median':>10s} {'v2 min…max':>18s} {'v2/v1':>6s}")
for key, sides in figures.items():
    a, b = sides["old"], sides["new"]
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"{key:22s} {ma:10.1f} {f'{min(a):.0f}…{max(a):.0f}':>18s} {mb:10.1f} {f'{min(b):.0f}…{max(b):.0f}':>18s} {mb / ma:6.2f}")
def info(binary, store):
    cube = glob.glob(f"{store}/wrf/d01/*.cube")[0]
    return json.loads(subprocess.run([binary, "info", "--json", cube], capture_output=True, text=True, check=True).stdout)
legacy = ["temp", "hum", "rain", "cloud", "wind_u", "wind_v", "atm_press"]
for label, binary, store in [("v1", new, f"{work}/store-old"), ("v2", new, f"{work}/store-new"), ("v2 at v1 steps", new, f"{work}/store-fine")]:
    cube = info(binary, store)
    values = cube["cells"] * cube["steps"]
    seven = sum(m["stored_bytes"] for m in cube["metrics"] if m["name"] in legacy)
    total = cube["file_bytes"]
    print(f"{label:16s} file {total} bytes ({total / values / len(cube['metrics']):.3f} B/value over {len(cube['metrics'])} metrics), seven legacy metrics {seven / (7 * values):.3f} B/value")
    print("   " + ", ".join(f"{m['name']} {m['bytes_per_value']:.3f}" for m in cube["metrics"]))
PY
