import Forecast
import Foundation
import Meteorology
import PointQuery
import Store
import Testing
import _TestSupport

/// A run with a fixed outer domain and a nest that moves: a forecast at a point the nest
/// comes to and leaves answers each hour from the nest where its grid holds the point then,
/// from the outer domain elsewhere, and its provenance says which domain answered each hour.
@Suite struct MovingNestForecastTests {
  static func makeStore(_ directory: String) throws -> (outer: MovingGridSpec, nest: MovingGridSpec) {
    try MovingGridSpec.nestedRun(into: directory)
  }

  @Test func eachHourComesFromTheNestWhereItHoldsThePointAndFromTheOuterDomainElsewhere() throws {
    let directory = SampleFiles.temporaryDirectory("moving-forecast")
    defer { SampleFiles.remove(directory) }
    let (outer, nest) = try Self.makeStore(directory)
    let forecaster = Forecaster(catalog: try ForecastStore(path: directory).catalog)
    let first = nest.firstTime
    // Every step and every half hour between them.
    let instants = (0..<15).map { first + Int64($0) * 1800 }
    let grids = [outer, nest].map { spec in
      spec.shifts.indices.map { position in
        let (latitudes, longitudes) = spec.coordinates(position: position)
        return BruteForce.Grid(latitudes: latitudes, longitudes: longitudes)
      }
    }
    var random = TestRandom(seed: 2028)
    var (crossing, points) = (0, 0)
    while points < 150 {
      let (latitude, longitude) = (random.uniform(37.8...40.0), random.uniform(-10.3 ... -7.6))
      let inNest = nest.shifts.indices.map { nest.contains(latitude: latitude, longitude: longitude, position: $0) }
      // The oracle must be able to tell, and the outer domain must hold the point.
      guard !inNest.contains(nil), inNest.contains(true),
        outer.contains(latitude: latitude, longitude: longitude, position: 0) == true
      else { continue }
      points += 1
      let series = try forecaster.hourly(
        ForecastRequest(latitude: latitude, longitude: longitude), metrics: [.temp], instants: instants)
      let temps = try #require(series.values(of: .temp))
      var domains: Set<String> = []
      for index in instants.indices {
        let step = index / 2
        let between = index % 2 == 1
        // The nest answers only where its grid holds the point at the step and an hour
        // before it (the step before, in this hourly run; the first step at the first),
        // and at both steps around a time between two.
        let steps = between ? [step, step + 1] : [step]
        let nestAnswers = steps.allSatisfy { step in
          [step, max(step - 1, 0)].allSatisfy { inNest[nest.stepPositions[$0]] == true }
        }
        let (spec, grid) = nestAnswers ? (nest, grids[1]) : (outer, grids[0])
        func value(_ step: Int) -> Double {
          let position = spec.stepPositions[step]
          let cell = grid[position].nearest(latitude: latitude, longitude: longitude)
          let (latitudes, longitudes) = spec.coordinates(position: position)
          return MovingGridSpec.temperature(
            latitude: Double(latitudes[cell]), longitude: Double(longitudes[cell]), step: step)
        }
        let expected = between ? (value(step) + value(step + 1)) / 2 : value(step)
        let source = try #require(series.sourceOfHour[index])
        let domain = series.provenance[source].domain
        #expect(domain == spec.domain, "\(latitude), \(longitude) at instant \(index)")
        domains.insert(domain)
        let got = try #require(temps[index], "\(latitude), \(longitude) at instant \(index)")
        #expect(abs(got - expected) <= 0.03, "\(latitude), \(longitude) at instant \(index): \(got) vs \(expected)")
      }
      if domains.count == 2 { crossing += 1 }
    }
    #expect(crossing > 30, "\(crossing) of \(points) points saw both domains")
  }

