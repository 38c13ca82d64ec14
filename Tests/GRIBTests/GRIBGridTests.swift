import GRIB
import GridGeometry
import Testing
import _TestSupport

@Suite struct GRIBGridTests {
  /// The difference of two longitudes in degrees, the short way round.
  static func longitudeDifference(_ a: Double, _ b: Double) -> Double {
    let d = (a - b).truncatingRemainder(dividingBy: 360)
    return abs(d > 180 ? d - 360 : d < -180 ? d + 360 : d)
  }

  /// Every cell's latitude and longitude equal `grib_get_data`'s for the same point, in
  /// the message's order, within what a Float holds (2·10⁻⁵°, plus the last digit of a
  /// file's millidegrees for edition 1): a Lambert grid (NAM), a polar stereographic one
  /// (NGM), Mercator, a global 1° grid scanning north to south in 0–360, an edition 1 grid
  /// scanning south to north, a Gaussian grid, two rotated grids (a pole on the equator,
  /// and one whose pole is at 36.5° S), and a Lambert grid on a spheroid.
  @Test(arguments: [
    ("nam.t00z.awp21100.tm00.grib2", "lambert"), ("ngm.grb", "polar_stereographic"),
    ("dspr.temp.msg1.rows.grib2", "mercator"), ("regular_ll_msl.grib", "regular_ll"),
    ("scanning_mode_64.grib", "regular_ll"), ("gfs.t12z.pgrbf120.2p5deg.2t_tp_prate.grib2", "regular_ll"),
    ("regular_gg_ml.grib", "regular_gg"), ("rotated_ll_sfc_grib2.tmpl", "rotated_ll"),
    ("ecoclimap_rot.msg1.grib1", "rotated_ll"), ("no-radius-shapeOfEarth-7.grb2", "lambert"),
  ])
  func coordinatesEqualGribGetData(_ name: String, _ gridType: String) throws {
    let path = ECCodesTools.sample(name)
    let file = try GRIBFile(path: path)
    let message = file.messages[0]
    let grid = try file.grid(of: message)
    #expect(grid.gridType == gridType)
    #expect(grid.width == message.ni && grid.height == message.nj)
    let oracle = try ECCodesTools.data(of: path, message: 1)
    #expect(grid.latitudes.count == oracle.count && grid.longitudes.count == oracle.count)
    var worst = (latitude: 0.0, longitude: 0.0)
    for (k, point) in oracle.enumerated() where k < grid.latitudes.count {
      worst.latitude = max(worst.latitude, abs(Double(grid.latitudes[k]) - point.latitude))
      // Longitude means nothing at a pole.
      if abs(point.latitude) < 89.999 {
        worst.longitude = max(
          worst.longitude, Self.longitudeDifference(Double(grid.longitudes[k]), point.longitude))
      }
    }
    let tolerance = message.edition == 1 ? 1e-3 : 1e-4
    #expect(worst.latitude < tolerance, "\(name): latitudes off by up to \(worst.latitude)°")
    #expect(worst.longitude < tolerance, "\(name): longitudes off by up to \(worst.longitude)°")
  }

  /// Regular grids keep the file's order and longitude convention, as the CF path keeps a
  /// converted GFS file's: the global 1° grid runs from 90° N down, from 0° to 359° E.
  @Test func aGlobalGridKeepsItsRowsAndLongitudesAsTheFileHasThem() throws {
    let file = try GRIBFile(path: ECCodesTools.sample("regular_ll_msl.grib"))
    let grid = try file.grid(of: file.messages[0])
    #expect(grid.width == 360 && grid.height == 181)
    #expect(grid.latitudes[0] == 90 && grid.latitudes[360] == 89 && grid.latitudes[180 * 360] == -90)
    #expect(grid.longitudes[0] == 0 && grid.longitudes[1] == 1 && grid.longitudes[359] == 359)
    #expect(grid.projection == nil)
  }

