import CubeFormat
import Foundation
import PointQuery
import Prometheus
import Synchronization

/// The service's Prometheus metrics: requests by route and status, their latency, and the
/// store's cubes.
///
/// Each application has its own registry rather than swift-metrics' process-wide one, so
/// that several servers in one process (the tests) count separately.
final class ServiceMetrics: Sendable {
  /// Internal for the extensions that add metrics of their own (`ServiceMetrics+Keys`).
  let registry = PrometheusCollectorRegistry()
  private let cubes: Gauge
  private let generation: Gauge
  private let newestRun: Gauge
  private let runs: Gauge
  private let rejected: Counter
  /// The store's count of rejected cubes at the last scrape, which the counter has reached.
  private let rejectedSeen = Mutex<Int>(0)
  /// Each route's and status's counter and histogram, found in the registry once: the
  /// registry builds a key from the labels on every lookup.
  private let perRoute = Mutex<[RouteStatus: (Counter, DurationHistogram)]>([:])
  /// The cube files of the last catalog seen, and how many different catalogs were seen.
  private let catalogs = Mutex<(files: Set<FileIdentity>, count: Int)>(([], 0))

  /// Latency buckets, seconds: a legacy answer takes tens of microseconds, a 16-day
  /// forecast for many points tens of milliseconds.
  static let buckets: [Duration] = [
    .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
    .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
    .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5),
  ]

  // Computed: descriptors are not Sendable, and one costs little next to the registry's
  // lookup.
  static var requests: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "nwpcube", subsystem: "http", metricName: "requests", unitName: "total",
      helpText: "HTTP requests answered, by route and status.")
  }
  static var latency: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "nwpcube", subsystem: "http", metricName: "request_duration", unitName: "seconds",
      helpText: "Time from a request's arrival to its response, by route.")
  }

  init() {
    cubes = Self.gauge(registry, "cubes", "Cubes the service answers from.")
    generation = Self.gauge(
      registry, "catalog_generation",
      "How many different sets of cubes the service has seen at scrapes; it grows when runs change.")
    newestRun = Self.gauge(
      registry, "newest_run_start", unit: "seconds", "Start (Unix seconds) of the newest run in the store.")
    runs = Self.gauge(
      registry, "runs", "Runs (distinct run starts of any model and domain) the service answers from.")
    rejected = registry.makeCounter(
      descriptor: MetricNameDescriptor(
        namespace: "nwpcube", subsystem: "store", metricName: "rejected_cubes", unitName: "total",
        helpText: "Cube files the store's scans could not open or verify and left out, each file once."))
  }

  /// A gauge `nwpcube_<name>[_<unit>]` without labels.
  private static func gauge(
    _ registry: PrometheusCollectorRegistry, _ name: String, unit: String = "", _ help: String
  ) -> Gauge {
    registry.makeGauge(
      descriptor: MetricNameDescriptor(namespace: "nwpcube", metricName: name, unitName: unit, helpText: help))
  }

  /// Counts one request and its duration. `route` is the matched route's path, or
  /// `NotFound`, so that the label's values stay few whatever clients ask for.
  func record(route: String, status: Int, duration: Duration) {
    let key = RouteStatus(route: route, status: status)
    let (counter, histogram) = perRoute.withLock { known in
      if let found = known[key] { return found }
      let made = (
        registry.makeCounter(descriptor: Self.requests, labels: [("route", route), ("status", String(status))]),
        registry.makeDurationHistogram(descriptor: Self.latency, labels: [("route", route)], buckets: Self.buckets)
      )
      known[key] = made
      return made
    }
    counter.increment()
    histogram.record(duration)
  }

  private struct RouteStatus: Hashable {
    let route: String
    let status: Int
  }

  /// Every metric in Prometheus's text format, the store's gauges read from `catalog` first
  /// and its rejected cubes' counter brought up to `rejectedCubes` (the store's own count).
  func exposition(catalog: RunCatalog, rejectedCubes: Int) -> String {
    let increase = rejectedSeen.withLock { seen in
      defer { seen = max(seen, rejectedCubes) }
      return max(rejectedCubes - seen, 0)
    }
    if increase > 0 { rejected.increment(by: Int64(increase)) }
    runs.set(Double(Set(catalog.cubes.map(\.header.runStart)).count))
    let files = Set(catalog.cubes.map(\.file.identity))
    let count = catalogs.withLock { seen in
      if seen.count == 0 || seen.files != files { seen = (files, seen.count + 1) }
      return seen.count
    }
    cubes.set(Double(catalog.cubes.count))
    generation.set(Double(count))
    newestRun.set(Double(catalog.cubes.map(\.header.runStart).max() ?? 0))
    return registry.emitToString()
  }
}
