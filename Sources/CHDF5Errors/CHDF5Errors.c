#include "CHDF5Errors.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>

// HDF5's `herr_t H5Eset_auto2(hid_t, H5E_auto2_t, void *)`, looked up in the process
// rather than linked: libnetcdf brings HDF5 in when it was built with it, and a libnetcdf
// without it needs nothing silenced. `hid_t` is 64 bits since HDF5 1.10; H5E_DEFAULT is 0.
typedef int (*set_auto_function)(int64_t stack, void *report, void *data);

static set_auto_function set_auto;
static pthread_once_t looked_up = PTHREAD_ONCE_INIT;
static _Thread_local int quiet;

static void look_up(void) { set_auto = (set_auto_function)dlsym(RTLD_DEFAULT, "H5Eset_auto2"); }

void nwp_hdf5_quiet_on_this_thread(void) {
  if (quiet) return;
  quiet = 1;
  pthread_once(&looked_up, look_up);
  if (set_auto) set_auto(0, 0, 0);
}
