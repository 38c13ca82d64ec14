import Foundation
import FuzzSupport
import _TestSupport

/// The generated seeds of grib_file (Fuzz/Corpus/grib_file; `Scripts/fuzz --seeds`): one
/// small message per grid type and scanning order the reader computes, made with the tests'
/// GRIB writer, so that mutations start from every branch of the grid code. The sample
/// files of SampleGrids/grib are the other seeds (Scripts/fuzz passes their directory).
enum GRIBSeeds {
  static func writeIfAsked() {
    guard let directory = ProcessInfo.processInfo.environment["NWPCUBE_FUZZ_WRITE_SEEDS"] else { return }
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let reference: Int64 = 1_782_000_000 - 1_782_000_000 % 86_400
    let grids: [(String, GRIBTestGrid)] = [
      ("regular-ll-north-to-south", .regularLatLon(first: (50, 350), last: (40, 10), width: 6, height: 5)),
      (
        "regular-ll-south-to-north-westward",
        .regularLatLon(first: (-10, 20), last: (0, 0), width: 5, height: 3, westward: true)
      ),
      ("regular-gg", .regularGaussian(n: 2, width: 8, latitudes: (try? GRIBWriter.gaussianLatitudes(2)) ?? [])),
      (
        "lambert",
        .lambert(first: (30, -100), width: 5, height: 4, spacing: 40_000, latin1: 33, latin2: 45, lov: -97)
          .withGridRelativeWinds()
      ),
      (
        "polar-stereographic",
        .polarStereographic(first: (50, -120), width: 5, height: 4, spacing: 60_000, lad: 60, orientation: -105)
      ),
      ("mercator", .mercator(first: (10, -80), width: 5, height: 4, spacing: 30_000, lad: 20)),
      ("rotated-ll", .rotatedLatLon(first: (-2, -3), last: (2, 3), width: 4, height: 3, southPole: (-40, 10))),
    ]
    var written = 0
    for (name, grid) in grids {
      let values = (0..<(grid.width * grid.height)).map { 280 + Double($0) / 4 }
      let field = GRIBTestField.temperature(reference: reference, hours: 3, values: values)
      guard let bytes = try? GRIBWriter.message(field, on: grid) else {
        print("could not write the \(name) seed")
        continue
      }
      _ = FileManager.default.createFile(atPath: "\(directory)/\(name).grib2", contents: Data(bytes))
      written += 1
    }
    // Template 4.8 (an accumulation over a window) and simple packing, beside a field of the
    // same grid: a file of two messages.
    let grid = GRIBTestGrid.regularLatLon(first: (50, 350), last: (40, 10), width: 6, height: 5)
    var rain = GRIBTestField.precipitation(
      reference: reference, from: 6, to: 12, values: (0..<30).map { Double($0) / 8 })
    rain.packing = .simple(bits: 12)
    if let first = try? GRIBWriter.message(rain, on: grid),
      let second = try? GRIBWriter.message(
        .temperature(reference: reference, hours: 12, values: (0..<30).map { 270 + Double($0) }), on: grid)
    {
      _ = FileManager.default.createFile(
        atPath: "\(directory)/accumulation-two-messages.grib2", contents: Data(first + second))
      written += 1
    }
    print("wrote \(written) seeds for grib_file into \(directory)")
    exit(0)
  }
}
