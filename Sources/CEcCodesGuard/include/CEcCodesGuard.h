#ifndef NWPCUBE_CECCODES_GUARD_H
#define NWPCUBE_CECCODES_GUARD_H

#include <stddef.h>

/* ecCodes calls that survive ecCodes' internal assertions.
 *
 * ecCodes aborts the process when one of its assertions fails, and damaged input can reach
 * some of them (a data section whose group widths exceed its values, say). Each function
 * here makes one ecCodes call with an assertion handler installed that jumps back out of
 * ecCodes instead: the call then fails with -2 (GRIB_INTERNAL_ERROR) or NULL, `asserted`
 * is set and `text` holds ecCodes' assertion message. What ecCodes allocated during the
 * abandoned call leaks, and the handle it was working on must not be used or deleted
 * again. The caller serialises every call (one lock), as ecCodes requires anyway. */

typedef struct nwpcube_codes_guard {
  int asserted;
  char text[256];
} nwpcube_codes_guard;

/* The handle type is opaque here, so that this header needs no ecCodes header. */
typedef struct grib_handle nwpcube_codes_handle;

nwpcube_codes_handle* nwpcube_handle_new_from_message(const void* data, size_t length, nwpcube_codes_guard* guard);
int nwpcube_handle_delete(nwpcube_codes_handle* h, nwpcube_codes_guard* guard);
int nwpcube_is_defined(const nwpcube_codes_handle* h, const char* key, nwpcube_codes_guard* guard);
int nwpcube_get_long(const nwpcube_codes_handle* h, const char* key, long* value, int* missing, nwpcube_codes_guard* guard);
int nwpcube_get_double(const nwpcube_codes_handle* h, const char* key, double* value, int* missing, nwpcube_codes_guard* guard);
int nwpcube_get_string(const nwpcube_codes_handle* h, const char* key, char* text, size_t* length, nwpcube_codes_guard* guard);
int nwpcube_set_string(nwpcube_codes_handle* h, const char* key, const char* text, size_t* length, nwpcube_codes_guard* guard);
int nwpcube_set_double(nwpcube_codes_handle* h, const char* key, double value, nwpcube_codes_guard* guard);
int nwpcube_get_size(const nwpcube_codes_handle* h, const char* key, size_t* size, nwpcube_codes_guard* guard);
int nwpcube_get_double_array(const nwpcube_codes_handle* h, const char* key, double* values, size_t* length, nwpcube_codes_guard* guard);

#endif
