import Foundation
import Ingest
import Meteorology
import PointQuery
import Testing
import _TestSupport

/// The real NCEP NAM analysis (SampleGrids/grib, Lambert conformal grid 211, winds relative
/// to the grid) ingested and read back at 1,000 random points inside its grid. Each answer
/// is checked against an independent computation from the file's values as ecCodes' own
/// `grib_get_data` prints them: the brute-force nearest of the points it lists, and the
/// wind turned to the earth by the Lambert cone, computed here.
@Suite(.timeLimit(.minutes(3))) struct NAMAcceptanceTests {
  static let path = ECCodesTools.sample("nam.t00z.awp21100.tm00.grib2")
  /// Grid 211 is a cone tangent at 25° N (`Latin1` = `Latin2` = 25) about `LoV` = 265° E.
  static let tangentLatitude = 25.0
  static let orientation = 265.0
  static let width = 93
  static let height = 65

  /// `grib_get_data` of the first field with `shortName` on `typeOfLevel`.
  static func field(
    _ shortName: String, _ typeOfLevel: String
  ) throws -> [(
    latitude: Double, longitude: Double, value: Double
  )] {
    let keys = try ECCodesTools.keys(["shortName", "typeOfLevel"], of: path)
    let number = try #require(
      keys.firstIndex { $0["shortName"] == shortName && $0["typeOfLevel"] == typeOfLevel },
      "\(shortName)")
    return try ECCodesTools.data(of: path, message: number + 1)
  }

  @Test func temperatureWindAndPressureEqualTheFilesValues() throws {
    let directory = SampleFiles.temporaryDirectory("nam")
    defer { SampleFiles.remove(directory) }
    let report = try Ingestor.run([Self.path], options: .init(store: directory))
    #expect(report.convention == .grib)
    let published = try #require(report.published.first)
    #expect(published.run == "2018091700" && published.steps == 1)
    let cube = try Cube(path: published.path)
    let time: Int64 = 1_537_142_400  // 2018-09-17 00 UTC

    let (t, u, v, p) = (
      try Self.field("2t", "heightAboveGround"), try Self.field("10u", "heightAboveGround"),
      try Self.field("10v", "heightAboveGround"), try Self.field("prmsl", "meanSea")
    )
    #expect(
      t.count == Self.width * Self.height && u.count == t.count && v.count == t.count
        && p.count == t.count)
    let oracle = GRIBOracle(latitudes: t.map(\.latitude), longitudes: t.map(\.longitude))
    let metrics = try ["temp", "wind_vel", "wind_dir", "atm_press"].map { try cube.metric($0) }
    let cone = sin(Self.tangentLatitude * .pi / 180)
    let (temperatureTolerance, pressureTolerance) = (
      (Metric.temp.step ?? 0) / 2 + 1e-3, (Metric.atmPress.step ?? 0) / 2 + 1e-3
    )
    // u and v are each within half a step of the truth, so the speed within step/√2.
    let speedTolerance = (Metric.windU.step ?? 0) / 2.squareRoot() + 1e-3

    var wrong: [String] = []
    let points = oracle.interiorPoints(1_000, width: Self.width, height: Self.height, seed: 1000)
    for point in points {
      let location = try cube.locate(
        latitude: point.latitude, longitude: point.longitude, method: .nearest)
      let candidates = oracle.nearest(latitude: point.latitude, longitude: point.longitude)
      guard let k = candidates.first(where: { oracle.isAt(location, $0) }) else {
        wrong.append(
          "\(point): located at \(location.latitude), \(location.longitude), not the nearest point")
        continue
      }
      let read = try metrics.map { try #require(try cube.value($0, at: location, time: time)) }
      // Grid-relative to earth-relative: the grid's y axis points to the cone's apex, which
      // lies cone · (lon − LoV) east of north at longitude lon.
      var difference = t[k].longitude - Self.orientation
      difference -= 360 * (difference / 360).rounded()
      let angle = cone * difference * .pi / 180
      let east = u[k].value * cos(angle) + v[k].value * sin(angle)
      let north = -u[k].value * sin(angle) + v[k].value * cos(angle)
      let speed = (east * east + north * north).squareRoot()
      var direction = (270 - atan2(north, east) * 180 / .pi).truncatingRemainder(dividingBy: 360)
      if direction < 0 { direction += 360 }
      let turn = abs(read[2] - direction)
      // The direction of a wind known to within `speedTolerance` is known to within this angle.
      let directionTolerance =
        asin(min(1, speedTolerance / max(speed, speedTolerance))) * 180 / .pi + 0.05
      if abs(read[0] - (t[k].value - 273.15)) > temperatureTolerance {
        wrong.append("\(point) temp \(read[0]) ≠ \(t[k].value - 273.15)")
      }
      if abs(read[1] - speed) > speedTolerance {
        wrong.append("\(point) wind_vel \(read[1]) ≠ \(speed)")
      }
      if min(turn, 360 - turn) > directionTolerance {
        wrong.append("\(point) wind_dir \(read[2]) ≠ \(direction)")
      }
      if abs(read[3] - p[k].value / 100) > pressureTolerance {
        wrong.append("\(point) atm_press \(read[3]) ≠ \(p[k].value / 100)")
      }
    }
    #expect(wrong.isEmpty, "\(wrong.count) wrong of \(points.count * 4): \(wrong.prefix(6))")
  }
}
