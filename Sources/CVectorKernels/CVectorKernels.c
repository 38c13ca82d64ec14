#include "CVectorKernels.h"

// The kernels must give the Swift loops' doubles: a product and a sum, never fused.
#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#include <immintrin.h>

// 2^52: adding it to a double in [0, 2^52) rounds that double to an integer (to nearest,
// ties to even), exactly.
#define MAGIC 4503599627370496.0

int nwp_vector_level(void) {
  static int level = -1;
  // Racing first callers compute the same answer; an int store is atomic on x86-64.
  int known = __atomic_load_n(&level, __ATOMIC_RELAXED);
  if (known >= 0) return known;
  __builtin_cpu_init();
  known = 0;
  if (__builtin_cpu_supports("avx2")) known = 1;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw")
      && __builtin_cpu_supports("avx512dq"))
    known = 2;
  __atomic_store_n(&level, known, __ATOMIC_RELAXED);
  return known;
}

// The word of each lane: the ratio, 0 where not above 0, rounded by MAGIC; one more where
// the fraction left is exactly one half (a tie rounded down to even); 65535 where the ratio
// is not within (−0.5, 65534.5), NaN included (every ordered comparison of NaN is false).
__attribute__((target("avx2"))) static size_t quantize_avx2(
    const double *values, uint16_t *words, size_t count, double offset, double scale, double low, double high,
    bool *unrepresentable, bool *implausible) {
  const __m256d magic = _mm256_set1_pd(MAGIC), offsets = _mm256_set1_pd(offset), scales = _mm256_set1_pd(scale);
  const __m256d lowest = _mm256_set1_pd(-0.5), highest = _mm256_set1_pd(65534.5);
  const __m256d half = _mm256_set1_pd(0.5), one = _mm256_set1_pd(1.0), zero = _mm256_setzero_pd();
  const __m256d below = _mm256_set1_pd(low), above = _mm256_set1_pd(high), infinity = _mm256_set1_pd(__builtin_inf());
  const __m256d missing = _mm256_set1_pd(65535.0);
  const __m256d magnitude = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
  __m256d unfit = zero, outside = zero;
  size_t whole = count / 8 * 8;
  for (size_t index = 0; index < whole; index += 8) {
    __m128i halves[2];
    for (int part = 0; part < 2; part++) {
      __m256d value = _mm256_loadu_pd(values + index + 4 * part);
      __m256d ratio = _mm256_div_pd(_mm256_sub_pd(value, offsets), scales);
      __m256d fits = _mm256_and_pd(_mm256_cmp_pd(ratio, lowest, _CMP_GT_OQ), _mm256_cmp_pd(ratio, highest, _CMP_LT_OQ));
      __m256d clamped = _mm256_and_pd(ratio, _mm256_cmp_pd(ratio, zero, _CMP_GT_OQ));
      __m256d integer = _mm256_sub_pd(_mm256_add_pd(clamped, magic), magic);
      __m256d tie = _mm256_and_pd(_mm256_cmp_pd(_mm256_sub_pd(clamped, integer), half, _CMP_EQ_OQ), one);
      __m256d word = _mm256_blendv_pd(missing, _mm256_add_pd(integer, tie), fits);
      halves[part] = _mm256_cvttpd_epi32(word);
      unfit = _mm256_or_pd(unfit, _mm256_andnot_pd(fits, _mm256_cmp_pd(value, value, _CMP_EQ_OQ)));
      __m256d beyond = _mm256_or_pd(_mm256_cmp_pd(value, below, _CMP_LT_OQ), _mm256_cmp_pd(value, above, _CMP_GT_OQ));
      outside = _mm256_or_pd(outside, _mm256_or_pd(beyond, _mm256_cmp_pd(_mm256_and_pd(value, magnitude), infinity, _CMP_EQ_OQ)));
    }
    // Every word is in 0…65535, so the unsigned saturation of the pack changes none.
    _mm_storeu_si128((__m128i *)(words + index), _mm_packus_epi32(halves[0], halves[1]));
  }
  if (_mm256_movemask_pd(unfit)) *unrepresentable = true;
  if (_mm256_movemask_pd(outside)) *implausible = true;
  return whole;
}

