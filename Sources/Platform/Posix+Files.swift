extension Posix {
  /// `open(2)`: a new descriptor for `path`, which the caller closes.
  public static func open(_ path: String, _ options: OpenOptions, permissions: UInt32 = 0o644) throws(Errno) -> Int32 {
    let descriptor = system_open(path, options.rawValue, permissions)
    guard descriptor >= 0 else { throw .current("open") }
    return descriptor
  }

  /// `close(2)`. Its error is not reported: the descriptor is gone either way, and a write
  /// error it could report was already reported by `fsync` where it matters.
  public static func close(_ descriptor: Int32) { _ = system_close(descriptor) }

  /// `read(2)` into `buffer`, again after an interruption: the bytes read, 0 at the end of
  /// the file.
  public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    try retryingInterruptions("read") { system_read(descriptor, buffer) }
  }

  /// `pread(2)` into `buffer` from `offset`, again after an interruption: the bytes read, 0
  /// at the end of the file.
  public static func pread(
    _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
  ) throws(Errno) -> Int {
    try retryingInterruptions("pread") { system_pread(descriptor, buffer, offset) }
  }

  /// `pwrite(2)` of `bytes` at `offset`, again after an interruption: the bytes written,
  /// which may be fewer than asked (the caller writes the rest, and a full disk then reports
  /// itself).
  public static func pwrite(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws(Errno) -> Int {
    try retryingInterruptions("pwrite") { system_pwrite(descriptor, bytes, offset) }
  }

  /// `ftruncate(2)`: sets the file's size; bytes added read as zeros.
  public static func ftruncate(_ descriptor: Int32, to size: Int) throws(Errno) {
    guard system_ftruncate(descriptor, size) == 0 else { throw .current("ftruncate") }
  }

  /// `fsync(2)`: the file's data and metadata on the disk.
  public static func fsync(_ descriptor: Int32) throws(Errno) {
    guard system_fsync(descriptor) == 0 else { throw .current("fsync") }
  }

  /// Has the device start writing `count` bytes from `offset` of `descriptor` without
  /// waiting (Linux `sync_file_range` with `SYNC_FILE_RANGE_WRITE`; nothing elsewhere), so
  /// that a later `fsync` finds little left to write. It promises nothing about durability,
  /// which stays the `fsync`'s, and a refusal costs only the overlap: the `fsync` writes what
  /// is left and reports any error of the device. So it does not throw.
  public static func startWriteback(_ descriptor: Int32, from offset: Int, count: Int) {
    _ = system_startWriteback(descriptor, offset, count)
  }

  /// `pwrite(2)` of `bytes` at `offset` straight to the device, past the page cache (Linux
  /// `O_DIRECT`, for this call alone), again after an interruption: the bytes written,
  /// which may be fewer than asked. `bytes`' address, its count and `offset` must be
  /// multiples of the device's logical block (`directAlignment` suits every usual one).
  /// Throws `EINVAL` where direct writes are not possible (tmpfs, any system but Linux, an
  /// alignment the device refuses): the caller then writes through the page cache.
  public static func pwriteDirect(
    _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int
  ) throws(Errno) -> Int {
    try retryingInterruptions("pwrite (O_DIRECT)") { system_pwriteDirect(descriptor, bytes, offset) }
  }

  /// The count a call of `name` returns, made again while it is interrupted (`EINTR`);
  /// its error otherwise.
  private static func retryingInterruptions(_ name: String, _ call: () -> Int) throws(Errno) -> Int {
    while true {
      let count = call()
      if count >= 0 { return count }
      let error = Errno.current(name)
      guard error.code == Errno.interrupted else { throw error }
    }
  }

  /// The alignment of memory, length and file offset that `pwriteDirect` needs at most:
  /// 4,096 bytes, the largest logical block of usual devices, or the page when larger.
  public static var directAlignment: Int { Swift.max(4096, pageSize) }

  /// `unlink(2)`.
  public static func unlink(_ path: String) throws(Errno) {
    guard system_unlink(path) == 0 else { throw .current("unlink") }
  }

  /// `rename(2)`: atomically replaces `destination`, on one file system.
  public static func rename(_ source: String, to destination: String) throws(Errno) {
    guard system_rename(source, destination) == 0 else { throw .current("rename") }
  }

  /// `mkdir(2)`.
  public static func mkdir(_ path: String, permissions: UInt32 = 0o755) throws(Errno) {
    guard system_mkdir(path, permissions) == 0 else { throw .current("mkdir") }
  }

  /// `access(2)`: throws unless this process may do all that is asked to `path`.
  public static func access(
    _ path: String, readable: Bool = false, writable: Bool = false, searchable: Bool = false
  ) throws(Errno) {
    guard system_access(path, readable: readable, writable: writable, searchable: searchable) == 0 else {
      throw .current("access")
    }
  }

  /// `stat(2)`: the status of the file `path` names, following symbolic links.
  public static func stat(_ path: String) throws(Errno) -> FileStatus {
    guard let status = system_stat(path) else { throw .current("stat") }
    return status
  }

  /// `lstat(2)`: the status of `path` itself, a symbolic link included.
  public static func lstat(_ path: String) throws(Errno) -> FileStatus {
    guard let status = system_lstat(path) else { throw .current("lstat") }
    return status
  }

  /// `fstat(2)`: the status of the open file.
  public static func fstat(_ descriptor: Int32) throws(Errno) -> FileStatus {
    guard let status = system_fstat(descriptor) else { throw .current("fstat") }
    return status
  }

  /// `flock(2)`: an exclusive (or shared) lock on the open file, held until the descriptor
  /// closes. Without `wait`, throws `Errno.wouldBlock` at once when another holds it.
  public static func flock(_ descriptor: Int32, exclusive: Bool = true, wait: Bool = true) throws(Errno) {
    while system_flock(descriptor, exclusive: exclusive, wait: wait) != 0 {
      let error = Errno.current("flock")
      guard error.code == Errno.interrupted else { throw error }
    }
  }

  /// `opendir(3)`/`readdir(3)`: the names in a directory, without `.` and `..`.
  public static func directoryEntries(_ path: String) throws(Errno) -> [String] {
    guard let names = system_readdir(path) else { throw .current("opendir") }
    return names.filter { $0 != "." && $0 != ".." }
  }
}
