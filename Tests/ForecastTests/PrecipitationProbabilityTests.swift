import Forecast
import Foundation
import Meteorology
import PointQuery
import Store
import Testing
import UTCTime
import _TestSupport

/// `precipitation_probability`, the neighbourhood, time-lagged ensemble, against a brute
/// force that shares nothing with it but the stored rain: every cell of every member is
/// tested with a great-circle distance computed here, every member's share counted here.
@Suite struct PrecipitationProbabilityTests {
  /// The documented definition, restated: 25 km, 0.1 mm as stored, four runs at most.
  static let radius = 25_000.0
  static let earthRadius = 6_371_008.8

  /// Publishes a run of 30 × 24 cells 9 km apart (so that a neighbourhood holds about 25
  /// cells), hourly for `hours` hours from `start`, with run `run`'s crafted rain.
  @discardableResult
  static func publish(run: Int, start: String, hours: Int, into store: String) throws -> String {
    var spec = TestStores.spec(start: start, hours: hours, seed: UInt64(40 + run))
    (spec.westEast, spec.southNorth, spec.dx) = (30, 24, 9_000)
    let first = try hour(of: start)
    return try TestStores.publish(spec, into: store) { step, i, j in
      rain(run: run, hour: first + Int64(step), i: i, j: j)
    }
  }

  /// The crafted amount (mm) in the hour `hour` (hours since 1970) at cell (i, j) of run
  /// `run`: every run dry everywhere at hours ≡ 1 (mod 6) and wet everywhere at hours ≡ 2,
  /// so that 0 % and 100 % occur in every member at once; otherwise wet and dry areas that
  /// differ between runs, with a speckle of amounts around the 0.1 mm threshold.
  static func rain(run: Int, hour: Int64, i: Int, j: Int) -> Double {
    switch hour % 6 {
    case 1: return 0
    case 2: return 1.5
    default:
      let wave = sin(Double(i) * 0.45 + Double(hour) * 0.3 + Double(run)) + cos(Double(j) * 0.35 - Double(hour) * 0.2)
      if wave > 0.9 { return 2 }
      if wave < -0.6 { return 0 }
      var random = TestRandom(seed: UInt64(run) << 40 ^ UInt64(hour) << 16 ^ UInt64(j * 64 + i))
      let amounts = [0, 0.05, 0.09, 0.094, 0.095, 0.096, 0.1, 0.104, 0.3]
      return amounts[Int(random.next() % UInt64(amounts.count))]
    }
  }

  /// Three runs six hours apart, 18 hours each: one, two or three of them cover an hour.
  static func threeRunStore() throws -> String {
    let store = SampleFiles.temporaryDirectory("probability")
    for (run, start) in ["2026-06-20_00:00:00", "2026-06-20_06:00:00", "2026-06-20_12:00:00"].enumerated() {
      try publish(run: run, start: start, hours: 18, into: store)
    }
    return store
  }

  /// Hours since 1970 of a WRF start time.
  static func hour(of start: String) throws -> Int64 {
    try #require(UTC.parseISO8601(start.replacingOccurrences(of: "_", with: "T") + "Z")) / 3600
  }

  static func distance(_ a: (Float, Float), _ b: (Float, Float)) -> Double {
    let (phi1, phi2) = (Double(a.0) * .pi / 180, Double(b.0) * .pi / 180)
    let dLambda = (Double(b.1) - Double(a.1)) * .pi / 180
    let s = sin((phi2 - phi1) / 2)
    let t = sin(dLambda / 2)
    return 2 * earthRadius * asin(min(1, (s * s + cos(phi1) * cos(phi2) * t * t).squareRoot()))
  }

  /// One member cube read cell by cell: its rain words and each cell's neighbours, found
  /// by testing every cell.
  final class Member {
    let cube: Cube
    let rainSlot: Int
    private var neighbours: [Int: [Int]] = [:]

    init(_ cube: Cube) throws {
      self.cube = cube
      rainSlot = try #require(cube.file.header.metrics.firstIndex { $0.name == "rain" })
    }

    func neighbourhood(of cell: Int) -> [Int] {
      if let known = neighbours[cell] { return known }
      let (latitudes, longitudes) = (cube.file.latitudes, cube.file.longitudes)
      let centre = (latitudes[cell], longitudes[cell])
      let found = latitudes.indices.filter {
        PrecipitationProbabilityTests.distance(centre, (latitudes[$0], longitudes[$0]))
          <= PrecipitationProbabilityTests.radius
      }
      neighbours[cell] = found
      return found
    }

