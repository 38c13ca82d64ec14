#ifndef NWPCUBE_CECCODES_SHIM_H
#define NWPCUBE_CECCODES_SHIM_H
#include <eccodes.h>
#endif
