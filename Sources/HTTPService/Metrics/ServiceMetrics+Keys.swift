import Prometheus

/// The API keys' metrics: requests by key name and status, the keys in force, and reloads.
extension ServiceMetrics {
  static var keyRequests: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "nwpcube", subsystem: "http", metricName: "key_requests", unitName: "total",
      helpText: "Requests made with a valid API key, by the key's name (never the key) and status.")
  }
  static var keyCount: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "nwpcube", metricName: "api_keys", unitName: "", helpText: "API keys in force.")
  }
  static var keyReloads: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "nwpcube", metricName: "api_key_reloads", unitName: "total",
      helpText: "Reloads of the keys file on SIGHUP, by result; a failed one keeps the keys in force.")
  }

  /// Counts one request made with the key named `name`. The registry finds the counter by
  /// its labels; key names are few, so the series stay few.
  func recordKey(name: String, status: Int) {
    registry.makeCounter(descriptor: Self.keyRequests, labels: [("key", name), ("status", String(status))])
      .increment()
  }

  /// Sets how many keys are in force.
  func recordKeyCount(_ count: Int) {
    registry.makeGauge(descriptor: Self.keyCount).set(Double(count))
  }

  /// Makes the keys' gauge and both reload series, so that they are scraped from the start.
  func startKeyMetrics(count: Int) {
    for result in ["succeeded", "failed"] {
      _ = registry.makeCounter(descriptor: Self.keyReloads, labels: [("result", result)])
    }
    recordKeyCount(count)
  }

  /// Counts one reload of the keys file.
  func recordKeyReload(succeeded: Bool) {
    registry.makeCounter(descriptor: Self.keyReloads, labels: [("result", succeeded ? "succeeded" : "failed")])
      .increment()
  }
}
