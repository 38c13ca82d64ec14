/// Every system call nwpcube makes, each a small function that names the C call it wraps,
/// converts Swift values to C ones and throws `Errno` on failure: one place to read which
/// calls the product depends on, to port them, and to see how each error is reported (the
/// model is swift-system's `Internals/Syscalls.swift` and NIO's `NIOPosix/System.swift`).
///
/// Descriptors stay `Int32`, as the callers already held them. Calls that a signal can
/// interrupt (`read`, `pread`, `pwrite`, `flock` while waiting) are retried on `EINTR` here,
/// so that no caller repeats the loop. The raw C calls are made in `Syscalls.swift` only.
///
/// Not here: the C targets (`CCubeLease`'s lease and signal handler, `CPrefetch`'s
/// `madvise`/`posix_fadvise`, `CFileSystemType`'s `statfs`), which must be C.
public enum Posix {}
