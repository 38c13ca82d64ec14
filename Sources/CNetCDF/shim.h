#ifndef NWPCUBE_CNETCDF_SHIM_H
#define NWPCUBE_CNETCDF_SHIM_H
#include <netcdf.h>
#endif