  /// NAM's grid is NCEP's grid 211 (Office Note 388): 93 × 65 Lambert points at 81.2705 km,
  /// true at 25° N, from 12.190° N 133.459° W to 57.290° N 49.385° W. The projection returned
  /// maps every cell's coordinates (as grib_get_data gives them) back to its own indices.
  @Test func namIsNCEPGrid211AndItsProjectionLocatesEveryCell() throws {
    let path = ECCodesTools.sample("nam.t00z.awp21100.tm00.grib2")
    let file = try GRIBFile(path: path)
    let grid = try file.grid(of: file.messages[0])
    let last = grid.width * grid.height - 1
    #expect(abs(Double(grid.latitudes[0]) - 12.190) < 0.001)
    #expect(abs(Double(grid.longitudes[0]) - -133.459) < 0.001)
    #expect(abs(Double(grid.latitudes[last]) - 57.290) < 0.002)
    #expect(abs(Double(grid.longitudes[last]) - -49.385) < 0.002)
    let projection = try #require(grid.projection)
    #expect(projection.kind == .lambertConformal)
    let oracle = try ECCodesTools.data(of: path, message: 1)
    var worst = 0.0
    for (k, point) in oracle.enumerated() {
      guard let (x, y) = projection.gridCoordinates(latitude: point.latitude, longitude: point.longitude) else {
        Issue.record("cell \(k) does not map")
        continue
      }
      worst = max(worst, abs(x - Double(k % grid.width)), abs(y - Double(k / grid.width)))
    }
    #expect(worst < 1e-4, "cells off by up to \(worst)")
  }

  /// Polar stereographic and Mercator grids that scan west to east and south to north get
  /// their projection; a spheroid's Lambert grid gets none (its coordinates only).
  @Test func projectionsComeWithGridsThatCountLikeThem() throws {
    for (name, kind) in [("ngm.grb", MapProjection.Kind.polarStereographic), ("dspr.temp.msg1.rows.grib2", .mercator)] {
      let file = try GRIBFile(path: ECCodesTools.sample(name))
      #expect(try file.grid(of: file.messages[0]).projection?.kind == kind, "\(name)")
    }
    let oblate = try GRIBFile(path: ECCodesTools.sample("no-radius-shapeOfEarth-7.grb2"))
    #expect(try oblate.grid(of: oblate.messages[0]).projection == nil)
  }

  /// Grids that cannot be served are refused with their gridType or scanning flag named,
  /// and why.
  @Test(arguments: [
    (
      "reduced_gg.grib",
      "gridType: reduced_gg is not supported: a reduced (quasi-regular) Gaussian grid has rows of different lengths, which a cube's rectangular grid cannot hold"
    ),
    (
      "reduced_gg_pl_32_grib2.tmpl",
      "gridType: reduced_gg is not supported: a reduced (quasi-regular) Gaussian grid has rows of different lengths, which a cube's rectangular grid cannot hold"
    ),
    (
      "alternate-scanning.grib",
      "alternativeRowScanning: alternativeRowScanning = 1 (every other row runs backwards) is not supported"
    ),
    (
      "dspr.temp.msg1.grib2",
      "alternativeRowScanning: alternativeRowScanning = 1 (every other row runs backwards) is not supported"
    ),
    (
      "scanning_mode.grib2",
      "jPointsAreConsecutive: jPointsAreConsecutive = 1 (values run along columns, not rows) is not supported"
    ),
  ])
  func unservableGridsAreRefusedByName(_ name: String, _ reason: String) throws {
    let path = ECCodesTools.sample(name)
    let file = try GRIBFile(path: path)
    let error = #expect(throws: GRIBError.self) { try file.grid(of: file.messages[0]) }
    #expect(error?.description == "\(path): message 1: \(reason)")
  }
}

/// Grids made in the test from ecCodes' sample templates with `grib_set`, for the scanning
/// directions and longitude conventions no sample file has.
@Suite struct GRIBGeneratedGridTests {
  /// `grib_set -s settings` of the template `template` into a fresh file.
  static func generated(_ template: String, _ settings: String) throws -> String {
    let path =
      SampleFiles.temporaryDirectory("grib-generated") + "/" + template.replacingOccurrences(of: ".tmpl", with: "")
    _ = try ECCodesTools.run("grib_set", ["-s", settings, "/usr/share/eccodes/samples/\(template)", path])
    return path
  }

