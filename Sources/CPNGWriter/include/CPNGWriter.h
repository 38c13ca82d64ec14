#ifndef NWPCUBE_CPNGWRITER_H
#define NWPCUBE_CPNGWRITER_H

#include <stddef.h>
#include <stdint.h>

/// What went wrong in `nwp_png_encode_rgba`: 0 is success.
enum nwp_png_status {
  NWP_PNG_OK = 0,
  /// A width or height of zero, or too large for libpng (or the row arithmetic).
  NWP_PNG_BAD_SIZE = 1,
  /// malloc or realloc failed.
  NWP_PNG_NO_MEMORY = 2,
  /// libpng reported an error (its message is in `message`).
  NWP_PNG_LIBPNG_ERROR = 3,
};

/// Encodes `height` rows of `width` 8-bit RGBA pixels (row after row, no padding) as a PNG
/// in memory, with zlib at `level` (0…9) and every row filtered by `filter` (libpng's
/// PNG_FILTER_* mask; 0 lets libpng choose).
///
/// On success returns NWP_PNG_OK and sets `*out` to a malloc'd buffer of `*out_size` bytes
/// that the caller frees with `nwp_png_free`. On failure returns the status, leaves `*out` NULL and
/// writes a NUL-terminated description into `message` (at most `message_size` bytes).
///
/// Written in C because libpng reports errors by longjmp to a setjmp in the caller, which
/// Swift cannot express; everything libpng allocates is released on every path.
int nwp_png_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, int level, int filter,
                        uint8_t **out, size_t *out_size, char *message, size_t message_size);

/// Frees a buffer `nwp_png_encode_rgba` returned: the C library's `free`, here so that the
/// Swift caller needs no C library import of its own.
void nwp_png_free(uint8_t *buffer);

#endif
