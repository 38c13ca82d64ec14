#ifndef NWPCUBE_CWRITEBACK_H
#define NWPCUBE_CWRITEBACK_H

/// Asks the kernel to start writing the dirty pages of `count` bytes from `offset` of
/// `descriptor` to the device, without waiting for them (Linux `sync_file_range` with
/// `SYNC_FILE_RANGE_WRITE`), so that the device writes while the writer computes and the
/// final `fsync` finds little left. It promises nothing about durability: that stays the
/// `fsync`'s. Returns 0, or the `errno` of the call; 0 where the system has no such call.
/// Swift's Glibc module does not declare `sync_file_range` (it needs `_GNU_SOURCE`).
int nwp_start_writeback(int descriptor, long long offset, long long count);

/// `pwrite` of `count` bytes at `offset` straight to the device, past the page cache (Linux
/// `O_DIRECT`, set on `descriptor` for this call alone and then cleared), so that the kernel
/// neither copies the bytes into cached pages nor writes those back later. `bytes`,
/// `count` and `offset` must be multiples of the device's logical block (4,096 bytes
/// covers every usual one). Returns the bytes written, or -1 with `errno` set: `EINVAL`
/// where the file system or the system has no direct writes (tmpfs; every system but
/// Linux) or the alignment does not suit it. Swift's Glibc module does not declare
/// `O_DIRECT` (it needs `_GNU_SOURCE`).
long long nwp_pwrite_direct(int descriptor, const void *bytes, long long count, long long offset);

#endif