    /// The stored rain at a cell and step, nil where missing.
    func rain(cell: Int, step: Int) -> Double? {
      cube.file.header.metrics[rainSlot].decode(cube.file.word(metric: rainSlot, cell: cell, step: step))
    }

    /// The share (%) of the cell's neighbourhood with ≥ 0.1 mm at the step, as stored (to
    /// 0.01 %); nil where the cell's own rain is missing.
    func share(cell: Int, step: Int) -> Double? {
      guard rain(cell: cell, step: step) != nil else { return nil }
      var (wet, known) = (0, 0)
      for other in neighbourhood(of: cell) {
        guard let amount = rain(cell: other, step: step) else { continue }
        known += 1
        // Stored amounts are multiples of the cube's rain step (0.1 mm by default).
        if amount >= 0.1 - 1e-9 { wet += 1 }
      }
      // Stored at the cube's own precision for the share.
      let step = cube.header.metrics.first { $0.name == "precip_neighbourhood" }?.scale ?? 1
      return (100 * Double(wet) / Double(known) / step).rounded() * step
    }
  }

  /// The acceptance: at 1,000 random points and hours, with 0 % and 100 % among the
  /// answers and points by the domain's edge, the library's and the forecaster's
  /// probability equal the brute force, and their provenance names its members.
  @Test func theProbabilityIsTheMeanOfEveryMembersBruteForceShare() throws {
    let store = try Self.threeRunStore()
    defer { SampleFiles.remove(store) }
    let forecastStore = try ForecastStore(path: store)
    let catalog = forecastStore.catalog
    #expect(catalog.cubes.count == 3)
    let members = try catalog.cubes.sorted { $0.header.runStart > $1.header.runStart }.map(Member.init)
    let forecaster = Forecaster(catalog: forecastStore.catalog)
    let (width, height) = (30, 24)
    let (latitudes, longitudes) = (members[0].cube.file.latitudes, members[0].cube.file.longitudes)
    let first = try #require(members.map(\.cube.firstTime).min())
    let last = try #require(members.map(\.cube.lastTime).max())
    var random = TestRandom(seed: 0x9E0B_2026)
    var (zero, hundred, between, edge, memberCounts) = (0, 0, 0, 0, [Int](repeating: 0, count: 4))
    for query in 0..<1_000 {
      // Every tenth point lies within a cell of the domain's edge.
      let nearEdge = query % 10 == 0
      let x = nearEdge ? random.uniform(0...0.5) : random.uniform(0...Double(width - 1))
      let y = nearEdge ? random.uniform(0...Double(height - 1)) : random.uniform(0...Double(height - 1))
      let point = GridSampling.point(
        x: x, y: y, width: width, height: height, latitudes: latitudes, longitudes: longitudes)
      let time = first + Int64(random.next() % UInt64((last - first) / 3600 + 1)) * 3600

      // Brute force: the runs covering the hour, newest first, each at its own nearest cell;
      // a run does not vote for the hour ending at its own start, before its forecast.
      var (sum, runs) = (0.0, [String]())
      for member in members
      where time >= member.cube.firstTime && time <= member.cube.lastTime
        && (time != member.cube.firstTime || member.cube.header.runStart != time)
      {
        let cell = BruteForce.nearest(
          latitude: point.latitude, longitude: point.longitude, latitudes: member.cube.file.latitudes,
          longitudes: member.cube.file.longitudes
        ).index
        let step = Int((time - member.cube.firstTime) / 3600)
        guard let share = member.share(cell: cell, step: step) else { continue }
        sum += share
        runs.append(member.cube.run)
      }
      let expected = runs.isEmpty ? nil : sum / Double(runs.count)

      let sources = try catalog.sources(latitude: point.latitude, longitude: point.longitude, method: .nearest)
      let probability = try #require(sources.precipitationProbability(at: time))
      let label = "point \(point) at \(UTC.iso8601(time))"
      #expect(probability.members.map { sources.sources[$0].cube.run } == runs, "\(label)")
      if let expected, let value = probability.value {
        #expect(abs(value - expected) <= 1e-9, "\(label): \(value) ≠ \(expected)")
      } else {
        #expect(probability.value == nil && expected == nil, "\(label)")
      }

      let request = ForecastRequest(latitude: point.latitude, longitude: point.longitude)
      let hourly = try forecaster.hourly(request, metrics: [.temp, .precipitationProbability], instants: [time])
      let forecast = hourly.values[1][0]
      #expect(forecast == probability.value, "\(label): the forecaster's \(String(describing: forecast))")
      #expect(hourly.probabilityMembers[0].map { hourly.provenance[$0].run } == runs, "\(label)")
      // The answering run is the newest covering the hour, a member unless the hour ends at
      // its start.
      let answering = members.first { time >= $0.cube.firstTime && time <= $0.cube.lastTime }?.cube.run
      #expect(hourly.sourceOfHour[0].map { hourly.provenance[$0].run } == answering, "\(label)")

      memberCounts[runs.count] += 1
      if nearEdge { edge += 1 }
      switch expected {
      case 0?: zero += 1
      case 100?: hundred += 1
      case .some: between += 1
      case nil: break
      }
    }
    // The sample covered what it had to: both edges, values between, one to three members.
    #expect(zero > 0 && hundred > 0 && between > 300, "0 %: \(zero), 100 %: \(hundred), between: \(between)")
    #expect(memberCounts[1] > 0 && memberCounts[2] > 0 && memberCounts[3] > 0, "\(memberCounts)")
    #expect(edge == 100)
  }

