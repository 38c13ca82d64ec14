#ifndef NWPCUBE_CWRITEBACK_H
#define NWPCUBE_CWRITEBACK_H

/// Asks the kernel to start writing the dirty pages of `count` bytes from `offset` of
/// `descriptor` to the device, without waiting for them (Linux `sync_file_range` with
/// `SYNC_FILE_RANGE_WRITE`), so that the device writes while the writer computes and the
/// final `fsync` finds little left. It promises nothing about durability: that stays the
/// `fsync`'s. Returns 0, or the `errno` of the call; 0 where the system has no such call.
/// Swift's Glibc module does not declare `sync_file_range` (it needs `_GNU_SOURCE`).
int nwp_start_writeback(int descriptor, long long offset, long long count);

#endif
