import Prometheus

/// The load limits' metrics: requests shed, by reason, and the caps in force.
extension ServiceMetrics {
  static var shed: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "nwpcube", metricName: "requests_shed", unitName: "total",
      helpText:
        "Requests refused before any work: reason=\"global\" (503, the server's cap of requests in flight) or "
        + "\"client\" (429, one client's cap).")
  }
  static var loadLimit: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "nwpcube", metricName: "requests_in_flight_limit", unitName: "",
      helpText: "The cap of requests in flight: scope=\"global\" over all clients, \"client\" for one; 0 is none.")
  }

  /// Sets the caps' gauges.
  func startLoadMetrics(_ limits: LoadLimits) {
    registry.makeGauge(descriptor: Self.loadLimit, labels: [("scope", "global")]).set(Double(limits.inFlight))
    registry.makeGauge(descriptor: Self.loadLimit, labels: [("scope", "client")]).set(Double(limits.perClient))
  }

  /// The counter of requests shed for `reason`, made (and so scraped, as 0) at once: found
  /// once by its holder rather than on each shed, since sheds come in floods.
  func shedCounter(_ reason: ShedReason) -> Counter {
    registry.makeCounter(descriptor: Self.shed, labels: [("reason", reason.rawValue)])
  }

  /// Why a request was shed, as the metric's label says it.
  enum ShedReason: String, CaseIterable, Sendable {
    case global
    case client
  }
}
