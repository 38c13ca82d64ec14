import UTCTime

/// A store of one small generated run (24 × 18 cells, hourly for 30 hours from
/// 2026-06-20 00 UTC) whose rain is chosen: heavy in the western half (i < 12) in the
/// hours ending at steps 6 (15 mm), 12–14 (12 mm each) and 20 (11 mm), and 0.2 mm in
/// every other hour and cell. The alerts tests evaluate thresholds over it.
public enum RainyStore {
  /// The hours (ending at these steps) and amounts of heavy rain in the western half.
  public static let heavy: [Int: Double] = [6: 15, 12: 12, 13: 12, 14: 12, 20: 11]
  /// Columns with heavy rain: i below this.
  public static let wetColumns = 12

  /// The amount in the hour ending at `step` at cell (i, j), mm.
  public static func rain(step: Int, i: Int, j: Int) -> Double {
    i < wetColumns ? heavy[step] ?? 0.2 : 0.2
  }

  /// The run's first time.
  public static let start: Int64 = UTC.seconds(year: 2026, month: 6, day: 20) ?? 0
  /// "Now" for the tests: 02:20 UTC on the run's first day, inside the hour from 02:00.
  public static let now: Int64 = start + 2 * 3_600 + 20 * 60

  /// The store's directory, made once per test process.
  public static let store: String = {
    let directory = SampleFiles.temporaryDirectory("rainy")
    _ = try? TestStores.publish(
      TestStores.spec(start: "2026-06-20_00:00:00", hours: 30, seed: 13), into: "\(directory)/store",
      hourlyRain: { step, i, j in rain(step: step, i: i, j: j) })
    return "\(directory)/store"
  }()
}
