import Foundation
import Ingest
import PointQuery
import Store
import Testing
import _TestSupport

/// The sample run with a moving nest, end to end: `sample-run --nest moving`, ingest, then
/// answers at random points and times compared with a brute force computed from the
/// wrfout files themselves: each step's own XLAT/XLONG, the great-circle nearest mass
/// point, d02 where its grid holds the point at that step and an hour before and d01
/// elsewhere (on the nest's leading edge, where the place was not in the nest an hour
/// earlier, the nest has no rain), temperature from T2, and the hour's rain as the
/// accumulation at that place minus the accumulation at the same place an hour earlier.
@Suite(.serialized) struct MovingNestAcceptanceTests {
  /// One domain's output, step by step, as read from its wrfout files.
  struct Domain {
    let width: Int
    let height: Int
    /// Per step: the grid (for the brute force), its coordinates, T2 (K) and the total
    /// accumulated rain (mm).
    var grids: [BruteForce.Grid] = []
    var temperatures: [[Double]] = []
    var accumulations: [[Double]] = []
    /// DX, metres.
    let spacing: Double

    init(files: [String]) throws {
      let shape = try NCFileProbe.shape(files[0], "XLAT")
      (height, width) = (shape[shape.count - 2], shape[shape.count - 1])
      spacing = try #require(try NCFileProbe.globalNumber(files[0], "DX"))
      for file in files {
        let latitudes = try NCFileProbe.values(file, "XLAT").map(Float.init)
        let longitudes = try NCFileProbe.values(file, "XLONG").map(Float.init)
        grids.append(BruteForce.Grid(latitudes: latitudes, longitudes: longitudes))
        temperatures.append(try NCFileProbe.values(file, "T2"))
        let parts = try ["RAINC", "RAINNC", "RAINSH"].map { try NCFileProbe.values(file, $0) }
        accumulations.append((0..<(width * height)).map { cell in parts.reduce(0) { $0 + $1[cell] } })
      }
    }

    /// Whether step `step`'s grid holds the point: true when its nearest mass point is not
    /// on the grid's edge, false when it is an edge point more than 0.75 cell away (a point
    /// inside the half-cell band is at most 0.71 cell from one), nil in between.
    func holds(latitude: Double, longitude: Double, step: Int) -> Bool? {
      let cell = grids[step].nearest(latitude: latitude, longitude: longitude)
      let (i, j) = (cell % width, cell / width)
      if i > 0, j > 0, i < width - 1, j < height - 1 { return true }
      let distance = BruteForce.distance(
        latitude: latitude, longitude: longitude, cellLatitude: grids[step].latitudes[cell],
        cellLongitude: grids[step].longitudes[cell])
      return distance > 0.75 * spacing ? false : nil
    }

    /// The temperature, °C, at the nearest mass point of step `step`.
    func temperature(latitude: Double, longitude: Double, step: Int) -> Double {
      temperatures[step][grids[step].nearest(latitude: latitude, longitude: longitude)] - 273.15
    }

    /// The hour's rain at the nearest mass point of step `step`: its accumulation minus the
    /// accumulation an hour earlier at the cell of the previous step whose coordinates are
    /// the same place; nil when no cell of the previous step is there (the leading edge);
    /// 0 at the first step.
    func rain(latitude: Double, longitude: Double, step: Int) -> Double? {
      let cell = grids[step].nearest(latitude: latitude, longitude: longitude)
      guard step > 0 else { return 0 }
      let (placeLatitude, placeLongitude) = (grids[step].latitudes[cell], grids[step].longitudes[cell])
      let earlier = grids[step - 1].nearest(latitude: Double(placeLatitude), longitude: Double(placeLongitude))
      // The same place: equal coordinates (to float rounding), not merely the nearest cell.
      guard
        BruteForce.distance(
          latitude: Double(placeLatitude), longitude: Double(placeLongitude),
          cellLatitude: grids[step - 1].latitudes[earlier], cellLongitude: grids[step - 1].longitudes[earlier])
          < 1
      else { return nil }
      return max(0, accumulations[step][cell] - accumulations[step - 1][earlier])
    }
  }

