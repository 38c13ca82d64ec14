import Meteorology

/// A set of catalogue metrics as a bit mask over `Metric.index`: membership is a shift
/// and a test, with no hashing and no allocation, for the per-request bookkeeping of a
/// forecast.
struct MetricSet {
  private var bits: UInt64 = 0

  init() {}

  init(_ metrics: some Sequence<Metric>) {
    for metric in metrics { insert(metric) }
  }

  func contains(_ metric: Metric) -> Bool { bits & Self.bit(metric) != 0 }

  mutating func insert(_ metric: Metric) { bits |= Self.bit(metric) }

  private static func bit(_ metric: Metric) -> UInt64 {
    precondition(metric.index < UInt64.bitWidth, "the catalogue outgrew MetricSet")
    return 1 << UInt64(metric.index)
  }
}
