#ifndef NWPCUBE_CFILESYSTEMTYPE_H
#define NWPCUBE_CFILESYSTEMTYPE_H

#if defined(__linux__)
#include <stdint.h>
#include <sys/vfs.h>

/// The magic number of the file system holding `path` (statfs(2)'s `f_type`, the values of
/// <linux/magic.h>), or 0 when it cannot be read. Swift's Glibc module does not import
/// <sys/vfs.h>, and `f_type` is 32 bits wide on some architectures and 64 on others; the
/// magic numbers themselves are all 32-bit.
static inline uint32_t nwp_file_system_type(const char *path) {
  struct statfs status;
  return statfs(path, &status) == 0 ? (uint32_t)status.f_type : 0;
}
#endif

#endif