  static let hours = 12

  /// `2026-06-20T03:00:00Z` for a Unix time.
  static func iso8601(_ time: Int64) -> String {
    ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(time)))
  }

  @Test(.timeLimit(.minutes(10)))
  func answersAtRandomPointsAndTimesEqualABruteForceOverEachStepsGrid() throws {
    let directory = SampleFiles.temporaryDirectory("moving-acceptance")
    defer { SampleFiles.remove(directory) }
    let run = "\(directory)/run"
    let written = try CommandLineTool.run(["sample-run", "--out", run, "--hours", "\(Self.hours)", "--nest", "moving"])
    #expect(written.status == 0, "\(written.standardError)")
    let files = try FileManager.default.contentsOfDirectory(atPath: run).sorted().map { "\(run)/\($0)" }
    let outerFiles = files.filter { $0.contains("wrfout_d01_") }
    let nestFiles = files.filter { $0.contains("wrfout_d02_") }
    #expect(outerFiles.count == Self.hours + 1 && nestFiles.count == Self.hours + 1)
    let store = "\(directory)/store"
    let report = try Ingestor.run(files, options: .init(store: store))
    #expect(report.published.count == 2)
    let outer = try Domain(files: outerFiles)
    let nest = try Domain(files: nestFiles)
    let forecastStore = try ForecastStore(path: store)
    let cubes = forecastStore.cubes
    #expect(cubes.map(\.header.domain) == ["d02", "d01"])
    #expect(cubes[0].isMoving && !cubes[1].isMoving)
    let first = cubes[1].firstTime
    // Points over the area the nest visits, and a margin around it.
    let latitudes = nest.grids.flatMap(\.latitudes)
    let longitudes = nest.grids.flatMap(\.longitudes)
    let (south, north) = (Double(latitudes.min() ?? 0) - 0.1, Double(latitudes.max() ?? 0) + 0.1)
    let (west, east) = (Double(longitudes.min() ?? 0) - 0.1, Double(longitudes.max() ?? 0) + 0.1)
    var random = TestRandom(seed: 28)
    var (checked, fromNest, fromOuter, crossing, leadingEdge, arriving) = (0, 0, 0, 0, 0, 0)
    var cliPoints: [(Double, Double, Int64, String, Double)] = []
    // A point the nest reaches or leaves, and the domain of each step there.
    var seriesPoint: (Double, Double, [String])?
    while checked < 1000 {
      let (latitude, longitude) = (random.uniform(south...north), random.uniform(west...east))
      // A time on a step (a third of the draws) or between two.
      let step = Int(random.next() % UInt64(Self.hours))
      let remainder: Int64 = random.next() % 3 == 0 ? 0 : Int64(random.next() % 3599) + 1
      let time = first + Int64(step) * 3600 + remainder
      let steps = remainder == 0 ? [step] : [step, step + 1]
      // The nest answers at a step where its grid holds the point and held it an hour
      // before (the step before; the first step at the first): on a move's leading edge it
      // has no rain, and the parent answers the whole hour.
      let needed = Set(steps.flatMap { [$0, max($0 - 1, 0)] })
      let held = needed.map { nest.holds(latitude: latitude, longitude: longitude, step: $0) }
      guard !held.contains(nil) else { continue }
      checked += 1
      let nestAnswers = held.allSatisfy { $0 == true }
      if !nestAnswers, steps.allSatisfy({ nest.holds(latitude: latitude, longitude: longitude, step: $0) == true }) {
        arriving += 1
      }
      let domain = nestAnswers ? nest : outer
      let (cube, location) = try forecastStore.select(
        latitude: latitude, longitude: longitude, time: time, method: .nearest)
      let place = "\(latitude), \(longitude) at step \(step) + \(remainder) s"
      #expect(cube.header.domain == (nestAnswers ? "d02" : "d01"), "\(place)")
      nestAnswers ? (fromNest += 1) : (fromOuter += 1)
      if Set(
        (0...Self.hours).compactMap { nest.holds(latitude: latitude, longitude: longitude, step: $0) }
      ).count == 2 {
        crossing += 1
      }
      // Temperature: the instant, linear between the two steps' own nearest points.
      let temps = steps.map { domain.temperature(latitude: latitude, longitude: longitude, step: $0) }
      let expected =
        temps.count == 1 ? temps[0] : temps[0] + (temps[1] - temps[0]) * Double(remainder) / 3600
      let temp = try #require(try cube.value(cube.metric("temp"), at: location, time: time), "\(place)")
      #expect(abs(temp - expected) <= 0.03, "\(place): temp \(temp), brute force \(expected)")
      // Rain: the hour ending at the step that ends the interval, de-accumulated by place.
      let rainStep = steps.last ?? step
      let expectedRain = domain.rain(latitude: latitude, longitude: longitude, step: rainStep)
      let rain = try cube.value(cube.metric("rain"), at: location, time: time)
      if let expectedRain {
        let got = try #require(rain, "\(place): rain missing, brute force \(expectedRain)")
        #expect(abs(got - expectedRain) <= 0.051, "\(place): rain \(got), brute force \(expectedRain)")
      } else {
        leadingEdge += 1
        #expect(rain == nil, "\(place): rain \(rain ?? .nan) on the leading edge")
      }
      if cliPoints.count < 6, remainder == 0, nestAnswers == (cliPoints.count % 2 == 0) {
        cliPoints.append((latitude, longitude, time, nestAnswers ? "d02" : "d01", temp))
      }
      let everyStep = (0...Self.hours).map { nest.holds(latitude: latitude, longitude: longitude, step: $0) }
      if seriesPoint == nil, !everyStep.contains(nil), Set(everyStep).count == 2 {
        let answering = everyStep.indices.map { everyStep[$0] == true && everyStep[max($0 - 1, 0)] == true }
        seriesPoint = (latitude, longitude, answering.map { $0 ? "d02" : "d01" })
      }
    }
    // The draw reaches both domains, points the nest reaches or leaves, and the leading edge.
    #expect(fromNest > 200 && fromOuter > 200, "\(fromNest) from d02, \(fromOuter) from d01")
    #expect(crossing > 100, "\(crossing)")
    // Points the nest holds at the steps read but not an hour before (its leading edge) are
    // answered by d01, so no rain the nest lacks is ever asked of it.
    #expect(arriving > 0, "\(arriving)")
    #expect(leadingEdge == 0, "\(leadingEdge) answers from the nest had no rain")
    // The command line answers the same for a handful.
    for (latitude, longitude, time, domain, temp) in cliPoints {
      let outcome = try CommandLineTool.run([
        "query", "--store", store, "--lat", "\(latitude)", "--lon", "\(longitude)", "--time",
        Self.iso8601(time), "--metrics", "temp",
      ])
      #expect(outcome.status == 0, "\(outcome.standardError)")
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
      #expect(object["domain"] as? String == domain)
      let values = try #require(object["values"] as? [String: Any])
      #expect(abs((values["temp"] as? Double ?? .nan) - temp) < 0.006, "\(outcome.standardOutput)")
    }
    // A series there continues from d01 where the nest leaves the point, and says so per step.
    let (latitude, longitude, domains) = try #require(seriesPoint)
    let series = try CommandLineTool.run([
      "series", "--store", store, "--lat", "\(latitude)", "--lon", "\(longitude)", "--from", Self.iso8601(first),
      "--to", Self.iso8601(first + Int64(Self.hours) * 3600), "--metrics", "temp",
    ])
    #expect(series.status == 0, "\(series.standardError)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(series.standardOutput.utf8)) as? [String: Any])
    #expect(object["domains"] as? [String] == domains, "\(series.standardOutput)")
    let temps = try #require((object["values"] as? [String: Any])?["temp"] as? [Any])
    for (step, domain) in domains.enumerated() {
      let expected = (domain == "d02" ? nest : outer).temperature(latitude: latitude, longitude: longitude, step: step)
      #expect(abs((temps[step] as? Double ?? .nan) - expected) < 0.03, "step \(step) from \(domain)")
    }
  }
}
