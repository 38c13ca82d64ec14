import Foundation

/// Paths of the package's sample data and scratch space for tests.
public enum SampleFiles {
  /// The package root, found from this source file's location.
  public static let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
  }()

  /// A file under SampleGrids/.
  public static func grid(_ relative: String) -> String {
    "\(packageRoot)/SampleGrids/\(relative)"
  }

  /// The real WRF files every geometry and ingest test uses.
  public static let allvars = grid("wrf/wrf_d01_allvars_lambert.nc")
  public static let allvarsCDF2 = grid("wrf/wrf_d01_allvars_lambert.cdf2.nc")
  public static let tipD1 = grid("wrf/wrf_tip_d1_lambert.nc")
  public static let tipD2 = grid("wrf/wrf_tip_d2_lambert.nc")
  public static let mercator = grid("wrf/wrf_mercator.nc")

  /// The directory this process's scratch directories go in, removed when the process
  /// exits: a test that stops before its own clean-up, or has none, leaves nothing behind
  /// (a whole run used to leave a few hundred megabytes in the temporary directory).
  private static let scratchRoot: String = {
    let path = NSTemporaryDirectory() + "nwpcube-tests-\(ProcessInfo.processInfo.processIdentifier)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: SampleFiles.scratchRoot) }
    return path
  }()

  /// A fresh, empty directory under this process's scratch directory.
  public static func temporaryDirectory(_ label: String = "test") -> String {
    let path = scratchRoot + "/nwpcube-\(label)-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// Removes a directory made by `temporaryDirectory`.
  public static func remove(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
  }
}