  /// Rows running east to west, and longitudes west of Greenwich in either edition: the
  /// coordinates equal `grib_get_data`'s, the first column is the first point the keys give,
  /// and a signed longitude stays signed.
  @Test(arguments: [
    (
      "regular_ll_sfc_grib2.tmpl",
      "iScansNegatively=1,longitudeOfFirstGridPointInDegrees=30,longitudeOfLastGridPointInDegrees=0", 30.0
    ),
    ("regular_ll_sfc_grib1.tmpl", "longitudeOfFirstGridPointInDegrees=-15,longitudeOfLastGridPointInDegrees=15", -15.0),
    (
      "regular_ll_sfc_grib2.tmpl",
      "jScansPositively=1,latitudeOfFirstGridPointInDegrees=0,latitudeOfLastGridPointInDegrees=60", 0.0
    ),
  ])
  func scanningDirectionsAndSignedLongitudesEqualGribGetData(
    _ template: String, _ settings: String, _ first: Double
  ) throws {
    let path = try Self.generated(template, settings)
    let file = try GRIBFile(path: path)
    let grid = try file.grid(of: file.messages[0])
    let oracle = try ECCodesTools.data(of: path, message: 1)
    #expect(grid.latitudes.count == oracle.count)
    for (k, point) in oracle.enumerated() where k < grid.latitudes.count {
      #expect(abs(Double(grid.latitudes[k]) - point.latitude) < 1e-4, "cell \(k)")
      #expect(GRIBGridTests.longitudeDifference(Double(grid.longitudes[k]), point.longitude) < 1e-4, "cell \(k)")
    }
    let firstPoint = settings.contains("jScansPositively") ? Double(grid.latitudes[0]) : Double(grid.longitudes[0])
    #expect(firstPoint == first)
  }

  /// A Lambert grid whose `LaD` is not its true latitude: the spacing is taken as ecCodes
  /// (and the NAM and HRRR producers, who write LaD = Latin1) take it, true at the true
  /// latitudes; the coordinates equal `grib_get_data`'s.
  @Test func aLambertGridWithAnotherLaDEqualsGribGetData() throws {
    let path = SampleFiles.temporaryDirectory("grib-generated") + "/lad.grib2"
    _ = try ECCodesTools.run(
      "grib_set", ["-w", "count=1", "-s", "LaDInDegrees=40", ECCodesTools.sample("nam.t00z.awp21100.tm00.grib2"), path])
    let file = try GRIBFile(path: path)
    let grid = try file.grid(of: file.messages[0])
    let oracle = try ECCodesTools.data(of: path, message: 1)
    var worst = 0.0
    for (k, point) in oracle.enumerated() where k < grid.latitudes.count {
      worst = max(
        worst, abs(Double(grid.latitudes[k]) - point.latitude),
        GRIBGridTests.longitudeDifference(Double(grid.longitudes[k]), point.longitude))
    }
    #expect(grid.latitudes.count == oracle.count)
    #expect(worst < 1e-4, "off by up to \(worst)°")
  }

  /// The rotation by its definition, on ecCodes' rotated sample (rotated latitudes 60° to
  /// 0° in 31 rows, longitudes 0° to 30° in 16 columns): with the frame's south pole at the
  /// earth's, rotated coordinates are geographic ones; with it at 36.5° S 13.5° E, the
  /// rotated origin (0°, 0°) lies 90° north of that pole on its meridian, at 53.5° N 13.5° E.
  @Test func aRotatedGridTurnsAboutItsPoleByDefinition() throws {
    let unturned = try GRIBGeneratedGridTests.generated(
      "rotated_ll_sfc_grib2.tmpl", "latitudeOfSouthernPoleInDegrees=-90,longitudeOfSouthernPoleInDegrees=0")
    let file = try GRIBFile(path: unturned)
    let grid = try file.grid(of: file.messages[0])
    for k in [0, 1, 15, 16, 250, 495] {
      #expect(abs(Double(grid.latitudes[k]) - (60 - 2 * Double(k / 16))) < 1e-4, "cell \(k)")
      #expect(abs(Double(grid.longitudes[k]) - 2 * Double(k % 16)) < 1e-4, "cell \(k)")
    }
    let turned = try GRIBGeneratedGridTests.generated(
      "rotated_ll_sfc_grib2.tmpl", "latitudeOfSouthernPoleInDegrees=-36.5,longitudeOfSouthernPoleInDegrees=13.5")
    let turnedFile = try GRIBFile(path: turned)
    let turnedGrid = try turnedFile.grid(of: turnedFile.messages[0])
    let origin = 30 * 16
    #expect(abs(Double(turnedGrid.latitudes[origin]) - 53.5) < 1e-4)
    #expect(abs(Double(turnedGrid.longitudes[origin]) - 13.5) < 1e-4)
  }
}
