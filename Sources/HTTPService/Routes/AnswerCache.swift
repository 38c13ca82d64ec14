import Hummingbird
import PointQuery
import Prometheus
import Synchronization

/// Finished answers of recent GET requests, served again byte for byte to the same request
/// while nothing they were made from has changed: an app whose users ask for their city's
/// forecast sends the same URL again and again, and answering it from here skips reading the
/// parameters, the cubes and writing the document.
///
/// Exact, not approximate. An answer is keyed by
/// - the request target as received (path and raw query: a reordered query is another key
///   and simply misses),
/// - the request headers the answer reads (Dark Sky's alert links name the host asked),
/// - the generation of the catalog it was made from, so that an answer made before a run was
///   published or pruned is never served after, and
/// - the span of `now` it holds for (its *quantum*): the finest unit of time its body reads,
///   which the route names (a second for Dark Sky's `currently.time`, a quarter hour for
///   Open-Meteo's, none for the dated legacy answers).
///
/// Only successful answers are held; an error is made again for each request. Headers that
/// vary per request (request id, rate limits) are added outside the routes, so every hit
/// still gets its own. The cache is bounded by bytes and by entries; when it is over either,
/// answers of older catalogs and of past quanta go first, then the oldest.
final class AnswerCache: Sendable {
  /// What an answer depends on.
  struct Key: Hashable, Sendable {
    /// The path and query as received.
    let target: String
    /// The request headers the answer reads, joined; empty when it reads none.
    let variant: String
    /// The generation of the catalog the answer is made from (`RunCatalog.generation`).
    let catalog: UInt64
    /// The start (Unix seconds) of the span of `now` over which the answer is the same.
    let quantum: Int64

    /// The key of the answer to `target` (a path and query) with headers `variant`.
    init(target: String, variant: String = "", catalog: UInt64, quantum: Int64) {
      self.target = target
      self.variant = variant
      self.catalog = catalog
      self.quantum = quantum
    }
  }

  /// A finished answer: what a route made, ready to be sent any number of times.
  struct Answer: Sendable {
    /// The answer's own headers (its content type); the middlewares add the rest.
    var headers: HTTPFields
    /// The body; a `ByteBuffer` shares its storage, so sending it again copies nothing.
    var body: ByteBuffer

