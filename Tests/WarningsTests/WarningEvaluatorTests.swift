import Forecast
import Meteorology
import PointQuery
import Store
import Testing
import UTCTime
import Warnings
import _TestSupport

/// Warnings over a store whose heavy-rain hours are known, checked against the hours the
/// run was made with and against a brute-force search of the library's own hourly values.
@Suite struct WarningEvaluatorTests {
  static let forecaster: Forecaster? = (try? ForecastStore(path: RainyStore.store)).map {
    Forecaster(catalog: $0.catalog)
  }

  /// The centre of cell (i, j) of the store's cube.
  static func centre(_ i: Int, _ j: Int) throws -> ForecastRequest {
    let cube = try #require(forecaster?.catalog.cubes.first)
    let grid = cube.locator.grid
    return ForecastRequest(
      latitude: Double(grid.latitudes[j * grid.width + i]), longitude: Double(grid.longitudes[j * grid.width + i]))
  }

  static func rules(_ text: String) throws -> WarningRules { try WarningRules(text: text, path: "test") }

  static func rule(
    _ id: String, metric: String, _ comparison: String, _ value: String, duration: Int = 1, validity: Int = 24
  ) -> String {
    """
    [\(id)]
    title = \(id)
    metric = \(metric)
    \(comparison) = \(value)
    duration_hours = \(duration)
    validity_hours = \(validity)
    severity = Moderate
    description = \(id) is forecast.

    """
  }

  /// Hours of the evaluation, as offsets from the current hour's start, that a brute-force
  /// search puts in a warning: hour k is in one when some `duration` consecutive hours
  /// holding it all trigger. Hour k's value is the one stamped at its start for an instant
  /// and at its end for an amount.
  static func warnedHours(
    _ values: [Double?], instant: Bool, hours: Int, duration: Int, triggers: (Double) -> Bool
  ) -> Set<Int> {
    func hourTriggers(_ k: Int) -> Bool { values[instant ? k : k + 1].map(triggers) ?? false }
    var warned = Set<Int>()
    for first in 0...(hours - duration) where (first..<(first + duration)).allSatisfy(hourTriggers) {
      warned.formUnion(first..<(first + duration))
    }
    return warned
  }

  /// The hours the warnings cover, as offsets from `start`.
  static func covered(_ warnings: [Warning], start: Int64) -> Set<Int> {
    Set(
      warnings.flatMap { warning in
        Int((warning.onset - start) / 3_600)..<Int((warning.expires - start) / 3_600)
      })
  }

