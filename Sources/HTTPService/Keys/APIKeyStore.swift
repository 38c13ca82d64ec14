import Synchronization

/// The keys in force, their rate-limit buckets, and the reload that replaces them.
///
/// Shared by every request (the middleware) and the SIGHUP handler, hence the lock; each
/// request holds it for one scan of the keys.
final class APIKeyStore: Sendable {
  /// What a request's key is.
  enum Verdict: Equatable {
    /// A known key with a token to spend (or no limit).
    case accepted(name: String)
    /// A known key whose bucket is empty: retry after that many whole seconds.
    case limited(name: String, limit: RateLimit, retryAfter: Int)
    /// No key in force is this one.
    case unknown
  }

  private struct State {
    var file: APIKeyFile
    /// One bucket per key of `file`, nil for a key without a limit.
    var buckets: [TokenBucket?]

    /// Every bucket full at `now`, except that a key `previous` had with the same limit keeps
    /// its bucket: a reload must not hand a client over its limit a fresh allowance.
    init(file: APIKeyFile, now: Int64, previous: State? = nil) {
      self.file = file
      buckets = file.keys.map { key in
        guard let limit = key.limit else { return nil }
        if let previous,
          let index = previous.file.keys.firstIndex(where: { $0.secret == key.secret && $0.limit == limit }),
          let bucket = previous.buckets[index]
        {
          return bucket
        }
        return TokenBucket(limit: limit, now: now)
      }
    }
  }

  private let state: Mutex<State>
  /// Nanoseconds on a monotonic clock; tests step it by hand.
  private let now: @Sendable () -> Int64

  /// The keys of `file`, every bucket full.
  init(_ file: APIKeyFile, now: @escaping @Sendable () -> Int64 = APIKeyStore.monotonicNanoseconds()) {
    self.now = now
    state = Mutex(State(file: file, now: now()))
  }

  /// The file the keys came from.
  var path: String { state.withLock { $0.file.path } }

  /// How many keys are in force.
  var count: Int { state.withLock { $0.file.keys.count } }

  /// The names of the keys in force, for the metrics.
  var names: [String] { state.withLock { $0.file.keys.map(\.name) } }

  /// Which key `candidate` is, and whether it may be used now (taking a token if so).
  ///
  /// Every key is compared, in constant time, whichever matches: the time taken says how
  /// many keys there are, not which one nor how near the candidate came.
  func verdict(for candidate: some StringProtocol) -> Verdict {
    let bytes = Array(candidate.utf8)
    let time = now()
    return state.withLock { state in
      guard let found = Self.index(of: bytes, in: state.file.keys) else { return .unknown }
      let key = state.file.keys[found]
      guard var bucket = state.buckets[found] else { return .accepted(name: key.name) }
      let wait = bucket.take(now: time)
      state.buckets[found] = bucket
      guard let wait, let limit = key.limit else { return .accepted(name: key.name) }
      return .limited(name: key.name, limit: limit, retryAfter: wait)
    }
  }

  /// The name of the key `candidate` is, nil for none in force; unlike `verdict`, takes no
  /// token (the load limit asks who a request is before the key middleware admits it).
  func name(of candidate: some StringProtocol) -> String? {
    let bytes = Array(candidate.utf8)
    return state.withLock { state in Self.index(of: bytes, in: state.file.keys).map { state.file.keys[$0].name } }
  }

  /// The index of the key whose secret is `bytes`, nil for none. Every key is compared, in
  /// constant time, whichever matches: the time taken says how many keys there are, not
  /// which one nor how near the candidate came.
  private static func index(of bytes: [UInt8], in keys: [APIKey]) -> Int? {
    var found: Int?
    for (index, key) in keys.enumerated() {
      let same = ConstantTime.equal(bytes, key.secret)
      if same, found == nil { found = index }
    }
    return found
  }

  /// Reads the file again and puts its keys in force; when it cannot be used, the keys in
  /// force stay. A key kept with the same limit keeps its bucket; a new key, or one whose
  /// limit changed, starts full.
  /// - Returns: the keys now in force, or why the file was refused.
  @discardableResult
  func reload() -> Result<Int, KeyFileError> {
    let path = self.path
    let file: APIKeyFile
    do throws(KeyFileError) {
      file = try APIKeyFile(path: path)
    } catch {
      return .failure(error)
    }
    let time = now()
    state.withLock { $0 = State(file: file, now: time, previous: $0) }
    return .success(file.keys.count)
  }

  /// A clock reading nanoseconds since it was made, on the monotonic clock: wall-clock
  /// steps (NTP, DST) must not fill or drain buckets.
  static func monotonicNanoseconds() -> @Sendable () -> Int64 {
    let origin = ContinuousClock.now
    return {
      let (seconds, attoseconds) = (ContinuousClock.now - origin).components
      return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
  }
}
