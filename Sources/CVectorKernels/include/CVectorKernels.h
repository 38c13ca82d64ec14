#ifndef NWPCUBE_CVECTORKERNELS_H
#define NWPCUBE_CVECTORKERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Ingest's two loops over every value of a run, in the widest vectors the CPU has.
///
/// The product is built for any x86-64 (SSE2), where Swift's SIMD types compile to
/// two-lane instructions and spill registers: quantizing took 1.7–2.0 ns a value, against
/// 0.8 ns in four-lane AVX2 and 0.5 ns in eight-lane AVX-512, on the same values (a fifth
/// of a global run's ingest). Each kernel is compiled for its instruction set alone and
/// chosen at run time by the CPU's features; each computes exactly what the Swift loop it
/// stands in for computes (the same operations, lane by lane, never fused), and handles a
/// whole number of vectors: the caller does the rest, and everything on a CPU without them.

/// The widest kernel level this CPU runs: 2 AVX-512 (F, VL, BW, DQ), 1 AVX2, 0 none
/// (the caller's own loop does everything).
int nwp_vector_level(void);

/// Quantizes the first values of `values` into `words` as `CubeMetric.quantize` does:
/// `((value − offset) / scale).rounded()` (halves away from zero) in 0…65534, 65535 for
/// NaN and for what rounds outside that range. Sets `*unrepresentable` when some value
/// that is not NaN did not fit, and `*implausible` when some value is below `low`, above
/// `high` or infinite; leaves both alone otherwise. Runs at `level` at most (the CPU's own
/// level when it is lower) and returns how many leading values it did: a multiple of 8,
/// 0 at level 0.
size_t nwp_quantize(
    const double *values, uint16_t *words, size_t count, double offset, double scale, double low, double high,
    int level, bool *unrepresentable, bool *implausible);

/// Unpacks the first raw floats of `raw` into `values` as CF packing does with one fill
/// value: NaN where `!(x >= low && x <= high) || x == fill` for the float `x` widened
/// exactly, `x * scale + offset` (a product, then a sum) elsewhere. Runs at `level` at most
/// and returns how many leading values it did: a multiple of 8, 0 at level 0.
size_t nwp_unpack_floats(
    const float *raw, double *values, size_t count, double scale, double offset, double low, double high,
    double fill, int level);

#endif