    /// A 200 response carrying the answer.
    var response: Response { Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body)) }
  }

  /// The span of `now` an answer holds for.
  struct Quantum: Sendable {
    /// Its start, Unix seconds.
    let start: Int64
    /// The first second after it; `Int64.max` for an answer that `now` never changes.
    let end: Int64

    /// The quantum of `seconds` containing `now`.
    static func of(_ now: Int64, seconds: Int64) -> Quantum {
      let start = now - ((now % seconds) + seconds) % seconds
      return Quantum(start: start, end: start + seconds)
    }

    /// The quantum of an answer that does not depend on `now` at all.
    static let forever = Quantum(start: 0, end: .max)
  }

  private struct Entry {
    let answer: Answer
    let bytes: Int
    let end: Int64
    let sequence: UInt64
  }

  private struct State {
    var entries: [Key: Entry] = [:]
    /// Keys in the order they were stored, with the sequence number each was stored under
    /// (an entry stored again is found stale here by its number); `head` is the oldest.
    var order: [(key: Key, sequence: UInt64)] = []
    var head = 0
    var bytes = 0
    var sequence: UInt64 = 0
  }

  /// The most bytes held: bodies, headers and keys, plus `entryOverhead` each.
  let byteLimit: Int
  /// The most answers held.
  let entryLimit: Int
  /// Bytes counted for each entry besides its body, headers and key: the dictionary's slot,
  /// the buffer's storage header and the order's element, about this much.
  static let entryOverhead = 160

  private let state = Mutex(State())
  /// `nwpcube_answer_cache_total{result="hit"}` and `{result="miss"}`.
  private let hits: Counter
  private let misses: Counter
  /// `nwpcube_answer_cache_evictions_total`.
  private let evictions: Counter
  /// `nwpcube_answer_cache_bytes`.
  private let heldBytes: Gauge

  /// A cache of at most `bytes` bytes and `entries` answers, counted in `metrics`.
  init(bytes: Int, entries: Int, metrics: ServiceMetrics) {
    byteLimit = max(bytes, 0)
    entryLimit = max(entries, 1)
    let lookups = MetricNameDescriptor(
      namespace: "nwpcube", metricName: "answer_cache", unitName: "total",
      helpText: "GET answers by whether they were sent from the answer cache (hit) or made (miss).")
    hits = metrics.registry.makeCounter(descriptor: lookups, labels: [("result", "hit")])
    misses = metrics.registry.makeCounter(descriptor: lookups, labels: [("result", "miss")])
    evictions = metrics.registry.makeCounter(
      descriptor: MetricNameDescriptor(
        namespace: "nwpcube", metricName: "answer_cache_evictions", unitName: "total",
        helpText: "Answers dropped from the answer cache to stay within its bytes and entries."))
    heldBytes = metrics.registry.makeGauge(
      descriptor: MetricNameDescriptor(
        namespace: "nwpcube", metricName: "answer_cache", unitName: "bytes",
        helpText: "Bytes the answer cache holds: bodies, headers, keys and a fixed overhead per answer."))
  }

  /// The answer of `key`, made by `make` when the cache does not hold it (outside the lock:
  /// two requests may both make it, which costs time but never a wrong answer). `now` is
  /// the instant the answer is made at; `quantum` the span it holds for.
  func answer(_ key: Key, now: Int64, quantum: Quantum, make: () throws -> Answer) throws -> Answer {
    if let answer = state.withLock({ $0.entries[key]?.answer }) {
      hits.increment()
      return answer
    }
    misses.increment()
    let answer = try make()
    store(answer, key: key, now: now, end: quantum.end)
    return answer
  }

  /// The response to `request`, whose answer reads the request headers joined in `variant`,
  /// is made from `catalog` at `now` and holds for `quantum`: through `cache`, or made whole
  /// when there is no cache. The key is derived here from what the answer is made from, so
  /// that a route cannot key an answer by one quantum and keep it for another.
  static func response(
    _ cache: AnswerCache?, to request: Request, variant: String = "", catalog: RunCatalog, now: Int64,
    quantum: Quantum, make: () throws -> Answer
  ) throws -> Response {
    guard let cache else { return try make().response }
    let key = Key(target: request.uri.string, variant: variant, catalog: catalog.generation, quantum: quantum.start)
    return try cache.answer(key, now: now, quantum: quantum, make: make).response
  }

  /// Answers held now.
  var count: Int { state.withLock { $0.entries.count } }

  /// Bytes held now.
  var bytes: Int { state.withLock { $0.bytes } }

  private func store(_ answer: Answer, key: Key, now: Int64, end: Int64) {
    let size = Self.size(of: answer, key: key)
    // An answer that would take more than a quarter of the cache is made for each request
    // rather than pushing out everything else.
    guard size <= byteLimit / 4 else { return }
    let dropped = state.withLock { state -> Int in
      state.sequence &+= 1
      if let previous = state.entries.updateValue(
        Entry(answer: answer, bytes: size, end: end, sequence: state.sequence), forKey: key)
      {
        state.bytes -= previous.bytes
      }
      state.bytes += size
      state.order.append((key, state.sequence))
      var dropped = 0
      if state.bytes > byteLimit || state.entries.count > entryLimit {
        dropped += Self.dropStale(&state, catalog: key.catalog, now: now)
      }
      while state.bytes > byteLimit || state.entries.count > entryLimit, state.head < state.order.count {
        let (oldest, sequence) = state.order[state.head]
        state.head += 1
        if let entry = state.entries[oldest], entry.sequence == sequence {
          state.entries[oldest] = nil
          state.bytes -= entry.bytes
          dropped += 1
        }
      }
      // The order keeps a slot for every store; compacting it when half of it is spent
      // keeps it within twice the entries held.
      if state.head > 1_024, state.head * 2 > state.order.count {
        state.order.removeFirst(state.head)
        state.head = 0
      }
      heldBytes.set(Int64(state.bytes))
      return dropped
    }
    if dropped > 0 { evictions.increment(by: Int64(dropped)) }
  }

  /// Drops the answers of catalogs older than `catalog` and those whose quantum ended by
  /// `now`, none of which a request can ask for again; returns how many.
  private static func dropStale(_ state: inout State, catalog: UInt64, now: Int64) -> Int {
    let stale = state.entries.filter { key, entry in key.catalog < catalog || entry.end <= now }
    for (key, entry) in stale {
      state.entries[key] = nil
      state.bytes -= entry.bytes
    }
    return stale.count
  }

  /// The bytes `answer` is counted for under `key`.
  private static func size(of answer: Answer, key: Key) -> Int {
    var size = answer.body.readableBytes + key.target.utf8.count + key.variant.utf8.count + entryOverhead
    for field in answer.headers { size += field.name.rawName.utf8.count + field.value.utf8.count }
    return size
  }
}
