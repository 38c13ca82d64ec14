#include "CEcCodesGuard.h"

#include <eccodes.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* Where an assertion jumps to, and the guard it reports in: set for the length of one
 * guarded call. Thread-local although the caller serialises calls, so that an assertion on
 * another thread (outside any guarded call) never jumps into this one's frame. */
static _Thread_local jmp_buf* target;
static _Thread_local nwpcube_codes_guard* reporting;

static void on_assertion(const char* message) {
  if (target == NULL) abort(); /* outside a guarded call: ecCodes' own behaviour */
  reporting->asserted = 1;
  strncpy(reporting->text, message ? message : "ecCodes assertion failed", sizeof(reporting->text) - 1);
  reporting->text[sizeof(reporting->text) - 1] = 0;
  longjmp(*target, 1);
}

static void install(void) {
  static int installed = 0;
  if (!installed) {
    codes_set_codes_assertion_failed_proc(on_assertion);
    installed = 1;
  }
}

/* Runs CALL (an expression of type TYPE) under the guard; FAILURE is returned when ecCodes
 * asserts. The result is assigned only after the call returns, so no local changed between
 * setjmp and longjmp is read afterwards. */
#define GUARDED(TYPE, FAILURE, CALL)                 \
  install();                                         \
  jmp_buf env;                                       \
  guard->asserted = 0;                               \
  guard->text[0] = 0;                                \
  if (setjmp(env) != 0) {                            \
    target = NULL;                                   \
    reporting = NULL;                                \
    return FAILURE;                                  \
  }                                                  \
  target = &env;                                     \
  reporting = guard;                                 \
  TYPE result = CALL;                                \
  target = NULL;                                     \
  reporting = NULL;                                  \
  return result;

nwpcube_codes_handle* nwpcube_handle_new_from_message(const void* data, size_t length, nwpcube_codes_guard* guard) {
  GUARDED(codes_handle*, NULL, codes_handle_new_from_message(NULL, data, length))
}

int nwpcube_handle_delete(nwpcube_codes_handle* h, nwpcube_codes_guard* guard) {
  GUARDED(int, GRIB_INTERNAL_ERROR, codes_handle_delete(h))
}

int nwpcube_is_defined(const nwpcube_codes_handle* h, const char* key, nwpcube_codes_guard* guard) {
  GUARDED(int, 0, codes_is_defined(h, key))
}

static int get_long_and_missing(const codes_handle* h, const char* key, long* value, int* missing) {
  int status = codes_get_long(h, key, value);
  int ignored = 0;
  if (missing) *missing = status == 0 ? codes_is_missing(h, key, &ignored) : 0;
  return status;
}

int nwpcube_get_long(const nwpcube_codes_handle* h, const char* key, long* value, int* missing, nwpcube_codes_guard* guard) {
  GUARDED(int, GRIB_INTERNAL_ERROR, get_long_and_missing(h, key, value, missing))
}

static int get_double_and_missing(const codes_handle* h, const char* key, double* value, int* missing) {
  int status = codes_get_double(h, key, value);
  int ignored = 0;
  if (missing) *missing = status == 0 ? codes_is_missing(h, key, &ignored) : 0;
  return status;
}

int nwpcube_get_double(const nwpcube_codes_handle* h, const char* key, double* value, int* missing, nwpcube_codes_guard* guard) {
  GUARDED(int, GRIB_INTERNAL_ERROR, get_double_and_missing(h, key, value, missing))
}

int nwpcube_get_string(const nwpcube_codes_handle* h, const char* key, char* text, size_t* length, nwpcube_codes_guard* guard) {
  GUARDED(int, GRIB_INTERNAL_ERROR, codes_get_string(h, key, text, length))
}

int nwpcube_set_string(nwpcube_codes_handle* h, const char* key, const char* text, size_t* length, nwpcube_codes_guard* guard) {
  GUARDED(int, GRIB_INTERNAL_ERROR, codes_set_string(h, key, text, length))
}

int nwpcube_set_double(nwpcube_codes_handle* h, const char* key, double value, nwpcube_codes_guard* guard) {
  GUARDED(int, GRIB_INTERNAL_ERROR, codes_set_double(h, key, value))
}

int nwpcube_get_size(const nwpcube_codes_handle* h, const char* key, size_t* size, nwpcube_codes_guard* guard) {
  GUARDED(int, GRIB_INTERNAL_ERROR, codes_get_size(h, key, size))
}

int nwpcube_get_double_array(const nwpcube_codes_handle* h, const char* key, double* values, size_t* length, nwpcube_codes_guard* guard) {
  GUARDED(int, GRIB_INTERNAL_ERROR, codes_get_double_array(h, key, values, length))
}
