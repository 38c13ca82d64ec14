/// A point on the Earth as a client gives it, its range checked once for every face:
/// latitude −90…90 degrees north, longitude east-positive in −180…360 (0…360 as global
/// grids count it), or −180…180 where an API takes only signed longitudes.
public struct Coordinate: Sendable, Equatable {
  /// Degrees north.
  public let latitude: Double
  /// Degrees east.
  public let longitude: Double

  /// The latitudes accepted.
  public static let latitudes: ClosedRange<Double> = -90...90
  /// The longitudes accepted: signed, or counted 0…360 as global grids count them.
  public static let longitudes: ClosedRange<Double> = -180...360
  /// The longitudes of APIs that take only signed ones (Dark Sky, OpenWeatherMap).
  public static let signedLongitudes: ClosedRange<Double> = -180...180

  /// The point of a latitude and a longitude written as decimal numbers, read in that
  /// order (so that the first fault named is the latitude's).
  /// - Parameters:
  ///   - names: the parameters' names, for the message (`lat` and `lon`, or `latitude`
  ///     and `longitude`).
  ///   - expected: what a good value of each looks like, for the message.
  ///   - longitudes: the longitudes the API takes: `longitudes` or `signedLongitudes`.
  /// - Throws: `FaceError` naming the parameter that is not a decimal number or is out of
  ///   range.
  public init(
    latitude: String, longitude: String, names: (latitude: String, longitude: String),
    expected: (latitude: String, longitude: String), longitudes: ClosedRange<Double> = Coordinate.longitudes
  ) throws(FaceError) {
    self.latitude = try Self.latitude(latitude, name: names.latitude, expected: expected.latitude)
    self.longitude = try Self.longitude(
      longitude, name: names.longitude, expected: expected.longitude, in: longitudes)
  }

  /// A point whose values the readers below have checked.
  fileprivate init(checkedLatitude latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// A latitude written as a decimal number, in `latitudes`.
  /// - Throws: `FaceError` naming `name` when it is not a decimal number or out of range.
  public static func latitude(_ text: String, name: String, expected: String) throws(FaceError) -> Double {
    try QueryParameters.number(text, name: name, in: latitudes, expected: expected)
  }

  /// A longitude written as a decimal number, in `range`.
  /// - Throws: `FaceError` naming `name` when it is not a decimal number or out of range.
  public static func longitude(
    _ text: String, name: String, expected: String, in range: ClosedRange<Double> = longitudes
  ) throws(FaceError) -> Double {
    try QueryParameters.number(text, name: name, in: range, expected: expected)
  }
}

extension QueryParameters {
  /// The point in the parameters `names`, both required: the latitude read first, then the
  /// longitude (`−180…360`), so that the first fault named is the first a client would fix.
  /// - Parameter expected: what a good value of each looks like, for the message.
  /// - Throws: `FaceError` naming the parameter that is missing, empty, not a decimal
  ///   number or out of range.
  public func coordinate(
    names: (latitude: String, longitude: String) = ("latitude", "longitude"),
    expected: (latitude: String, longitude: String)
  ) throws(FaceError) -> Coordinate {
    let latitude = try Coordinate.latitude(
      required(names.latitude, expected: expected.latitude), name: names.latitude, expected: expected.latitude)
    let longitude = try Coordinate.longitude(
      required(names.longitude, expected: expected.longitude), name: names.longitude, expected: expected.longitude)
    return Coordinate(checkedLatitude: latitude, longitude: longitude)
  }
}
