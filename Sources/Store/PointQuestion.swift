import PointQuery

/// A question about one point over a span of times, as the command line asks it: what a
/// store needs to open to answer it (see `ForecastStore.init(path:answering:)`).
public struct PointQuestion: Sendable {
  public let latitude: Double
  public let longitude: Double
  public let method: InterpolationMethod
  /// The only domain to answer from, when one is asked for.
  public let domain: String?
  /// Every valid time the answer may read: the cubes covering none of them are not opened.
  public let times: ClosedRange<Int64>
  /// Whether the answer may hold a `precipitation_probability`, which averages up to
  /// `PointSources.probabilityMemberLimit` runs covering each time rather than reading the
  /// answering one only.
  public let probability: Bool

  public init(
    latitude: Double, longitude: Double, method: InterpolationMethod, domain: String? = nil,
    times: ClosedRange<Int64>, probability: Bool
  ) {
    self.latitude = latitude
    self.longitude = longitude
    self.method = method
    self.domain = domain
    self.times = times
    self.probability = probability
  }
}