__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"))) static size_t quantize_avx512(
    const double *values, uint16_t *words, size_t count, double offset, double scale, double low, double high,
    bool *unrepresentable, bool *implausible) {
  const __m512d magic = _mm512_set1_pd(MAGIC), offsets = _mm512_set1_pd(offset), scales = _mm512_set1_pd(scale);
  const __m512d lowest = _mm512_set1_pd(-0.5), highest = _mm512_set1_pd(65534.5);
  const __m512d half = _mm512_set1_pd(0.5), one = _mm512_set1_pd(1.0), zero = _mm512_setzero_pd();
  const __m512d below = _mm512_set1_pd(low), above = _mm512_set1_pd(high), infinity = _mm512_set1_pd(__builtin_inf());
  const __m512d missing = _mm512_set1_pd(65535.0);
  __mmask8 unfit = 0, outside = 0;
  size_t whole = count / 8 * 8;
  for (size_t index = 0; index < whole; index += 8) {
    __m512d value = _mm512_loadu_pd(values + index);
    __m512d ratio = _mm512_div_pd(_mm512_sub_pd(value, offsets), scales);
    __mmask8 fits = _mm512_cmp_pd_mask(ratio, lowest, _CMP_GT_OQ) & _mm512_cmp_pd_mask(ratio, highest, _CMP_LT_OQ);
    __m512d clamped = _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(ratio, zero, _CMP_GT_OQ), ratio);
    __m512d integer = _mm512_sub_pd(_mm512_add_pd(clamped, magic), magic);
    __mmask8 tie = _mm512_cmp_pd_mask(_mm512_sub_pd(clamped, integer), half, _CMP_EQ_OQ);
    __m512d word = _mm512_mask_mov_pd(missing, fits, _mm512_mask_add_pd(integer, tie, integer, one));
    _mm_storeu_si128((__m128i *)(words + index), _mm512_cvtepi64_epi16(_mm512_cvttpd_epi64(word)));
    unfit |= (__mmask8)~fits & _mm512_cmp_pd_mask(value, value, _CMP_EQ_OQ);
    outside |= _mm512_cmp_pd_mask(value, below, _CMP_LT_OQ) | _mm512_cmp_pd_mask(value, above, _CMP_GT_OQ)
        | _mm512_cmp_pd_mask(_mm512_abs_pd(value), infinity, _CMP_EQ_OQ);
  }
  if (unfit) *unrepresentable = true;
  if (outside) *implausible = true;
  return whole;
}

size_t nwp_quantize(
    const double *values, uint16_t *words, size_t count, double offset, double scale, double low, double high,
    int level, bool *unrepresentable, bool *implausible) {
  int usable = level < nwp_vector_level() ? level : nwp_vector_level();
  if (usable >= 2) return quantize_avx512(values, words, count, offset, scale, low, high, unrepresentable, implausible);
  if (usable == 1) return quantize_avx2(values, words, count, offset, scale, low, high, unrepresentable, implausible);
  return 0;
}

// Masked where `!(x >= low && x <= high) || x == fill`: NaN fails both ordered comparisons.
__attribute__((target("avx2"))) static size_t unpack_avx2(
    const float *raw, double *values, size_t count, double scale, double offset, double low, double high,
    double fill) {
  const __m256d scales = _mm256_set1_pd(scale), offsets = _mm256_set1_pd(offset);
  const __m256d lows = _mm256_set1_pd(low), highs = _mm256_set1_pd(high), fills = _mm256_set1_pd(fill);
  const __m256d nan = _mm256_set1_pd(__builtin_nan(""));
  size_t whole = count / 8 * 8;
  for (size_t index = 0; index < whole; index += 4) {
    __m256d x = _mm256_cvtps_pd(_mm_loadu_ps(raw + index));
    __m256d kept = _mm256_andnot_pd(
        _mm256_cmp_pd(x, fills, _CMP_EQ_OQ),
        _mm256_and_pd(_mm256_cmp_pd(x, lows, _CMP_GE_OQ), _mm256_cmp_pd(x, highs, _CMP_LE_OQ)));
    __m256d unpacked = _mm256_add_pd(_mm256_mul_pd(x, scales), offsets);
    _mm256_storeu_pd(values + index, _mm256_blendv_pd(nan, unpacked, kept));
  }
  return whole;
}

__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"))) static size_t unpack_avx512(
    const float *raw, double *values, size_t count, double scale, double offset, double low, double high,
    double fill) {
  const __m512d scales = _mm512_set1_pd(scale), offsets = _mm512_set1_pd(offset);
  const __m512d lows = _mm512_set1_pd(low), highs = _mm512_set1_pd(high), fills = _mm512_set1_pd(fill);
  const __m512d nan = _mm512_set1_pd(__builtin_nan(""));
  size_t whole = count / 8 * 8;
  for (size_t index = 0; index < whole; index += 8) {
    __m512d x = _mm512_cvtps_pd(_mm256_loadu_ps(raw + index));
    __mmask8 kept = _mm512_cmp_pd_mask(x, lows, _CMP_GE_OQ) & _mm512_cmp_pd_mask(x, highs, _CMP_LE_OQ)
        & (__mmask8)~_mm512_cmp_pd_mask(x, fills, _CMP_EQ_OQ);
    __m512d unpacked = _mm512_add_pd(_mm512_mul_pd(x, scales), offsets);
    _mm512_storeu_pd(values + index, _mm512_mask_mov_pd(nan, kept, unpacked));
  }
  return whole;
}

size_t nwp_unpack_floats(
    const float *raw, double *values, size_t count, double scale, double offset, double low, double high,
    double fill, int level) {
  int usable = level < nwp_vector_level() ? level : nwp_vector_level();
  if (usable >= 2) return unpack_avx512(raw, values, count, scale, offset, low, high, fill);
  if (usable == 1) return unpack_avx2(raw, values, count, scale, offset, low, high, fill);
  return 0;
}

#else

int nwp_vector_level(void) { return 0; }

size_t nwp_quantize(
    const double *values, uint16_t *words, size_t count, double offset, double scale, double low, double high,
    int level, bool *unrepresentable, bool *implausible) {
  return 0;
}

size_t nwp_unpack_floats(
    const float *raw, double *values, size_t count, double scale, double offset, double low, double high,
    double fill, int level) {
  return 0;
}

#endif