  @Test func anElevationCorrectionUsesTheModelTerrainOfEachStepsPosition() throws {
    let directory = SampleFiles.temporaryDirectory("moving-elevation")
    defer { SampleFiles.remove(directory) }
    // One nest alone, holding the point in both its positions (so that one stretch spans the
    // move), whose terrain is 300 m higher everywhere in the second.
    var nest = MovingGridSpec()
    nest.shifts = [(0, 0), (1, 1)]
    nest.stepPositions = [0, 0, 1, 1]
    nest.heightOffsets = [0, 300]
    _ = try nest.write(into: directory)
    let forecaster = Forecaster(catalog: try ForecastStore(path: directory).catalog)
    let instants = (0..<4).map { nest.firstTime + Int64($0) * 3600 }
    let (latitude, longitude) = (38.6, -9.45)
    let series = try forecaster.hourly(
      ForecastRequest(latitude: latitude, longitude: longitude, elevation: 0), metrics: [.temp], instants: instants)
    let temps = try #require(series.values(of: .temp))
    #expect(Set(series.sourceOfHour) == [0])
    for step in 0..<4 {
      let position = nest.stepPositions[step]
      let (latitudes, longitudes) = nest.coordinates(position: position)
      let cell = BruteForce.nearest(
        latitude: latitude, longitude: longitude, latitudes: latitudes, longitudes: longitudes
      ).index
      let (cellLatitude, cellLongitude) = (Double(latitudes[cell]), Double(longitudes[cell]))
      let height =
        MovingGridSpec.height(latitude: cellLatitude, longitude: cellLongitude) + nest.heightOffsets[position]
      let expected =
        MovingGridSpec.temperature(latitude: cellLatitude, longitude: cellLongitude, step: step)
        + ElevationCorrection.shift(modelHeight: height, target: 0)
      let got = try #require(temps[step], "step \(step)")
      #expect(abs(got - expected) <= 0.03, "step \(step): \(got) vs \(expected)")
    }
  }

  @Test func theCatalogMakesOneSourcePerStretchTheNestHoldsThePoint() throws {
    let directory = SampleFiles.temporaryDirectory("moving-sources")
    defer { SampleFiles.remove(directory) }
    let (_, nest) = try Self.makeStore(directory)
    let store = try ForecastStore(path: directory)
    // 38.6, −9.45 lies in positions 0 and 2 of the nest but not in position 1 (8 cells east).
    #expect(nest.contains(latitude: 38.6, longitude: -9.45, position: 0) == true)
    #expect(nest.contains(latitude: 38.6, longitude: -9.45, position: 1) == false)
    #expect(nest.contains(latitude: 38.6, longitude: -9.45, position: 2) == true)
    let sources = try store.catalog.sources(latitude: 38.6, longitude: -9.45, method: .nearest)
    let spans = sources.sources.map { ($0.cube.header.domain, $0.firstTime, $0.lastTime) }
    let hour: Int64 = 3600
    let first = nest.firstTime
    // Steps 0–1 and 4–5 hold the point; step 4's hour began without it (the move's leading
    // edge, where the nest has no rain), so the nest answers again from step 5.
    #expect(spans.map(\.0) == ["d02", "d02", "d01"])
    #expect(spans.map(\.1) == [first, first + 5 * hour, first])
    #expect(spans.map(\.2) == [first + 1 * hour, first + 5 * hour, first + 7 * hour])
    // The points each stretch names are the cells of its own first step.
    let second = sources.sources[1]
    let expected = second.cube.location(second.location, atStep: 5)
    #expect(second.location == expected)
    // A time the nest does not hold the point at, or did not an hour before, falls to d01.
    #expect(sources.source(at: first + 2 * hour)?.cube.header.domain == "d01")
    #expect(sources.source(at: first + 4 * hour)?.cube.header.domain == "d01")
    #expect(sources.source(at: first + 5 * hour)?.cube.header.domain == "d02")
    // Between steps 1 and 2 the nest moves away: the outer domain answers.
    #expect(sources.source(at: first + hour + 1800)?.cube.header.domain == "d01")
  }

  @Test func aQuestionOpensTheOuterDomainWhereTheNestLeavesThePoint() throws {
    let directory = SampleFiles.temporaryDirectory("moving-question")
    defer { SampleFiles.remove(directory) }
    let (_, nest) = try Self.makeStore(directory)
    // The whole run: the nest leaves the point at step 2, so d01 is needed.
    let question = PointQuestion(
      latitude: 38.6, longitude: -9.45, method: .nearest, times: nest.firstTime...(nest.firstTime + 7 * 3600),
      probability: false)
    let chosen = try ForecastStore(path: directory, answering: question)
    #expect(Set(chosen.cubes.map(\.header.domain)) == ["d01", "d02"])
    // The first two hours only: the nest holds the point throughout, d01 is not opened.
    let early = PointQuestion(
      latitude: 38.6, longitude: -9.45, method: .nearest, times: nest.firstTime...(nest.firstTime + 3600),
      probability: false)
    #expect(try ForecastStore(path: directory, answering: early).cubes.map(\.header.domain) == ["d02"])
  }
}