  @Test func theKnownHeavyRainHoursTriggerExactlyTheirWarnings() throws {
    let forecaster = try #require(Self.forecaster)
    let rules = try Self.rules(Self.rule("heavy-rain", metric: "rain", "above", "10 mm/h"))
    let warnings = try WarningEvaluator(rules: rules).warnings(
      for: try forecaster.point(Self.centre(5, 9)), now: RainyStore.now)
    // The hours ending at steps 6, 12–14 and 20: rain stamped at 06:00 fell from 05:00.
    let hour = { (step: Int) in RainyStore.start + Int64(step) * 3_600 }
    #expect(warnings.map(\.onset) == [hour(5), hour(11), hour(19)])
    #expect(warnings.map(\.expires) == [hour(6), hour(14), hour(20)])
    #expect(warnings.allSatisfy { $0.rule.id == "heavy-rain" && $0.cell.provenance.i == 5 })
    #expect(abs((warnings.first?.peak ?? 0) - 15) < 0.02)
    #expect(abs((warnings.last?.peak ?? 0) - 11) < 0.02)
    // The eastern half had no heavy rain.
    #expect(
      try WarningEvaluator(rules: rules).warnings(
        for: try forecaster.point(Self.centre(18, 9)), now: RainyStore.now
      )
      .isEmpty)
  }

  @Test func aThreeHourRuleTriggersOnlyWhereThreeConsecutiveHoursQualify() throws {
    let forecaster = try #require(Self.forecaster)
    let rules = try Self.rules(Self.rule("rain-3h", metric: "rain", "above", "10", duration: 3))
    let warnings = try WarningEvaluator(rules: rules).warnings(
      for: try forecaster.point(Self.centre(5, 9)), now: RainyStore.now)
    #expect(warnings.map(\.onset) == [RainyStore.start + 11 * 3_600])
    #expect(warnings.map(\.expires) == [RainyStore.start + 14 * 3_600])
  }

  /// Rules on every kind of metric, with thresholds taken from the data so that they
  /// trigger on some hours and not others, against the brute-force search.
  /// What identifies a warning: its rule, its hours, its peak and its cell.
  static func summary(_ warnings: [Warning]) -> [String] {
    warnings.map { "\($0.rule.id) \($0.onset)–\($0.expires) peak \($0.peak) cell \($0.cell.provenance)" }
  }

  /// Warnings evaluated over hours another reader read (local hours of a wider span, with
  /// other metrics and instants beside them) are those the evaluator finds reading its own;
  /// a series that lacks a rule's metric, the horizon's hours or canonical units is refused.
  @Test func warningsOverAnotherReadersHoursAreThoseOfItsOwnReading() throws {
    let forecaster = try #require(Self.forecaster)
    let rules = try Self.rules(
      Self.rule("wet", metric: "rain", "above", "0.5", duration: 2, validity: 24)
        + Self.rule("warm", metric: "temp", "above", "15", validity: 12)
        + Self.rule("gusty", metric: "wind_gusts", "above", "20 km/h", validity: 18))
    let evaluator = WarningEvaluator(rules: rules)
    let start = RainyStore.now - RainyStore.now % 3_600
    // Hours from before the current one to past the horizon, then instants off the hour.
    let instants = (-5...30).map { start + Int64($0) * 3_600 } + [RainyStore.now, start + 900]
    let metrics: [Metric] = [.hum, .windGusts, .rain, .cloud, .temp]
    var total = 0
    for (i, j) in [(5, 9), (18, 9), (0, 0), (23, 17)] {
      let point = try Self.centre(i, j)
      let series = try forecaster.hourly(point, metrics: metrics, instants: instants)
      let own = try evaluator.warnings(for: try forecaster.point(point), now: RainyStore.now)
      let reused = try #require(evaluator.warnings(in: series, now: RainyStore.now, catalog: forecaster.catalog))
      #expect(Self.summary(reused) == Self.summary(own), "at (\(i), \(j))")
      total += own.count
    }
    #expect(total > 0, "some point is warned of, or the comparison shows nothing")
    let point = try Self.centre(5, 9)
    let withoutGusts = try forecaster.hourly(point, metrics: [.rain, .temp], instants: instants)
    #expect(evaluator.warnings(in: withoutGusts, now: RainyStore.now, catalog: forecaster.catalog) == nil)
    let short = try forecaster.hourly(point, metrics: metrics, instants: Array(instants[0..<25]))
    #expect(evaluator.warnings(in: short, now: RainyStore.now, catalog: forecaster.catalog) == nil)
    let offTheHour = try forecaster.hourly(point, metrics: metrics, instants: instants.map { $0 + 1_800 })
    #expect(evaluator.warnings(in: offTheHour, now: RainyStore.now, catalog: forecaster.catalog) == nil)
    var american = point
    american.units = .us
    let converted = try forecaster.hourly(american, metrics: metrics, instants: instants)
    #expect(evaluator.warnings(in: converted, now: RainyStore.now, catalog: forecaster.catalog) == nil)
  }

  @Test(arguments: [("temp", 1), ("temp", 3), ("rain", 2), ("wind_gusts", 1), ("apparent_temp", 3), ("hum", 4)])
  func everyRuleAgreesWithABruteForceSearchOfTheHourlyValues(_ name: String, _ duration: Int) throws {
    let forecaster = try #require(Self.forecaster)
    let metric = try #require(Metric.named(name))
    let start = RainyStore.now - RainyStore.now % 3_600
    let hours = 24
    for (i, j) in [(5, 9), (18, 9), (0, 0), (23, 17)] {
      let point = try Self.centre(i, j)
      let values = try forecaster.hourly(
        point, metrics: [metric], instants: (0...hours).map { start + Int64($0) * 3_600 }
      ).values[0]
      let known = values.compactMap { $0 }.sorted()
      let middle = known[known.count / 2]
      for comparison in ["above", "below"] {
        // Gusts in km/h, the factor written here: 1 m/s is 3.6 km/h.
        let (text, oracle): (String, (Double) -> Bool) =
          name == "wind_gusts"
          ? ("\(middle * 3.6) km/h", { comparison == "above" ? $0 * 3.6 > middle * 3.6 : $0 * 3.6 < middle * 3.6 })
          : ("\(middle)", { comparison == "above" ? $0 > middle : $0 < middle })
        let rules = try Self.rules(
          Self.rule("r", metric: name, comparison, text, duration: duration, validity: hours))
        let warnings = try WarningEvaluator(rules: rules).warnings(
          for: try forecaster.point(point), now: RainyStore.now)
        let expected = Self.warnedHours(
          values, instant: metric.temporal == .instant, hours: hours, duration: duration, triggers: oracle)
        #expect(Self.covered(warnings, start: start) == expected, "\(name) \(comparison) \(middle) at (\(i), \(j))")
        // Runs are maximal: no two warnings touch.
        for (a, b) in zip(warnings, warnings.dropFirst()) { #expect(a.expires < b.onset) }
        #expect(warnings.allSatisfy { $0.hours >= duration })
      }
    }
  }

  @Test func theCellOutlineIsMadeOfTheMidpointsBetweenCellCentres() throws {
    let forecaster = try #require(Self.forecaster)
    let grid = try #require(forecaster.catalog.cubes.first).locator.grid
    let rules = try Self.rules(Self.rule("heavy-rain", metric: "rain", "above", "10"))
    func at(_ i: Int, _ j: Int) -> (Double, Double) {
      (Double(grid.latitudes[j * grid.width + i]), Double(grid.longitudes[j * grid.width + i]))
    }
    for (i, j) in [(5, 9), (0, 0), (11, 17)] {
      let evaluation = try WarningEvaluator(rules: rules).evaluate(
        try forecaster.point(Self.centre(i, j)), now: RainyStore.now)
      let cell = try #require(evaluation.cell)
      #expect(cell.provenance.i == i && cell.provenance.j == j)
      #expect(cell.corners.count == 4)
      // Each corner, written out: the mean of the four centres around it, a centre beyond
      // the edge extrapolated as twice its neighbour inside less the next one in.
      func centre(_ ci: Int, _ cj: Int) -> (Double, Double) {
        if ci < 0 { return combine(centre(0, cj), centre(1, cj)) }
        if cj < 0 { return combine(centre(ci, 0), centre(ci, 1)) }
        if ci >= grid.width { return combine(centre(grid.width - 1, cj), centre(grid.width - 2, cj)) }
        if cj >= grid.height { return combine(centre(ci, grid.height - 1), centre(ci, grid.height - 2)) }
        return at(ci, cj)
      }
      func combine(_ a: (Double, Double), _ b: (Double, Double)) -> (Double, Double) {
        (2 * a.0 - b.0, 2 * a.1 - b.1)
      }
      for (corner, (di, dj)) in zip(cell.corners, [(-1, -1), (1, -1), (1, 1), (-1, 1)]) {
        let around = [centre(i, j), centre(i + di, j), centre(i, j + dj), centre(i + di, j + dj)]
        let latitude = around.map(\.0).reduce(0, +) / 4
        let longitude = around.map(\.1).reduce(0, +) / 4
        #expect(abs(corner.latitude - latitude) < 1e-9 && abs(corner.longitude - longitude) < 1e-9)
      }
      // The centre lies inside its outline.
      let lats = cell.corners.map(\.latitude)
      let lons = cell.corners.map(\.longitude)
      #expect((lats.min() ?? 0) < cell.provenance.latitude && cell.provenance.latitude < (lats.max() ?? 0))
      #expect((lons.min() ?? 0) < cell.provenance.longitude && cell.provenance.longitude < (lons.max() ?? 0))
      let pairs = cell.polygon.split(separator: " ")
      #expect(pairs.count == 5 && pairs.first == pairs.last)
    }
  }

  @Test func theCAPIdentifierIsStableForTheSameRunCellAndWarningsAndChangesWithThem() throws {
    let forecaster = try #require(Self.forecaster)
    let rules = try Self.rules(Self.rule("heavy-rain", metric: "rain", "above", "10"))
    let evaluator = WarningEvaluator(rules: rules)
    let point = try Self.centre(5, 9)
    func identifier(_ request: ForecastRequest, now: Int64, _ evaluator: WarningEvaluator) throws -> String {
      CAPDocument(evaluation: try evaluator.evaluate(try forecaster.point(request), now: now), sender: "s@x")
        .identifier
    }
    let first = try identifier(point, now: RainyStore.now, evaluator)
    var nearby = point
    nearby.latitude += 0.001
    #expect(try identifier(nearby, now: RainyStore.now + 600, evaluator) == first)
    #expect(first.hasPrefix("nwpcube.wrf.d01.2026062000.5.9."))
    #expect(!first.contains(" ") && !first.contains(",") && !first.contains("<") && !first.contains("&"))
    // Past the first warning's hour, the document says something else.
    #expect(try identifier(point, now: RainyStore.start + 7 * 3_600, evaluator) != first)
    let other = WarningEvaluator(rules: try Self.rules(Self.rule("rain", metric: "rain", "above", "10")))
    #expect(try identifier(point, now: RainyStore.now, other) != first)
  }
}
