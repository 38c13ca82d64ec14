import DarkSkyFace
import Forecast
import Prometheus
import Synchronization

/// The outlooks of recent Dark Sky requests, with their blocks written: requests for the
/// same point, zone, units and blocks in the same hour share `hourly`, `daily` and the
/// warnings, which are four fifths of a forecast's work; only `currently` and `minutely`
/// are read for each. An app whose users ask for their city's coordinates asks for the same
/// point again and again.
///
/// An outlook is keyed by the store's catalog as well, so one made before a run was
/// published or pruned is never served after. The cache holds at most `capacity`
/// outlooks (about 40 KB each); when it is full, the outlooks of past hours and of past
/// catalogs go first, and all of them when that frees nothing.
final class DarkSkyOutlookCache: Sendable {
  /// What an outlook depends on besides the store.
  struct Key: Hashable {
    let latitude: Double
    let longitude: Double
    let zone: String
    let units: DarkSkyUnits
    let excluded: Set<DarkSkyQuery.Block>
    let extendHourly: Bool
    let localHour: Int64
    let utcHour: Int64
    let catalog: UInt64

    /// The key of `query`'s outlook over the catalog `catalog`; nil for a Time Machine
    /// query, whose hours are not the current ones.
    init?(_ query: DarkSkyQuery, catalog: UInt64) {
      guard !query.isTimeMachine else { return nil }
      latitude = query.request.latitude
      longitude = query.request.longitude
      zone = query.request.timeZone.identifier
      units = query.units
      excluded = query.excluded
      extendHourly = query.extendHourly
      (localHour, utcHour) = query.outlookHour
      self.catalog = catalog
    }
  }

  /// An outlook and its blocks as a document writes them.
  struct Entry: Sendable {
    let outlook: DarkSkyOutlook
    let written: DarkSkyDocument.WrittenBlocks
  }

  let capacity: Int
  private let entries = Mutex<[Key: Entry]>([:])
  /// `nwpcube_darksky_outlooks_total{result="hit"}` and `{result="miss"}`.
  private let hits: Counter
  private let misses: Counter

  init(capacity: Int, metrics: ServiceMetrics) {
    self.capacity = max(capacity, 1)
    let descriptor = MetricNameDescriptor(
      namespace: "nwpcube", metricName: "darksky_outlooks", unitName: "total",
      helpText: "Dark Sky requests by whether their point's outlook for the hour was held (hit) or made (miss).")
    hits = metrics.registry.makeCounter(descriptor: descriptor, labels: [("result", "hit")])
    misses = metrics.registry.makeCounter(descriptor: descriptor, labels: [("result", "miss")])
  }

  /// The entry of `key`, made by `make` (outside the lock: two requests may both make it,
  /// which costs time but never a wrong answer) when the cache does not hold it.
  func entry(_ key: Key, make: () throws(ForecastError) -> Entry) throws(ForecastError) -> Entry {
    if let entry = entries.withLock({ $0[key] }) {
      hits.increment()
      return entry
    }
    misses.increment()
    let entry = try make()
    entries.withLock { entries in
      if entries.count >= capacity {
        entries = entries.filter { $0.key.catalog == key.catalog && $0.key.utcHour >= key.utcHour }
        if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
      }
      entries[key] = entry
    }
    return entry
  }

  /// Outlooks held now.
  var count: Int { entries.withLock { $0.count } }
}
