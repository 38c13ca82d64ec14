import Forecast
import Foundation
import PointQuery
import Store
import Testing
import Warnings
import _TestSupport

/// Warnings from a nest that moves (`MovingStore`): a threshold crossed only at steps after
/// a move is outlined where the nest's cell was at those steps.
@Suite struct MovingWarningTests {
  static let store: String? = {
    let directory = SampleFiles.temporaryDirectory("moving-warnings")
    return (try? MovingStore.write(into: directory)) != nil ? directory : nil
  }()

  /// A place inside every position of the nest.
  static let point = ForecastRequest(latitude: 38.8, longitude: -8.9)

  static func rules(validity: Int) throws -> WarningRules {
    try WarningRules(
      text: """
        [warm]
        title = Warm
        metric = temp
        above = 23.6 °C
        validity_hours = \(validity)
        severity = Moderate
        description = Warm.
        """, path: "test")
  }

  /// The point's cell at `position` by brute force, and its outline as CAP writes it: on a
  /// regular grid each corner, the mean of four centres, is half a spacing from the centre.
  static func expectedCell(position: Int) -> (i: Int, j: Int, polygon: String) {
    let grid = MovingStore.nest(position: position)
    let cell = BruteForce.nearest(
      latitude: point.latitude, longitude: point.longitude, latitudes: grid.latitudes, longitudes: grid.longitudes
    ).index
    let (latitude, longitude) = (Double(grid.latitudes[cell]), Double(grid.longitudes[cell]))
    let half = grid.spacing / 2
    let corners = [(-half, -half), (-half, half), (half, half), (half, -half), (-half, -half)]
    let text = { (value: Double) in
      var formatted = String(format: "%.4f", value)
      while formatted.hasSuffix("0") { formatted.removeLast() }
      if formatted.hasSuffix(".") { formatted.removeLast() }
      return formatted == "-0" ? "0" : formatted
    }
    let polygon = corners.map { "\(text(latitude + $0.0)),\(text(longitude + $0.1))" }.joined(separator: " ")
    return (cell % grid.width, cell / grid.width, polygon)
  }

  @Test func aThresholdCrossedAfterAMoveIsOutlinedWhereTheNestWasThen() throws {
    let store = try #require(Self.store, "the moving store could not be written")
    let forecaster = Forecaster(catalog: try ForecastStore(path: store).catalog)
    // Temperature rises 0.5 °C an hour from about 21.9 °C here: above 23.6 °C from step 4,
    // when the nest is in its third position (steps 4 and 5).
    let evaluation = try WarningEvaluator(rules: try Self.rules(validity: 6)).evaluate(
      try forecaster.point(Self.point), now: MovingStore.firstTime)
    let warning = try #require(evaluation.warnings.first)
    #expect(evaluation.warnings.count == 1)
    #expect(warning.onset == MovingStore.firstTime + 4 * 3_600 && warning.expires == MovingStore.firstTime + 6 * 3_600)
    #expect(MovingStore.stepPositions[4] == 2 && MovingStore.stepPositions[5] == 2)
    let expected = Self.expectedCell(position: 2)
    let first = Self.expectedCell(position: 0)
    // The nest moved, so the place has other indices there than in the first position.
    #expect((expected.i, expected.j) != (first.i, first.j))
    #expect(warning.cell.provenance.domain == "d02")
    #expect((warning.cell.i, warning.cell.j) == (expected.i, expected.j))
    #expect(warning.area.count == 1)
    #expect(warning.cell.polygon == expected.polygon, "\(warning.cell.polygon) against \(expected.polygon)")
    let xml = CAPDocument(evaluation: evaluation, sender: "nwpcube@test").xml
    #expect(xml.contains("<polygon>\(expected.polygon)</polygon>"))
    #expect(xml.contains("grid cell (\(expected.i), \(expected.j))"))
  }

  /// Over steps 4 to 7 the nest holds the place in two positions (the third, then the
  /// second again): the same ground, so one outline, named by the first.
  @Test func theCellsOfSeveralPositionsAreOutlinedOnce() throws {
    let store = try #require(Self.store)
    let forecaster = Forecaster(catalog: try ForecastStore(path: store).catalog)
    let evaluation = try WarningEvaluator(rules: try Self.rules(validity: 8)).evaluate(
      try forecaster.point(Self.point), now: MovingStore.firstTime)
    let warning = try #require(evaluation.warnings.first)
    #expect(warning.expires == MovingStore.firstTime + 8 * 3_600)
    #expect(Set(MovingStore.stepPositions[4..<8]) == [1, 2])
    #expect(warning.area.map(\.polygon) == [Self.expectedCell(position: 2).polygon])
    #expect(Self.expectedCell(position: 1).polygon == Self.expectedCell(position: 2).polygon)
  }
}
