#ifndef NWPCUBE_CCUBELEASE_H
#define NWPCUBE_CCUBELEASE_H

/// Linux read leases on served cube files, and the signal that reports their breaking.
///
/// A read lease (`fcntl(F_SETLEASE, F_RDLCK)`) makes the kernel tell its holder before any
/// other process opens the file for writing or truncates it, and hold that process back
/// until the holder lets go (or `/proc/sys/fs/lease-break-time` passes). The notice is a
/// signal; Swift cannot run code in a signal handler, so the handler here only writes the
/// descriptor named in `si_fd` to a pipe, which a thread of the reader drains.

/// Installs the lease-break handler (once; later calls return the same pipe) and returns
/// the pipe's reading end, or -1 with `errno` set.
int nwp_lease_listen(void);

/// Takes a read lease on `descriptor`, reported by the handler's signal. Returns 0, or the
/// `errno` of the failing `fcntl`: EAGAIN when another process has the file open for
/// writing, EACCES when this process neither owns the file nor has CAP_LEASE, EINVAL where
/// the file system has no leases.
int nwp_lease_take(int descriptor);

/// Whether the lease on `descriptor` is being broken (`F_GETLEASE` answers F_UNLCK, the
/// lease type it is being broken to).
int nwp_lease_is_breaking(int descriptor);

/// Installs a SIGBUS handler that writes one line to standard error and ends the process
/// at once with status 135 (128 + SIGBUS): a mapped file shrank under a read (a lease
/// broken by timeout, or a cube served without one), and the runtime's backtracer could
/// otherwise keep the process, and its port, for a long time.
void nwp_exit_on_sigbus(void);

#endif
