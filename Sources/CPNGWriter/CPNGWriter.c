#include "CPNGWriter.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The growing output buffer, and where libpng's error message goes.
struct nwp_png_sink {
  uint8_t *bytes;
  size_t size;
  size_t capacity;
  int out_of_memory;
  char *message;
  size_t message_size;
};

static void nwp_png_write(png_structp png, png_bytep data, size_t length) {
  struct nwp_png_sink *sink = png_get_io_ptr(png);
  if (length > SIZE_MAX - sink->size) {
    sink->out_of_memory = 1;
    png_error(png, "output too large");
  }
  if (sink->size + length > sink->capacity) {
    size_t capacity = sink->capacity ? sink->capacity : 16384;
    while (capacity < sink->size + length) {
      if (capacity > SIZE_MAX / 2) {
        capacity = sink->size + length;
        break;
      }
      capacity *= 2;
    }
    uint8_t *grown = realloc(sink->bytes, capacity);
    if (grown == NULL) {
      sink->out_of_memory = 1;
      png_error(png, "out of memory for the encoded PNG");
    }
    sink->bytes = grown;
    sink->capacity = capacity;
  }
  memcpy(sink->bytes + sink->size, data, length);
  sink->size += length;
}

static void nwp_png_flush(png_structp png) { (void)png; }

/// libpng's error callback: keeps the message, then returns to the setjmp below (libpng
/// requires that an error callback does not return).
static void nwp_png_error(png_structp png, png_const_charp text) {
  struct nwp_png_sink *sink = png_get_error_ptr(png);
  if (sink != NULL && sink->message != NULL && sink->message_size > 0) {
    snprintf(sink->message, sink->message_size, "libpng: %s", text ? text : "unknown error");
  }
  png_longjmp(png, 1);
}

/// Warnings cannot happen for the fixed format written here; they are dropped rather than
/// printed on the server's standard error.
static void nwp_png_warning(png_structp png, png_const_charp text) {
  (void)png;
  (void)text;
}

int nwp_png_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, int level, int filter,
                        uint8_t **out, size_t *out_size, char *message, size_t message_size) {
  *out = NULL;
  *out_size = 0;
  if (message != NULL && message_size > 0) message[0] = 0;
  if (width == 0 || height == 0 || width > PNG_USER_WIDTH_MAX / 4 || height > PNG_USER_HEIGHT_MAX) {
    if (message != NULL && message_size > 0) snprintf(message, message_size, "bad size %ux%u", width, height);
    return NWP_PNG_BAD_SIZE;
  }
  // volatile: these are changed between setjmp and a possible longjmp and read after it.
  struct nwp_png_sink sink = {NULL, 0, 0, 0, message, message_size};
  png_structp volatile png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, nwp_png_error, nwp_png_warning);
  if (png == NULL) return NWP_PNG_NO_MEMORY;
  png_infop volatile info = png_create_info_struct(png);
  if (info == NULL) {
    png_structp p = png;
    png_destroy_write_struct(&p, NULL);
    return NWP_PNG_NO_MEMORY;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_structp p = png;
    png_infop i = info;
    png_destroy_write_struct(&p, &i);
    free(sink.bytes);
    return sink.out_of_memory ? NWP_PNG_NO_MEMORY : NWP_PNG_LIBPNG_ERROR;
  }
  png_set_write_fn(png, &sink, nwp_png_write, nwp_png_flush);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, level);
  if (filter != 0) png_set_filter(png, PNG_FILTER_TYPE_BASE, filter);
  png_write_info(png, info);
  size_t stride = (size_t)width * 4;
  for (uint32_t row = 0; row < height; row++) {
    // libpng takes a non-const row pointer but does not write through it when writing.
    png_write_row(png, (png_bytep)(rgba + stride * row));
  }
  png_write_end(png, info);
  png_structp p = png;
  png_infop i = info;
  png_destroy_write_struct(&p, &i);
  *out = sink.bytes;
  *out_size = sink.size;
  return NWP_PNG_OK;
}

void nwp_png_free(uint8_t *buffer) { free(buffer); }
