#!/bin/sh
# Ingest of a GRIB run against ecCodes' own decode of the same messages, alternated,
# ROUNDS rounds each, page cache warmed first: wall, user and system seconds and peak
# resident KiB per run (/usr/bin/time), then the medians; for each ingest also the bytes
# it wrote to disk (write_bytes less cancelled_write_bytes of /proc/PID/io, which count a
# reaped child's) and the cube's size.
#
#   Benchmarks/grib/measure.sh NWPCUBE DECODE STORE ROUNDS FILE…
# NWPCUBE is a release nwpcube, DECODE the decode.c program, STORE a scratch directory.
# TOOLS (default "decode grib_get_data ingest") chooses what runs: grib_get_data prints
# every point as text, which dominates on large grids. With BASE set to another nwpcube
# (the build before a change), the tool "base" ingests with it, in the same rounds.
set -eu
nwpcube=$1 decode=$2 store=$3 rounds=$4
shift 4
cat "$@" > /dev/null
tools=${TOOLS:-decode grib_get_data ingest}
out=$(mktemp)
# Runs an ingest with binary $1 into store $2 of the files after them, then prints the
# shell's I/O counts (its reaped child's included) and the cube's bytes to stderr.
ingest='binary=$1 store=$2; shift 2
"$binary" ingest --store "$store" "$@" > /dev/null
awk "/^(write_bytes|cancelled_write_bytes)/ { n[\$1] = \$2 } END { printf \"io %d \", n[\"write_bytes:\"] - n[\"cancelled_write_bytes:\"] }" /proc/$$/io >&2
find "$store" -name "*.cube" -exec stat -c %s {} + | awk "{ s += \$1 } END { print s }" >&2'
for round in $(seq "$rounds"); do
  for tool in $tools; do
    rm -rf "$store"
    case $tool in
      decode) /usr/bin/time -f "decode %e %U %S %M" "$decode" "$@" > /dev/null 2>> "$out.err" ;;
      grib_get_data) /usr/bin/time -f "grib_get_data %e %U %S %M" sh -c 'for f; do grib_get_data "$f"; done > /dev/null' - "$@" 2>> "$out.err" ;;
      ingest | base)
        binary=$nwpcube
        [ "$tool" = base ] && binary=${BASE:?BASE names the nwpcube to compare with}
        /usr/bin/time -f "$tool %e %U %S %M" sh -c "$ingest" - "$binary" "$store" "$@" 2>> "$out.err"
        grep -E "^io " "$out.err" | tail -1 | sed "s/^io/$tool-io/" >> "$out"
        ;;
    esac
    grep -E "^(decode|grib_get_data|ingest|base) " "$out.err" | tail -1 >> "$out"
  done
done
rm -rf "$store"
cat "$out"
echo "median wall, user, sys (s), peak RSS (KiB); for ingests, bytes written and the cube's bytes:"
for tool in $tools; do
  awk -v t=$tool -v io=$tool-io 'BEGIN { n = 0; k = 0 }
    $1 == t { w[n] = $2; u[n] = $3; s[n] = $4; m[n] = $5; n++ }
    $1 == io { b[k] = $2; c[k] = $3; k++ }
    function median(a, n,   i, j, x) { for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x } return a[int(n / 2)] }
    END { printf "%-14s %s %s %s %s", t, median(w, n), median(u, n), median(s, n), median(m, n)
      if (k) printf " %s %s (%.2f x the cube)", median(b, k), median(c, k), median(b, k) / median(c, k)
      printf "\n" }' "$out"
done
rm -f "$out" "$out.err"
