import Synchronization

extension LocalTimeZone {
  /// Zones already looked up, by the identifier as given (a service sees few).
  private static let known = Mutex<[String: LocalTimeZone]>([:])
  /// Beyond this many identifiers the cache stops growing, so that clients sending every
  /// spelling of every zone cannot grow it without bound.
  static let cacheLimit = 1_024

  /// The zone called `identifier`, as `init(identifier:)` finds it, kept after the first
  /// lookup: building a zone asks ICU for its calendar and transitions, a noticeable share of
  /// a forecast request.
  /// - Throws: `LocalTimeError.unknownTimeZone` naming the identifier.
  public static func named(_ identifier: String) throws(LocalTimeError) -> LocalTimeZone {
    if let zone = known.withLock({ $0[identifier] }) { return zone }
    let zone = try LocalTimeZone(identifier: identifier)
    known.withLock { cache in
      if cache.count < cacheLimit { cache[identifier] = zone }
    }
    return zone
  }
}
