import Testing

@testable import Ingest

/// The screen marks exactly the values a plain scan of the definition would, wherever a bad
/// value falls: in the four-at-a-time part of a read or in its last one to three values.
@Suite struct InputScreenTests {
  @Test(arguments: [1, 2, 3, 4, 5, 7, 8, 9, 13, 64, 67])
  func everyValueOutsideItsRangeBecomesMissingWhereverItFallsInTheRead(count: Int) throws {
    let range = try #require(InputRange.table["T2"])
    let hostile: [Double] = [.nan, .infinity, -.infinity, 149.9, 350.1, -1, 1e300]
    for position in 0..<count {
      for bad in hostile {
        var values = (0..<count).map { 250 + Double($0 % 50) }
        values[position] = bad
        let screen = InputScreen()
        screen.screen("T2", &values, step: StepSource(path: "f.nc", index: 0, time: 0), cells: count)
        // The oracle: the definition, value by value.
        for index in 0..<count where index != position {
          #expect(values[index] == 250 + Double(index % 50))
        }
        #expect(values[position].isNaN, "\(bad) at \(position) of \(count) passed as \(values[position])")
        #expect(screen.warnings(width: count, latitudes: [], longitudes: []).count == 1)
        // The bounds themselves are plausible.
        var edges = [range.lower, range.upper]
        InputScreen().screen("T2", &edges, step: StepSource(path: "f.nc", index: 0, time: 0), cells: 2)
        #expect(edges == [range.lower, range.upper])
      }
    }
  }
}
