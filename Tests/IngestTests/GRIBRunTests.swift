import Foundation
import Ingest
import Meteorology
import PointQuery
import Testing
import _TestSupport

/// GRIB2 runs written in the test with ecCodes' samples (`GRIBWriter`), with known values,
/// ingested through `Ingestor.run` and read back through `Cube`: every grid type and
/// scanning order, a global grid's seam and poles, both accumulation conventions and
/// rates, and runs split over files in any order.
@Suite(.timeLimit(.minutes(3))) struct GRIBRunTests {
  /// 2026-06-21 00 UTC.
  static let reference: Int64 = 1_782_000_000

  /// 2 m temperature in K at written point `k` and step `hour`: a different value at every
  /// point and step (0.05 K apart, the cube's step, within a run of 997 points), so that a
  /// value read from the wrong point or step is seen.
  static func kelvin(_ k: Int, _ hour: Int) -> Double {
    250 + Double(k % 997) * 0.05 + Double(hour) * 0.35
  }

  /// The grids, named, and whether they are global (then the seam and the poles are asked too).
  static let grids: [(name: String, grid: GRIBTestGrid, global: Bool)] = [
    (
      "regular_ll global 0–360 north to south",
      .regularLatLon(first: (90, 0), last: (-90, 357.5), width: 144, height: 73), true
    ),
    (
      "regular_ll global 0–360 south to north",
      .regularLatLon(first: (-90, 0), last: (90, 355), width: 72, height: 37), true
    ),
    (
      "regular_ll global −180–180",
      .regularLatLon(first: (90, 180), last: (-90, 177.5), width: 144, height: 73), true
    ),
    (
      "regular_ll regional across Greenwich",
      .regularLatLon(first: (44, 350), last: (36, 6), width: 33, height: 17), false
    ),
    (
      "regular_ll regional south to north",
      .regularLatLon(first: (36, 350), last: (44, 6), width: 33, height: 17), false
    ),
    (
      "regular_ll regional westward",
      .regularLatLon(first: (44, 6), last: (36, 350), width: 33, height: 17, westward: true), false
    ),
    (
      "lambert",
      .lambert(
        first: (20, -120), width: 40, height: 30, spacing: 60_000, latin1: 33, latin2: 45, lov: -97),
      false
    ),
    (
      "polar_stereographic",
      .polarStereographic(
        first: (40, -130), width: 30, height: 25, spacing: 100_000, lad: 60, orientation: -105),
      false
    ),
    (
      "mercator", .mercator(first: (-5, 100), width: 40, height: 30, spacing: 25_000, lad: 10),
      false
    ),
    (
      "rotated_ll",
      .rotatedLatLon(first: (-5, -8), last: (5, 8), width: 33, height: 21, southPole: (-40, 10)),
      false
    ),
  ]

  /// Points on a global grid that only a locator aware of the seam and the poles answers
  /// right: both sides of 0° and of 180°, and the poles and their neighbourhood.
  static let seamAndPoles: [(latitude: Double, longitude: Double)] = [
    (10, 359.9), (10, -0.1), (-33.3, 0), (45, 0.05), (0, 359.99), (60, 179.99), (60, -179.99),
    (-20, 180),
    (-20, -180), (90, 0), (-90, 0), (89.99, 123), (-89.99, -45), (88.8, -1.2), (-88.8, 358.9),
  ]

  /// Writes a 3-step run of temperature on `grid` (one file per step) and ingests it.
  func ingest(_ grid: GRIBTestGrid, in directory: String) throws -> (cube: Cube, oracle: GRIBOracle) {
    let (latitudes, longitudes) = try GRIBWriter.coordinates(of: grid)
    var paths: [String] = []
    for hour in 0..<3 {
      let values = latitudes.indices.map { Self.kelvin($0, hour) }
      let path = "\(directory)/step\(hour).grib2"
      try GRIBWriter.write(
        [
          try GRIBWriter.message(
            .temperature(reference: Self.reference, hours: hour, values: values), on: grid)
        ],
        to: path)
      paths.append(path)
    }
    let report = try Ingestor.run(paths, options: .init(store: "\(directory)/store"))
    #expect(report.convention == .grib)
    let published = try #require(report.published.first)
    #expect(published.steps == 3)
    return (
      try Cube(path: published.path), GRIBOracle(latitudes: latitudes, longitudes: longitudes)
    )
  }

  /// Every grid type and scanning order: at random points inside the grid (and at the seam
  /// and poles of a global one), the nearest-cell lookup is the brute-force nearest written
  /// point, and its temperature at every step is the value written there, to the cube's
  /// quantization step.
  @Test(arguments: grids.indices)
  func lookupsEqualTheValueWrittenAtTheNearestPoint(_ index: Int) throws {
    let (name, grid, global) = Self.grids[index]
    try checkLookups(name: name, grid: grid, global: global, seed: UInt64(index + 1))
  }

  /// Global regular Gaussian grids (N32, 128 × 64), as IFS's and GFS's native grids are,
  /// in both scanning orders: the same lookups at thousands of points, with the seam in
  /// both conventions, the caps poleward of the outermost rows, and points exactly halfway
  /// between rows.
  @Test(arguments: [false, true])
  func lookupsOnAGlobalGaussianGridEqualTheValueWrittenAtTheNearestPoint(_ southToNorth: Bool) throws {
    let rows = try GRIBWriter.gaussianLatitudes(32)
    let grid = GRIBTestGrid.regularGaussian(n: 32, width: 128, latitudes: southToNorth ? rows.reversed() : rows)
    var random = TestRandom(seed: southToNorth ? 71 : 73)
    var points: [(latitude: Double, longitude: Double)] = []
    for _ in 0..<1_200 {
      points.append((asin(random.uniform(-1...1)) * 180 / .pi, random.uniform(-180...360)))
    }
    for seam in [0.0, 180, -180, 360] {
      for _ in 0..<100 {
        let longitude = seam + random.uniform(seam < 0 ? 0...1 : seam == 360 ? -1...0 : -1...1)
        points.append((random.uniform(-89...89), longitude))
      }
    }
    for k in 0..<400 {
      points.append(((k % 2 == 0 ? 1.0 : -1.0) * random.uniform(86...90), random.uniform(-180...360)))
    }
    for (above, below) in zip(rows, rows.dropFirst()) {
      let column = Double(random.next() % 128) * 2.8125
      // On a column, and halfway between two in −180…180 (the API takes −180…360).
      let between = column + 1.40625
      points += [((above + below) / 2, column), ((above + below) / 2, between > 180 ? between - 360 : between)]
    }
    try checkLookups(
      name: "regular_gg global N32 \(southToNorth ? "south to north" : "north to south")", grid: grid, global: true,
      seed: 99, extra: points)
  }

  /// A regional Gaussian grid: 24 of N48's rows (about 56° N to 13° N) and 33 columns of
  /// 1.875° from 350° E, across Greenwich, in both scanning orders.
  @Test(arguments: [false, true])
  func lookupsOnARegionalGaussianGridEqualTheValueWrittenAtTheNearestPoint(_ southToNorth: Bool) throws {
    let rows = Array(try GRIBWriter.gaussianLatitudes(48)[18..<42])
    let grid = GRIBTestGrid.regularGaussian(
      n: 48, width: 33, latitudes: southToNorth ? rows.reversed() : rows, firstLongitude: 350, increment: 1.875)
    try checkLookups(
      name: "regular_gg regional \(southToNorth ? "south to north" : "north to south")", grid: grid, global: false,
      seed: southToNorth ? 101 : 103, interior: 2_000)
  }

  /// Ingest refuses a grid no locator can search, saying why, rather than publishing a
  /// cube that no reader could open: a rotated grid round the whole globe is no lattice of
  /// latitudes and longitudes, has no analytic projection here, and spans more than the
  /// hemisphere the generic locator takes.
  @Test func aGridNoLocatorCanSearchIsRefusedAtIngestAndNothingIsPublished() throws {
    let directory = SampleFiles.temporaryDirectory("grib-unlocatable")
    defer { SampleFiles.remove(directory) }
    let grid = GRIBTestGrid.rotatedLatLon(
      first: (-87.5, 0), last: (87.5, 345), width: 24, height: 36, southPole: (-40, 10))
    let (latitudes, _) = try GRIBWriter.coordinates(of: grid)
    let path = "\(directory)/step0.grib2"
    try GRIBWriter.write(
      [
        try GRIBWriter.message(
          .temperature(reference: Self.reference, hours: 0, values: latitudes.indices.map { Self.kelvin($0, 0) }),
          on: grid)
      ], to: path)
    do {
      let report = try Ingestor.run([path], options: .init(store: "\(directory)/store"))
      Issue.record("published \(report.published.map(\.path))")
    } catch {
      #expect(error.path == path)
      #expect(error.reason.hasPrefix("no locator can find points on this grid: it is not a latitude/longitude lattice"))
      #expect(error.reason.hasSuffix("the grid spans more than a hemisphere around its centre cell"))
    }
    let cubes = FileManager.default.enumerator(atPath: "\(directory)/store")?.compactMap { $0 as? String }
      .filter { $0.hasSuffix(".cube") }
    #expect(cubes ?? [] == [])
  }

  /// Ingests a run on `grid` and checks lookups at `interior` random points inside it,
  /// the seam and poles of a global grid, and `extra` points.
  func checkLookups(
    name: String, grid: GRIBTestGrid, global: Bool, seed: UInt64, interior: Int = 300,
    extra: [(latitude: Double, longitude: Double)] = []
  ) throws {
    let directory = SampleFiles.temporaryDirectory("grib-grid")
    defer { SampleFiles.remove(directory) }
    let (cube, oracle) = try ingest(grid, in: directory)
    let temp = try cube.metric("temp")
    let tolerance = (Metric.temp.step ?? 0.05) / 2 + 1e-3
    var points = oracle.interiorPoints(
      interior, width: grid.width, height: grid.height, seed: seed)
    if global { points += Self.seamAndPoles }
    points += extra
    var wrong: [String] = []
    for point in points {
      let candidates = oracle.nearest(latitude: point.latitude, longitude: point.longitude)
      let location: PointLocation
      do {
        location = try cube.locate(
          latitude: point.latitude, longitude: point.longitude, method: .nearest)
      } catch {
        wrong.append("\(point): \(error)")
        continue
      }
      guard let k = candidates.first(where: { oracle.isAt(location, $0) }) else {
        wrong.append(
          "\(point): at \(location.latitude), \(location.longitude), nearest is point \(candidates[0])"
        )
        continue
      }
      for hour in 0..<3 {
        let value = try #require(
          try cube.value(temp, at: location, time: Self.reference + Int64(hour) * 3600))
        let expected = Double(Float(Self.kelvin(k, hour))) - 273.15
        if abs(value - expected) > tolerance {
          wrong.append("\(point) hour \(hour): \(value), written \(expected)")
        }
      }
    }
    #expect(
      wrong.isEmpty, "\(name): \(wrong.count) of \(points.count) points wrong: \(wrong.prefix(5))")
  }

  /// One step's messages: temperature, 10 m wind, sea-level pressure and precipitation
  /// accumulated from the start, on a regional grid.
  static func stepMessages(hour: Int, reference: Int64 = reference) throws -> [[UInt8]] {
    let grid = GRIBTestGrid.regularLatLon(first: (44, 350), last: (36, 6), width: 17, height: 9)
    let points = grid.width * grid.height
    let series = { (scale: Double) in (0..<points).map { Double($0) * scale + Double(hour) } }
    var fields: [GRIBTestField] = [
      .temperature(reference: reference, hours: hour, values: series(0.1).map { $0 + 270 }),
      .wind("u", reference: reference, hours: hour, values: series(0.05)),
      .wind("v", reference: reference, hours: hour, values: series(-0.03)),
      .seaLevelPressure(reference: reference, hours: hour, values: series(10).map { $0 + 100_000 }),
    ]
    if hour > 0 {
      fields.append(.precipitation(reference: reference, from: 0, to: hour, values: series(0.01)))
    }
    return try fields.map { field throws(GRIBWriterError) in try GRIBWriter.message(field, on: grid)
    }
  }

  /// A run published as one file per step, given in shuffled order, makes the same cube,
  /// byte for byte, as the same messages in one file.
  @Test func aRunSplitOverShuffledFilesMakesTheSameCubeAsOneFile() throws {
    let directory = SampleFiles.temporaryDirectory("grib-split")
    defer { SampleFiles.remove(directory) }
    var paths: [String] = []
    var all: [[UInt8]] = []
    for hour in 0..<6 {
      let messages = try Self.stepMessages(hour: hour)
      let path = "\(directory)/run.f\(String(format: "%03d", hour)).grib2"
      try GRIBWriter.write(messages.reversed(), to: path)
      paths.append(path)
      all += messages
    }
    paths = GRIBOracle.shuffled(paths, seed: 3)
    try GRIBWriter.write(all, to: "\(directory)/whole.grib2")
    let split = try Ingestor.run(paths, options: .init(store: "\(directory)/split"))
    let whole = try Ingestor.run(
      ["\(directory)/whole.grib2"], options: .init(store: "\(directory)/whole"))
    let (a, b) = (try #require(split.published.first), try #require(whole.published.first))
    #expect(a.steps == 6 && a.run == "2026062100")
    #expect(
      Set(a.metrics).isSuperset(of: ["temp", "rain", "wind_u", "wind_v", "atm_press"]),
      "\(a.metrics)")
    #expect(
      FileManager.default.contents(atPath: a.path) == FileManager.default.contents(atPath: b.path))
  }

  /// Files of two runs (reference times 00 and 06 UTC) are refused, and the error names
  /// the file of the other run.
  @Test func aRunMixingTwoReferenceTimesIsRefused() throws {
    let directory = SampleFiles.temporaryDirectory("grib-mixed")
    defer { SampleFiles.remove(directory) }
    let first = "\(directory)/a.grib2"
    let second = "\(directory)/b.grib2"
    try GRIBWriter.write(try Self.stepMessages(hour: 0), to: first)
    try GRIBWriter.write(
      try Self.stepMessages(hour: 1, reference: Self.reference + 6 * 3600), to: second)
    let error = #expect(throws: IngestError.self) {
      try Ingestor.run([first, second], options: .init(store: "\(directory)/store"))
    }
    let text = error.map { "\($0)" } ?? ""
    // Whichever file is read first sets the run; the other is named with its message.
    #expect(
      text.contains("\(first): message 1: reference time") || text.contains("\(second): message 1: reference time"),
      "\(text)")
    #expect(
      text.contains("2026-06-21T06") && text.contains("2026-06-21T00") && text.contains("differs from"), "\(text)")
    let cubes = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String }.filter {
      $0.hasSuffix(".cube")
    }
    #expect(cubes == [], "nothing is published")
  }

  /// Grids whose winds are marked relative to the grid: a secant Lambert cone and polar
  /// stereographic grids over either pole.
  static let gridRelative: [(name: String, grid: GRIBTestGrid)] = [
    (
      "lambert secant",
      .lambert(
        first: (20, -120), width: 30, height: 20, spacing: 60_000, latin1: 33, latin2: 45, lov: -97)
    ),
    (
      "polar_stereographic north",
      .polarStereographic(
        first: (40, -130), width: 25, height: 20, spacing: 100_000, lad: 60, orientation: -105)
    ),
    (
      "polar_stereographic south",
      .polarStereographic(
        first: (-50, 120), width: 25, height: 20, spacing: 100_000, lad: -60, orientation: 140,
        south: true)
    ),
  ]

  /// A wind of 30 along the grid's x axis and 40 along its y axis, marked grid-relative,
  /// comes out of the cube at 50 m/s from the direction the grid itself gives: the bearings
  /// of the grid's x and y axes at each point are measured here from ecCodes' coordinates
  /// of its neighbours (the mean of the great-circle bearings to the next point and from
  /// the previous one), with no projection formula.
  @Test(arguments: gridRelative.indices)
  func gridRelativeWindsAreTurnedToTheEarth(_ index: Int) throws {
    let (name, grid) = Self.gridRelative[index]
    let relative = grid.withGridRelativeWinds()
    let directory = SampleFiles.temporaryDirectory("grib-winds")
    defer { SampleFiles.remove(directory) }
    let (latitudes, longitudes) = try GRIBWriter.coordinates(of: grid)
    let points = latitudes.count
    let path = "\(directory)/winds.grib2"
    try GRIBWriter.write(
      [
        try GRIBWriter.message(
          .temperature(
            reference: Self.reference, hours: 0, values: Array(repeating: 280, count: points)),
          on: relative),
        try GRIBWriter.message(
          .wind(
            "u", reference: Self.reference, hours: 0, values: Array(repeating: 30, count: points)),
          on: relative),
        try GRIBWriter.message(
          .wind(
            "v", reference: Self.reference, hours: 0, values: Array(repeating: 40, count: points)),
          on: relative),
      ], to: path)
    let cube = try Cube(
      path: try #require(
        try Ingestor.run([path], options: .init(store: "\(directory)/store")).published.first
      ).path)
    let (speed, direction) = (try cube.metric("wind_vel"), try cube.metric("wind_dir"))
    func bearing(_ a: Int, _ b: Int) -> Double {
      let (p1, p2) = (latitudes[a] * .pi / 180, latitudes[b] * .pi / 180)
      let dl = (longitudes[b] - longitudes[a]) * .pi / 180
      return atan2(sin(dl) * cos(p2), cos(p1) * sin(p2) - sin(p1) * cos(p2) * cos(dl)) * 180 / .pi
    }
    // u and v are stored to 0.1 m/s, so the speed is known to 0.1/√2 and the direction to
    // the angle that subtends at 50 m/s (0.08°); the bearings measured from neighbours
    // 60–100 km apart are good to a few hundredths of a degree.
    let speedTolerance = (Metric.windU.step ?? 0.1) / 2.squareRoot() + 1e-3
    let directionTolerance = asin(speedTolerance / 50) * 180 / .pi + 0.05
    var wrong: [String] = []
    for j in stride(from: 1, to: grid.height - 1, by: 3) {
      for i in stride(from: 1, to: grid.width - 1, by: 3) {
        let k = j * grid.width + i
        // The bearings of the grid's x and y axes here, each the mean of the bearing to the
        // next point and the reversed bearing to the previous one.
        func axis(_ step: Int) -> Double {
          let forward = bearing(k, k + step)
          var backward = bearing(k, k - step) + 180
          backward -= 360 * ((backward - forward) / 360).rounded()
          return (forward + backward) / 2 * .pi / 180
        }
        let (x, y) = (axis(1), axis(grid.width))
        // 30 along x and 40 along y, in east and north components; it comes from the opposite side.
        let (east, north) = (30 * sin(x) + 40 * sin(y), 30 * cos(x) + 40 * cos(y))
        var expected = (atan2(east, north) * 180 / .pi + 180).truncatingRemainder(dividingBy: 360)
        if expected < 0 { expected += 360 }
        let location = try cube.locate(
          latitude: latitudes[k], longitude: longitudes[k], method: .nearest)
        let time = Self.reference
        let (readSpeed, readDirection) = (
          try #require(try cube.value(speed, at: location, time: time)),
          try #require(try cube.value(direction, at: location, time: time))
        )
        let turn = abs(readDirection - expected)
        if abs(readSpeed - 50) > speedTolerance || min(turn, 360 - turn) > directionTolerance {
          wrong.append(
            "(\(i), \(j)): \(readSpeed) m/s from \(readDirection)°, expected 50 from \(expected)°")
        }
      }
    }
    #expect(wrong.isEmpty, "\(name): \(wrong.count) wrong: \(wrong.prefix(4))")
  }
}
