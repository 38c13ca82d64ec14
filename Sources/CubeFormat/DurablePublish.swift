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
  /// durable, then closes the descriptor. On failure the temporary file is removed and the
  /// reason returned, naming the step that failed; nil on success.
  public static func publish(_ descriptor: Int32, temporaryPath: String, to destination: String) -> String? {
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else {
      let reason = "cannot flush to disk: \(FileSystem.errnoText())"
      unlink(temporaryPath)
      return reason
    }
    // Only ever a rename: a served cube is replaced, never written over or truncated (its
    // readers' mappings would change under them; see README, "Operating nwpcube").
    guard rename(temporaryPath, destination) == 0 else {
      let reason = "cannot rename into place: \(FileSystem.errnoText())"
      unlink(temporaryPath)
      return reason
    }
    FileSystem.syncDirectory(FileSystem.directory(of: destination))
    return nil
  }
}
