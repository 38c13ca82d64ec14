/// Finds the IANA time zone of a point, for `timezone=auto`: the gazetteer's nearest
/// place's zone once the service has one, nothing until then (and `auto` is refused).
public struct ZoneFinder: Sendable {
  /// What the finder is, for the message when it finds nothing (e.g. "the gazetteer").
  public let source: String
  private let find: @Sendable (_ latitude: Double, _ longitude: Double) -> String?

  /// A finder answering with `find`, which returns an IANA identifier or nil.
  public init(source: String, _ find: @escaping @Sendable (_ latitude: Double, _ longitude: Double) -> String?) {
    self.source = source
    self.find = find
  }

  /// The zone identifier at the point, nil when the finder knows none.
  public func zone(latitude: Double, longitude: Double) -> String? { find(latitude, longitude) }
}
