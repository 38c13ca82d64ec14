#ifndef NWPCUBE_CPREFETCH_H
#define NWPCUBE_CPREFETCH_H

/// Asks the CPU to start loading the cache line at `address` for reading. Swift has no
/// prefetch intrinsic; a one-shot point query uses this to overlap the fetch of the cube's
/// data with the end of the cell search (measured side by side: 30–80 ns per lookup).
static inline void nwp_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
