#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Puts a finished temporary file in place so that a crash or power loss leaves either the
/// old file or the whole new one under its name: `fsync` of the file, `rename`, then
/// `fsync` of the directory. Every file nwpcube publishes (cubes, exports) goes through it.
public enum DurablePublish {
  /// Flushes `descriptor` (the temporary file at `temporaryPath`, still open: a cube's lock
  /// must be held until the rename), renames it to `destination` and makes the rename
  /// durable, then closes the descriptor. `flushed` false says an earlier write failed: the
  /// file is then refused as a failed flush. On failure the temporary file is removed and
  /// the error names the file at fault (the temporary file for a flush, the destination for
  /// the rename) and the step.
  public static func publish(
    _ descriptor: Int32, temporaryPath: String, to destination: String, flushed: Bool = true
  ) throws(CubeError) {
    defer { close(descriptor) }
    guard flushed && fsync(descriptor) == 0 else {
      let reason = "cannot flush to disk: \(FileSystem.errnoText())"
      unlink(temporaryPath)
      throw CubeError(path: temporaryPath, reason: reason)
    }
    // Only ever a rename: a served cube is replaced, never written over or truncated (its
    // readers' mappings would change under them; see README, "Operating nwpcube").
    guard rename(temporaryPath, destination) == 0 else {
      let reason = "cannot rename into place: \(FileSystem.errnoText())"
      unlink(temporaryPath)
      throw CubeError(path: destination, reason: reason)
    }
    FileSystem.syncDirectory(FileSystem.directory(of: destination))
  }
}
