import ArgumentParser
import FaceKit
import Forecast
import GridGeometry
import Platform
import PointQuery
import SampleRun
import Store
import UTCTime

struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Time random in-domain lookups against a store's finest cube.",
    discussion: """
      Kinds: nearest (one value, nearest cell, random metric and time), bilinear (the same, \
      bilinear), series24h (24 hours of the seven legacy metrics at one point), locate \
      (latitude/longitude to the nearest cell, through Cube.locate with the locator the cube uses), \
      locate_analytic and locate_generic (the same through the analytic projection locator and \
      through the generic curvilinear locator, called directly on the cube's grid; a kind the \
      grid cannot have is left out with a note on standard error), read (one value at an \
      already located point) and daily7 (a 7-day daily summary of the seven legacy metrics at \
      one point, as the legacy MedianPrevByDays shows it, through the forecast API and the live store, runs stitched hour by hour from the \
      newest run's first day), and places (search by name and nearest place on a gazetteer of at \
      least \(BenchCommand.placesTarget) places, only when asked for and without a store: see \
      its output), and tiles (map tiles at zooms 7–10 over the newest run's domain, planned, \
      rendered and PNG-encoded one at a time, timed each; only when asked for; see --tiles). \
      Points, times and metrics are drawn before timing. Lookups are \
      timed in batches of \(BenchCommand.batch) with a monotonic clock, so the clock's own cost is \
      spread over the batch; p50, p99 and max are of the per-lookup time within each batch. \
      Build with -c release for meaningful figures.
      """
  )

  static let batch = 16

  @Option(help: "The store directory (not needed when --kinds is places alone).")
  var store: String?

  @Option(
    help: ArgumentHelp(
      "The gazetteer the places kind grows from (default: \(PlacesCommand.bundled) in the current directory).",
      valueName: "file"))
  var places: String?

  @Option(help: "Lookups per kind.")
  var queries: Int = 200_000

  @Option(help: "Tiles timed per zoom by the tiles kind.")
  var tiles: Int = 400

  @Option(help: "Seed of the random points.")
  var seed: UInt64 = 42

  @Flag(help: "Print one JSON object keyed by kind instead of a table.")
  var json = false

  @Option(
    help:
      "Run only these kinds (comma-separated): nearest, bilinear, series24h, locate, locate_analytic, locate_generic, read, daily7, places, tiles."
  )
  var kinds: String?

  @Option(help: "Metrics the single-value kinds draw from (comma-separated; default: all the cube has).")
  var metrics: String?

  func validate() throws {
    guard queries >= Self.batch, queries <= 100_000_000 else {
      throw ValidationError("--queries \(queries) must be in \(Self.batch)…100000000")
    }
    guard tiles >= 1, tiles <= 1_000_000 else {
      throw ValidationError("--tiles \(tiles) must be in 1…1000000")
    }
    if json, let kinds, kinds.split(separator: ",").contains("places"), kinds != "places" {
      throw ValidationError("--kinds: with --json, places runs alone (it prints an object of its own)")
    }
  }

  func run() throws {
    let selected = Set(
      (kinds ?? "nearest,bilinear,series24h,locate,locate_analytic,locate_generic,read,daily7").split(separator: ",")
        .map(String.init))
    if selected.contains("places") { try benchPlaces() }
    guard !selected.subtracting(["places"]).isEmpty else { return }
    guard let store else { throw ValidationError("--store is required for every kind but places") }
    let forecastStore = try ForecastStore(path: store)
    // Lookups as a server makes them once its refresh has made the locators' tables and
    // its background verifier has verified every block: first-touch verification is a
    // one-off cost per 64 KiB block, not a lookup's.
    for cube in forecastStore.cubes { cube.prepareLocators() }
    verification: while true {
      switch forecastStore.verifyNext(limit: 1 << 30) {
      case .verified: continue
      case .idle: break verification
      case .failed(let path, let problem): throw ValidationError("\(path): \(problem)")
      }
    }
    // The finest grid of the newest run.
    let cube = forecastStore.cubes[0]
    var random = SplitMix64(seed: seed)
    let points = (0..<queries).map { _ in randomPoint(in: cube, &random) }
    let times = (0..<queries).map { _ in
      cube.header.firstTime + Int64(random.next() % UInt64(cube.lastTime - cube.header.firstTime + 1))
    }
    let metrics =
      try metrics?.split(separator: ",").map { name throws(QueryError) in try cube.metric(String(name)) }
      ?? cube.availableMetrics
    let legacy = try ["temp", "hum", "rain", "cloud", "wind_vel", "wind_dir", "atm_press"].map {
      name throws(QueryError) in try cube.metric(name)
    }
    // Drawn up front so that the timed loop does no arithmetic of its own (a modulo is a
    // 64-bit division, tens of nanoseconds on some x86 cores).
    let drawn = (0..<queries).map { _ in metrics[Int(random.next() % UInt64(metrics.count))] }
    let daySteps = min(Int(86_400 / cube.header.stepSeconds), cube.header.stepCount)
    let starts = (0..<queries).map { _ in Int(random.next() % UInt64(cube.header.stepCount - daySteps + 1)) }
    var buffer = [Double](repeating: 0, count: daySteps)
    var sink = 0.0

    var results: [(String, Timing)] = []
    func record(_ kind: String, _ body: (Int) throws -> Void) rethrows {
      if selected.contains(kind) { results.append((kind, try measure(body))) }
    }
    try record("nearest") { q in
      sink +=
        try cube.value(drawn[q], latitude: points[q].0, longitude: points[q].1, time: times[q], method: .nearest) ?? 0
    }
    try record("bilinear") { q in
      sink +=
        try cube.value(drawn[q], latitude: points[q].0, longitude: points[q].1, time: times[q], method: .bilinear) ?? 0
    }
    try record("series24h") { q in
      let location = try cube.locate(latitude: points[q].0, longitude: points[q].1, method: .nearest)
      let steps = starts[q]..<(starts[q] + daySteps)
      try buffer.withUnsafeMutableBufferPointer { output in
        for metric in legacy {
          try cube.series(metric, at: location, steps: steps, into: output)
          sink += output[0]
        }
      }
    }
    let located = try points.map { point throws(QueryError) in
      try cube.locate(latitude: point.0, longitude: point.1, method: .nearest)
    }
    try record("read") { q in
      sink += try cube.value(drawn[q], at: located[q], time: times[q]) ?? 0
    }
    try record("locate") { q in
      sink += Double(try cube.locate(latitude: points[q].0, longitude: points[q].1, method: .nearest).i)
    }
    if selected.contains("locate_analytic"), let analytic = analyticLocator(cube) {
      record("locate_analytic") { q in
        sink += Double(analytic.nearestCell(latitude: points[q].0, longitude: points[q].1)?.i ?? 0)
      }
    }
    if selected.contains("locate_generic"), let generic = genericLocator(cube) {
      record("locate_generic") { q in
        sink += Double(generic.nearestCell(latitude: points[q].0, longitude: points[q].1)?.i ?? 0)
      }
    }
    let forecaster = Forecaster(catalog: forecastStore.catalog)
    // What the legacy app's MedianPrevByDays shows for each day.
    let summary = try DailyVariable.parse(
      list: "temp_max,temp_min,temp_median,hum_median,rain_sum,cloud_median,wind_vel_median,wind_dir_dominant,"
        + "atm_press_median")
    let firstDay = LocalTimeZone.utc.date(containing: cube.header.firstTime)
    try record("daily7") { q in
      let request = ForecastRequest(latitude: points[q].0, longitude: points[q].1)
      let days = try forecaster.daily(request, variables: summary, from: firstDay, days: 7)
      sink += days[6].statistics(of: .temp)?.median ?? 0
    }
    if sink == 1.2345e300 { print(sink) }  // keeps the optimiser from dropping the work
    let tileTimings =
      selected.contains("tiles") ? try benchTiles(forecastStore, cube: cube, count: tiles, random: &random) : []
    let encodings =
      selected.contains("tiles") ? try benchEncodings(forecastStore, cube: cube, count: 100, random: &random) : []

    if json {
      print(
        JSONText.object(
          results.map { name, timing in
            (
              name,
              JSONText.object([
                ("p50_ns", JSONText.number(timing.p50, decimals: 1)),
                ("p90_ns", JSONText.number(timing.p90, decimals: 1)),
                ("p99_ns", JSONText.number(timing.p99, decimals: 1)),
                ("max_ns", JSONText.number(timing.max, decimals: 1)),
                ("per_second", JSONText.number(timing.perSecond, decimals: 0)),
              ])
            )
          } + tilesJSON(tileTimings)))
    } else {
      let h = cube.header
      if !results.isEmpty {
        print(
          "\(queries) random in-domain lookups per kind on \(h.model)/\(h.domain) run \(cube.run) (\(h.width)×\(h.height) cells, \(h.stepCount) steps), timed in batches of \(Self.batch)"
        )
        print("kind        p50 ns     p99 ns     max ns     lookups/s")
      }
      for (name, timing) in results {
        print(
          "\(name.padded(11)) \(format(timing.p50)) \(format(timing.p99)) \(format(timing.max)) \(String(Int(timing.perSecond)))"
        )
      }
      if !tileTimings.isEmpty { printTiles(tileTimings, encodings: encodings, cube: cube) }
    }
  }

  /// The cube's analytic locator, or nil with a note on standard error saying why it has none.
  private func analyticLocator(_ cube: Cube) -> AnalyticLocator? {
    switch cube.locator.kind {
    case .analytic: return cube.locator.analytic
    case .regular:
      printError("note: locate_analytic left out: the grid is a regular latitude/longitude lattice")
    case .curvilinear:
      let code = Int(cube.header.projection.code)
      do {
        let grid = cube.locator.grid
        let projection = try MapProjection(wrfCode: code, parameters: cube.header.projection.parameters, grid: grid)
        return try AnalyticLocator(grid: grid, projection: projection)
      } catch {
        printError("note: locate_analytic left out: \(error.description)")
      }
    }
    return nil
  }

  /// A generic curvilinear locator on the cube's grid, or nil with a note saying why.
  private func genericLocator(_ cube: Cube) -> CellLocator? {
    do {
      return try CellLocator(grid: cube.locator.grid)
    } catch {
      printError("note: locate_generic left out: \(error.description)")
      return nil
    }
  }

  private func format(_ value: Double) -> String {
    String(format: "%.1f", value).padded(10)
  }

  struct Timing {
    let p50: Double
    let p90: Double
    let p99: Double
    let max: Double
    let perSecond: Double
  }

  /// Runs `body` for every query index, once untimed to warm caches, then timed in batches.
  private func measure(_ body: (Int) throws -> Void) rethrows -> Timing {
    for q in 0..<min(queries, 10_000) { try body(q) }
    var perLookup: [Double] = []
    perLookup.reserveCapacity(queries / Self.batch)
    var total: UInt64 = 0
    var q = 0
    while q + Self.batch <= queries {
      let start = now()
      for k in q..<(q + Self.batch) { try body(k) }
      let elapsed = now() - start
      total += elapsed
      perLookup.append(Double(elapsed) / Double(Self.batch))
      q += Self.batch
    }
    perLookup.sort()
    let count = perLookup.count
    return Timing(
      p50: perLookup[count / 2], p90: perLookup[min(count - 1, count * 9 / 10)],
      p99: perLookup[min(count - 1, count * 99 / 100)], max: perLookup[count - 1],
      perSecond: Double(count * Self.batch) / (Double(total) / 1e9))
  }

  func now() -> UInt64 { Posix.monotonicNanoseconds }

  /// A uniformly random fractional grid position, turned into latitude/longitude by
  /// bilinear interpolation of the four surrounding cells' unit vectors: always in the
  /// domain, and right across the dateline and near the poles, where interpolating degrees
  /// is not.
  private func randomPoint(in cube: Cube, _ random: inout SplitMix64) -> (Double, Double) {
    let grid = cube.locator.grid
    let x = random.unit() * Double(grid.width - 1)
    let y = random.unit() * Double(grid.height - 1)
    let i = min(Int(x), grid.width - 2)
    let j = min(Int(y), grid.height - 2)
    let fx = x - Double(i)
    let fy = y - Double(j)
    var (px, py, pz) = (0.0, 0.0, 0.0)
    for (cell, weight) in [
      (j * grid.width + i, (1 - fx) * (1 - fy)), (j * grid.width + i + 1, fx * (1 - fy)),
      ((j + 1) * grid.width + i, (1 - fx) * fy), ((j + 1) * grid.width + i + 1, fx * fy),
    ] {
      let corner = UnitVector(latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell]))
      px += weight * corner.x
      py += weight * corner.y
      pz += weight * corner.z
    }
    return (UnitVector(x: px, y: py, z: pz).latitude, UnitVector(x: px, y: py, z: pz).longitude)
  }
}
