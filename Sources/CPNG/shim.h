#ifndef NWPCUBE_CPNG_SHIM_H
#define NWPCUBE_CPNG_SHIM_H
#include <png.h>
#endif
