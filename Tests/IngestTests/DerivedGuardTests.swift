import Meteorology
import Testing

@testable import Ingest

/// The last guard before a derived metric is stored marks exactly the values outside the
/// metric's plausible range, wherever one falls: in the eight-at-a-time part of a step's
/// values or in its last one to seven; unknown values (NaN) pass, uncounted.
@Suite struct DerivedGuardTests {
  @Test(arguments: [1, 2, 7, 8, 9, 15, 16, 17, 64, 67])
  func everyImplausibleDerivedValueBecomesMissingWhereverItFalls(count: Int) throws {
    let range = try #require(Metric.hum.plausibleRange)
    #expect((range.lower, range.upper) == (0, 100))
    let implausible: [Double] = [.infinity, -.infinity, -0.001, 100.001, 1e300, -1e300]
    let step = StepSource(path: "f.nc", index: 0, time: 0)
    for position in 0..<count {
      for bad in implausible + [.nan] {
        // Plausible values up to both bounds, then one value replaced.
        var values = (0..<count).map { Double($0 % 101) }
        values[position] = bad
        let screen = InputScreen()
        values.withUnsafeMutableBufferPointer {
          screen.guardDerived(.hum, $0, step: step, region: .whole(cells: count))
        }
        for index in 0..<count where index != position {
          #expect(values[index] == Double(index % 101))
        }
        #expect(values[position].isNaN, "\(bad) at \(position) of \(count) passed as \(values[position])")
        let warnings = screen.warnings(width: count, latitudes: [], longitudes: [])
        if bad.isNaN {
          #expect(warnings.isEmpty, "an unknown value was counted: \(warnings)")
        } else {
          #expect(warnings.count == 1)
          #expect(
            warnings.first?.hasPrefix("derived hum: 1 value at 1 step outside the metric's plausible range") == true)
          #expect(warnings.first?.contains("i=\(position), j=0") == true, "\(warnings)")
        }
      }
    }
  }
}
