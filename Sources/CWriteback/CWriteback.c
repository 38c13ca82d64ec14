#define _GNU_SOURCE
#include "CWriteback.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int nwp_start_writeback(int descriptor, long long offset, long long count) {
#ifdef __linux__
  return sync_file_range(descriptor, (off_t)offset, (off_t)count, SYNC_FILE_RANGE_WRITE) == 0 ? 0 : errno;
#else
  (void)descriptor;
  (void)offset;
  (void)count;
  return 0;
#endif
}

long long nwp_pwrite_direct(int descriptor, const void *bytes, long long count, long long offset) {
#if defined(__linux__) && defined(O_DIRECT)
  int flags = fcntl(descriptor, F_GETFL);
  if (flags < 0) return -1;
  // tmpfs refuses the flag here, with EINVAL.
  if (fcntl(descriptor, F_SETFL, flags | O_DIRECT) != 0) return -1;
  ssize_t written = pwrite(descriptor, bytes, (size_t)count, (off_t)offset);
  int saved = errno;
  // Cleared at once: the descriptor's other writes (the header, a cube's unaligned tail)
  // go through the page cache as before. Should clearing fail, those writes fail with
  // EINVAL and name the cube, rather than go astray.
  (void)fcntl(descriptor, F_SETFL, flags);
  errno = saved;
  return (long long)written;
#else
  (void)descriptor;
  (void)bytes;
  (void)count;
  (void)offset;
  errno = EINVAL;
  return -1;
#endif
}
