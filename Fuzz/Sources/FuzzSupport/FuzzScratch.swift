import Foundation

/// Where a fuzz target writes the files it builds from an input: a directory of its own
/// in memory (`/dev/shm`) when the machine has one, so that the millions of small writes
/// of a run cost no disk I/O. `NWPCUBE_FUZZ_SCRATCH` overrides it (Scripts/fuzz sets it
/// and removes it afterwards, since a crashing target cannot clean up).
public enum FuzzScratch {
  /// The directory, created on first use.
  public static let directory: String = {
    let environment = ProcessInfo.processInfo.environment
    let parent =
      environment["NWPCUBE_FUZZ_SCRATCH"]
      ?? (FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())
    let path = "\(parent)/nwpcube-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }()

  /// The path of `name` in the scratch directory.
  public static func path(_ name: String) -> String { "\(directory)/\(name)" }

  /// Writes `bytes` to `name` in the scratch directory and returns its path, or nil when
  /// the write failed (a full tmpfs is no finding).
  public static func write(_ bytes: [UInt8], to name: String) -> String? {
    let path = path(name)
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return nil }
    return path
  }

  /// Removes `name` (a file or a directory tree) from the scratch directory.
  public static func remove(_ name: String) {
    try? FileManager.default.removeItem(atPath: path(name))
  }

  /// The repository's root, from this file's place in it (Fuzz/Sources/FuzzSupport/…),
  /// for the sample grids the NetCDF templates start from.
  public static let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
  }()
}
