#ifndef NWPCUBE_CZLIB_SHIM_H
#define NWPCUBE_CZLIB_SHIM_H
#include <zlib.h>
#endif
