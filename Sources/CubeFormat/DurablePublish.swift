import Platform

/// Puts a finished temporary file in place so that a crash or power loss leaves either the
/// old file or the whole new one under its name: `fsync` of the file, `rename`, then
/// `fsync` of the directory. Every file nwpcube publishes (cubes, exports) goes through it,
/// from the temporary file's creation (`createTemporary`) to the rename.
public enum DurablePublish {
  /// Creates the temporary file at `path` (`TemporaryFiles.path(for:)`), read-write and
  /// locked, for `publish`. A file under this name is a leftover of an earlier process with
  /// this PID: it is replaced by a new file (a new inode), never written over, so that no
  /// one else's open descriptor or mapping ever sees these writes.
  public static func createTemporary(_ path: String) throws(Errno) -> Int32 {
    try? Posix.unlink(path)
    let descriptor = try Posix.open(path, [.readWrite, .create, .exclusive, .closeOnExec], permissions: 0o644)
    // Held until the rename: it tells `TemporaryFiles` that the writer lives, whatever its PID
    // means to the process looking. Where locks are unsupported the cleaner keeps files whose
    // PID exists, so failing to lock is no error.
    try? Posix.flock(descriptor)
    return descriptor
  }

  /// Flushes `descriptor` (the temporary file at `temporaryPath`, still open: a cube's lock
  /// must be held until the rename), renames it to `destination` and makes the rename
  /// durable, then closes the descriptor. `flushed` false says an earlier write failed: the
  /// file is then refused as a failed flush. On failure the temporary file is removed and
  /// the error names the file at fault (the temporary file for a flush, the destination for
  /// the rename) and the step.
  public static func publish(
    _ descriptor: Int32, temporaryPath: String, to destination: String, flushed: Bool = true
  ) throws(CubeError) {
    defer { Posix.close(descriptor) }
    do throws(Errno) {
      // The caller's failed flush (`msync`) left its errno, which the message reports.
      guard flushed else { throw Errno.current("msync") }
      try Posix.fsync(descriptor)
    } catch {
      try? Posix.unlink(temporaryPath)
      throw CubeError(path: temporaryPath, reason: "cannot flush to disk: \(error.text)")
    }
    // Only ever a rename: a served cube is replaced, never written over or truncated (its
    // readers' mappings would change under them; see README, "Operating nwpcube").
    do {
      try Posix.rename(temporaryPath, to: destination)
    } catch {
      try? Posix.unlink(temporaryPath)
      throw CubeError(path: destination, reason: "cannot rename into place: \(error.text)")
    }
    FileSystem.syncDirectory(FileSystem.directory(of: destination))
  }
}
