import Foundation
import NetCDF

/// Scratch directories and file readers shared by the sample-run tests.
enum Scratch {
  /// A fresh directory path under the system temporary directory (not yet created, so
  /// that the generator's own directory creation is exercised).
  static func directory(_ label: String) -> String {
    NSTemporaryDirectory() + "nwpcube-samplerun-\(label)-\(UUID().uuidString)"
  }

  static func remove(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// The real WRF output the projection tests compare against: the package's copy when
  /// the tests run inside the package, else the shared sample grids.
  static let realLambertFile: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    let packaged = url.path + "/SampleGrids/wrf/wrf_d01_allvars_lambert.nc"
    if FileManager.default.fileExists(atPath: packaged) { return packaged }
    return "/work/shared/grids/wrf/wrf_d01_allvars_lambert.nc"
  }()
}

/// A whole-record reader for WRF files with a Time dimension.
struct WRFRecords {
  let file: NCFile

  init(_ path: String) throws {
    file = try NCFile.open(path)
  }

  var recordCount: Int { file.dimension("Time")?.length ?? 0 }

  /// One time of a (Time, …) variable, as Doubles.
  func values(_ name: String, record: Int = 0) throws -> [Double] {
    let shape = try file.variable(name).shape
    var start = [Int](repeating: 0, count: shape.count)
    var count = shape
    start[0] = record
    count[0] = 1
    return try file.readRaw(name, start: start, count: count)
  }

  func number(_ attribute: String) -> Double? {
    file.globalAttributes[attribute]?.number
  }
}
