import Foundation
import Testing
import _TestSupport

/// `nwpcube forecast --elevation M --cell-selection land|sea|nearest`.
@Suite struct TerrainOptionTests {
  @Test func forecastTakesElevationAndCellSelection() throws {
    let store = SampleFiles.temporaryDirectory("cli-terrain")
    defer { SampleFiles.remove(store) }
    try TestStores.publish(TestStores.spec(start: "2026-06-20_00:00:00", hours: 24, seed: 3), into: store)
    let common = [
      "forecast", "--store", store, "--lat", "39.4", "--lon", "-8.1", "--start-date", "2026-06-20", "--days", "1",
      "--hourly", "temp", "--daily", "",
    ]
    func document(_ extra: [String]) throws -> [String: Any] {
      let outcome = try CommandLineTool.run(common + extra)
      #expect(outcome.status == 0, "\(outcome.standardError)")
      return try #require(
        try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
    }
    let plain = try document([])
    let cellHeight = try #require(plain["elevation"] as? Double)
    let corrected = try document(["--elevation", "\(cellHeight - 100)", "--cell-selection", "land"])
    #expect(corrected["elevation"] as? Double == cellHeight - 100)
    let temperatures = { (document: [String: Any]) in
      ((document["hourly"] as? [String: Any])?["temp"] as? [Double]) ?? []
    }
    #expect(temperatures(plain).count == 24)
    // 100 m lower is 0.65 K warmer; the printed values are rounded to 0.01.
    for (before, after) in zip(temperatures(plain), temperatures(corrected)) {
      #expect(abs(after - before - 0.65) <= 0.0100001, "\(before) → \(after)")
    }
    let off = try document(["--elevation", "nan"])
    #expect(temperatures(off) == temperatures(plain) && off["elevation"] as? Double == cellHeight)

    let refused = try CommandLineTool.run(common + ["--cell-selection", "coast"])
    #expect(refused.status != 0)
    #expect(refused.standardError.contains("--cell-selection"), "\(refused.standardError)")
  }
}
