/// One entry of Dark Sky's `alerts` array: a warning in force at the point.
///
/// The route takes its alerts from one seam (`DarkSkyRoute.alerts`), so the document does
/// not depend on where warnings come from.
public struct DarkSkyAlert: Sendable, Equatable {
  /// A short title, e.g. "Heavy rain warning".
  public var title: String
  /// The regions the warning covers.
  public var regions: [String]
  /// Dark Sky's severity: `advisory`, `watch` or `warning`.
  public var severity: String
  /// When the warning begins, Unix seconds.
  public var time: Int64
  /// When it expires, Unix seconds.
  public var expires: Int64
  /// What it warns of, in full.
  public var description: String
  /// Where to read more (a CAP document).
  public var uri: String

  public init(
    title: String, regions: [String], severity: String, time: Int64, expires: Int64, description: String, uri: String
  ) {
    self.title = title
    self.regions = regions
    self.severity = severity
    self.time = time
    self.expires = expires
    self.description = description
    self.uri = uri
  }
}
