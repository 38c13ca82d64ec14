#!/bin/sh
# Ingest of a GRIB run against ecCodes' own decode of the same messages, alternated,
# ROUNDS rounds each, page cache warmed first: wall, user and system seconds and peak
# resident KiB per run (/usr/bin/time), then the medians.
#
#   Benchmarks/grib/measure.sh NWPCUBE DECODE STORE ROUNDS FILE…
# NWPCUBE is a release nwpcube, DECODE the decode.c program, STORE a scratch directory.
# TOOLS (default "decode grib_get_data ingest") chooses what runs: grib_get_data prints
# every point as text, which dominates on large grids.
set -eu
nwpcube=$1 decode=$2 store=$3 rounds=$4
shift 4
cat "$@" > /dev/null
tools=${TOOLS:-decode grib_get_data ingest}
out=$(mktemp)
for round in $(seq "$rounds"); do
  for tool in $tools; do
    rm -rf "$store"
    case $tool in
      decode) /usr/bin/time -f "decode %e %U %S %M" "$decode" "$@" > /dev/null 2>> "$out.err" ;;
      grib_get_data) /usr/bin/time -f "grib_get_data %e %U %S %M" sh -c 'for f; do grib_get_data "$f"; done > /dev/null' - "$@" 2>> "$out.err" ;;
      ingest) /usr/bin/time -f "ingest %e %U %S %M" "$nwpcube" ingest --store "$store" "$@" > /dev/null 2>> "$out.err" ;;
    esac
    grep -E "^(decode|grib_get_data|ingest) " "$out.err" | tail -1 >> "$out"
  done
done
rm -rf "$store"
cat "$out"
echo "median wall, user, sys (s), peak RSS (KiB):"
for tool in $tools; do
  awk -v t=$tool '$1 == t { w[n] = $2; u[n] = $3; s[n] = $4; m[n] = $5; n++ }
    function median(a, n,   i, j, x) { for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x } return a[int(n / 2)] }
    END { printf "%-14s %s %s %s %s\n", t, median(w, n), median(u, n), median(s, n), median(m, n) }' "$out"
done
rm -f "$out" "$out.err"