  /// With one run in the store the probability is that run's neighbourhood share, read
  /// straight from its cube, and its provenance names that one run.
  @Test func oneRunGivesItsOwnNeighbourhoodShare() throws {
    // The reader recognises the ensemble metric by identity: it must be the only one.
    #expect(Metric.queryable.filter { $0.origin == .timeLaggedMembers } == [.precipitationProbability])
    let store = SampleFiles.temporaryDirectory("probability-one")
    defer { SampleFiles.remove(store) }
    let path = try Self.publish(run: 0, start: "2026-06-20_00:00:00", hours: 12, into: store)
    let cube = try Cube(path: path)
    let forecaster = Forecaster(catalog: try ForecastStore(path: store).catalog)
    let (latitude, longitude) = (39.5, -8.0)
    let location = try cube.locate(latitude: latitude, longitude: longitude, method: .nearest)
    let instants = (0..<cube.header.stepCount).map { cube.time(ofStep: $0) }
    let request = ForecastRequest(latitude: latitude, longitude: longitude)
    let hourly = try forecaster.hourly(request, metrics: [.precipitationProbability], instants: instants)
    #expect(hourly.provenance.count == 1 && hourly.provenance[0].run == cube.run)
    var seen: Set<Double> = []
    // The hour ending at the run's start is before its forecast: no member, no value.
    #expect(hourly.values[0][0] == nil && hourly.probabilityMembers[0] == [])
    for (index, instant) in instants.enumerated().dropFirst() {
      let share = try cube.value(cube.metric(.precipitationNeighbourhood), at: location, time: instant)
      #expect(hourly.values[0][index] == share, "\(UTC.iso8601(instant))")
      #expect(hourly.probabilityMembers[index] == [0])
      if let share { seen.insert(share) }
    }
    #expect(seen.contains(0) && seen.contains(100) && seen.count > 3, "\(seen)")
    let now = try forecaster.current(request, metrics: [.precipitationProbability], at: instants[3])
    #expect(now.probabilityMembers.map(\.run) == [cube.run])
    #expect(now.value(of: .precipitationProbability) == hourly.values[0][3])
  }

  /// A daily maximum of the probability summarises the ensemble's hours, never one run's
  /// stored words.
  @Test func theDailyMaximumIsTheMaximumOfTheEnsemblesHours() throws {
    let store = try Self.threeRunStore()
    defer { SampleFiles.remove(store) }
    let forecaster = Forecaster(catalog: try ForecastStore(path: store).catalog)
    let request = ForecastRequest(latitude: 39.6, longitude: -8.1)
    let date = try LocalDate(parsing: "2026-06-20")
    let day = try forecaster.day(request, metrics: [.precipitationProbability], date: date)
    let summary = try #require(
      try forecaster.daily(request, metrics: [.precipitationProbability], from: date, days: 1).first)
    let hours = day.values[0].compactMap { $0 }
    // 00:00 ends the hour before the oldest run's start: no run forecast it.
    #expect(hours.count == 23 && day.values[0][0] == nil)
    #expect(summary.statistics(of: .precipitationProbability)?.maximum == hours.max())
    #expect(summary.statistics(of: .precipitationProbability)?.minimum == hours.min())

    // The next day's covered hours (00:00 to 06:00) are answered by the newest run alone,
    // but the probability at midnight also averages the run that ends then: the day's
    // sources name it.
    let next = try forecaster.daily(
      request, metrics: [.precipitationProbability], from: try LocalDate(parsing: "2026-06-21"), days: 1)
    #expect(next.first?.provenance.map(\.run) == ["2026062012", "2026062006"])
    let temperature = try forecaster.daily(
      request, metrics: [.temp], from: try LocalDate(parsing: "2026-06-21"), days: 1)
    #expect(temperature.first?.provenance.map(\.run) == ["2026062012"])
  }
}
