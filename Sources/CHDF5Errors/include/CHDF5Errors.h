#ifndef NWPCUBE_CHDF5ERRORS_H
#define NWPCUBE_CHDF5ERRORS_H

/// Turns off HDF5's printing of its error stack to standard error for the calling thread,
/// once per thread; does nothing when the process has no HDF5 library loaded.
///
/// libnetcdf turns that printing off when it starts, but a thread-safe HDF5 (Debian's)
/// keeps the setting per thread, so every NetCDF-4 file opened on another thread printed
/// HDF5's stack for each attribute libnetcdf probes and does not find
/// (`_QuantizeBitRoundNumberOfSignificantBits`, …): dozens of lines per file, for
/// conditions libnetcdf handles and reports itself. nwpcube reports libnetcdf's errors,
/// naming the file and variable.
void nwp_hdf5_quiet_on_this_thread(void);

#endif
