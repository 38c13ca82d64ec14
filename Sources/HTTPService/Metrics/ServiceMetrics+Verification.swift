import Prometheus

/// The background verifier's metrics: bytes of cubes verified, and blocks that failed.
extension ServiceMetrics {
  static var verifiedBytes: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "nwpcube", subsystem: "store", metricName: "verified_bytes", unitName: "total",
      helpText: "Bytes of served cubes the background verifier checked against their block checksums.")
  }
  static var damagedCubes: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "nwpcube", subsystem: "store", metricName: "damaged_cubes", unitName: "total",
      helpText: "Served cubes the background verifier found a damaged block in and withdrew.")
  }

  /// Makes both series, so that they are scraped from the start.
  func startVerificationMetrics() {
    _ = registry.makeCounter(descriptor: Self.verifiedBytes)
    _ = registry.makeCounter(descriptor: Self.damagedCubes)
  }

  /// Counts `bytes` verified.
  func recordVerified(bytes: Int) {
    registry.makeCounter(descriptor: Self.verifiedBytes).increment(by: Int64(bytes))
  }

  /// Counts one cube withdrawn for a damaged block.
  func recordDamagedCube() {
    registry.makeCounter(descriptor: Self.damagedCubes).increment()
  }
}
