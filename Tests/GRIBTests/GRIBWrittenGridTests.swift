import Foundation
import GRIB
import Testing
import _TestSupport

/// The GRIB reader on fields written in the test with ecCodes' samples (`GRIBWriter`), one
/// per grid type and scanning order the reader computes: every point's coordinates equal
/// ecCodes' geoiterator's, and every value is the one written, in the written order.
@Suite struct GRIBWrittenGridTests {
  static let reference: Int64 = 1_782_000_000 - 1_782_000_000 % 86_400

  /// The grids, named.
  static let grids: [(name: String, grid: GRIBTestGrid)] = [
    ("regular_ll north to south, 0–360", .regularLatLon(first: (50, 0), last: (40, 357.5), width: 144, height: 5)),
    ("regular_ll south to north", .regularLatLon(first: (-90, 0), last: (90, 350), width: 36, height: 19)),
    ("regular_ll −180–180 global", .regularLatLon(first: (90, 180), last: (-90, 170), width: 36, height: 19)),
    ("regular_ll across Greenwich", .regularLatLon(first: (44, 350), last: (36, 6), width: 17, height: 9)),
    ("regular_ll westward", .regularLatLon(first: (36, 6), last: (44, 350), width: 17, height: 9, westward: true)),
    ("lambert", .lambert(first: (20, -120), width: 30, height: 20, spacing: 60_000, latin1: 33, latin2: 45, lov: -97)),
    (
      "lambert tangent",
      .lambert(first: (12.19, -133.459), width: 20, height: 15, spacing: 81_270.5, latin1: 25, latin2: 25, lov: -95)
    ),
    (
      "polar_stereographic north",
      .polarStereographic(first: (40, -130), width: 25, height: 20, spacing: 100_000, lad: 60, orientation: -105)
    ),
    (
      "polar_stereographic south",
      .polarStereographic(
        first: (-50, 120), width: 20, height: 20, spacing: 100_000, lad: -60, orientation: 140, south: true)
    ),
    ("mercator", .mercator(first: (-5, 100), width: 30, height: 20, spacing: 25_000, lad: 10)),
    ("rotated_ll", .rotatedLatLon(first: (-5, -8), last: (5, 8), width: 17, height: 11, southPole: (-40, 10))),
  ]

  /// Every grid type: the reader's coordinates are ecCodes' own to 10⁻⁴° (longitudes
  /// compared modulo 360), and its values are exactly the written ones as Float.
  @Test(arguments: grids.indices)
  func writtenFieldsReadBackWithEcCodesCoordinates(_ index: Int) throws {
    let (name, grid) = Self.grids[index]
    try check(name: name, grid: grid)
  }

  /// A regular Gaussian grid, N = 24, all 48 latitudes (which only ecCodes computes here).
  @Test func aRegularGaussianGridReadsBack() throws {
    let grid = GRIBTestGrid.regularGaussian(n: 24, width: 96, latitudes: try GRIBWriter.gaussianLatitudes(24))
    try check(name: "regular_gg", grid: grid)
  }

  func check(name: String, grid: GRIBTestGrid) throws {
    let directory = SampleFiles.temporaryDirectory("grib-written")
    defer { SampleFiles.remove(directory) }
    let (latitudes, longitudes) = try GRIBWriter.coordinates(of: grid)
    // A value per point that no reordering can keep: its index, scaled.
    let values = latitudes.indices.map { 200 + Double($0) * 0.25 }
    let path = "\(directory)/field.grib2"
    try GRIBWriter.write(
      [try GRIBWriter.message(.temperature(reference: Self.reference, hours: 6, values: values), on: grid)], to: path)

    let file = try GRIBFile(path: path)
    let message = try #require(file.messages.first)
    #expect(message.gridType == name.prefix { $0 != " " })
    #expect(message.referenceTime == Self.reference && message.endStep == 6 * 3600, "\(name)")
    #expect(message.shortName == "2t" && message.typeOfLevel == "heightAboveGround" && message.level == 2)
    let read = try file.grid(of: message)
    #expect(read.width == grid.width && read.height == grid.height, "\(name)")
    var worst = (latitude: 0.0, longitude: 0.0)
    for index in latitudes.indices {
      worst.latitude = max(worst.latitude, abs(Double(read.latitudes[index]) - latitudes[index]))
      let turn = (Double(read.longitudes[index]) - longitudes[index]).truncatingRemainder(dividingBy: 360)
      worst.longitude = max(worst.longitude, min(abs(turn), 360 - abs(turn)))
    }
    #expect(worst.latitude < 1e-4 && worst.longitude < 1e-4, "\(name): worst difference \(worst)")
    #expect(try file.values(of: message) == values.map { Double(Float($0)) }, "\(name)")
  }

  /// A Gaussian grid of 4 rows that declares N = 16,642 parallels per hemisphere (the
  /// fuzzer's input, whose latitudes took the reader past 10 s) is refused by its N at once.
  @Test(.timeLimit(.minutes(1)))
  func aGaussianGridOfAnImpossibleNIsRefused() throws {
    let directory = SampleFiles.temporaryDirectory("grib-written")
    defer { SampleFiles.remove(directory) }
    let grid = GRIBTestGrid.regularGaussian(n: 16_642, width: 8, latitudes: [89.99, 89.98, 89.97, 89.96])
    let path = "\(directory)/huge-n.grib2"
    let values = [Double](repeating: 280, count: 32)
    try GRIBWriter.write(
      [try GRIBWriter.message(.temperature(reference: Self.reference, hours: 0, values: values), on: grid)], to: path)
    let file = try GRIBFile(path: path)
    let message = try #require(file.messages.first)
    let error = #expect(throws: GRIBError.self) { try file.grid(of: message) }
    #expect(
      error?.description
        == "\(path): message 1: N: N = 16642 parallels per hemisphere is more than the 5000 whose latitudes the reader computes"
    )
  }
}
