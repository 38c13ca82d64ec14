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
  private let rejected: CatchUpCounter
  private let withdrawn: CatchUpCounter
  private let unleased: Gauge
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
    rejected = CatchUpCounter(
      registry.makeCounter(
        descriptor: MetricNameDescriptor(
          namespace: "nwpcube", subsystem: "store", metricName: "rejected_cubes", unitName: "total",
          helpText: "Cube files the store's scans could not open or verify and left out, each file once.")))
    withdrawn = CatchUpCounter(
      registry.makeCounter(
        descriptor: MetricNameDescriptor(
          namespace: "nwpcube", subsystem: "store", metricName: "withdrawn_cubes", unitName: "total",
          helpText:
            "Served cubes withdrawn because their file was changed in place (opened for writing, truncated, or found damaged)."
        )
      ))
    unleased = registry.makeGauge(
      descriptor: MetricNameDescriptor(
        namespace: "nwpcube", subsystem: "store", metricName: "unleased_cubes", unitName: "",
        helpText:
          "Served cubes without a read lease (the server neither owns them nor has CAP_LEASE, or their file system has none): a change in place can crash the server."
      ))
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
  /// and its rejected and withdrawn cubes' counters brought up to `rejectedCubes` and
  /// `withdrawnCubes` (the store's own counts).
  func exposition(catalog: RunCatalog, rejectedCubes: Int, withdrawnCubes: Int) -> String {
    rejected.catchUp(to: rejectedCubes)
    withdrawn.catchUp(to: withdrawnCubes)
    unleased.set(CubeLeases.shared.isEnabled ? Double(catalog.cubes.count { !$0.file.isLeased }) : 0)
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
