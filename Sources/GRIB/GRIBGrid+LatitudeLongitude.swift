import Foundation

extension GRIBGrid {
  /// Coordinates of a `regular_ll`, `regular_gg` or `rotated_ll` grid: a latitude per row
  /// and a longitude per column (in the rotated frame for `rotated_ll`, then turned back).
  static func latitudeLongitude(
    _ handle: GRIBHandle, gridType: String, width: Int, height: Int, scanning: Scanning
  ) throws(GRIBError) -> Coordinates {
    func fail(_ reason: String, key: String) -> GRIBError {
      GRIBError(reason: reason, path: handle.path, message: handle.message, key: key)
    }
    let firstLatitude = try handle.double("latitudeOfFirstGridPointInDegrees")
    let lastLatitude = try handle.double("latitudeOfLastGridPointInDegrees")
    let rows: [Double]
    if gridType == "regular_gg" {
      rows = try gaussianRows(handle, first: firstLatitude, last: lastLatitude, height: height, scanning: scanning)
    } else {
      rows = try axis(
        handle, first: firstLatitude, last: lastLatitude, count: height, increment: "jDirectionIncrementInDegrees")
      guard rows.allSatisfy({ abs($0) <= 90.000_001 }) else {
        throw fail(
          "rows from \(firstLatitude) to \(lastLatitude) are not latitudes", key: "latitudeOfLastGridPointInDegrees")
      }
      if height > 1, (lastLatitude > firstLatitude) != scanning.jPositive {
        throw fail(
          "the last row \(lastLatitude) lies \(scanning.jPositive ? "south" : "north") of the first \(firstLatitude), against jScansPositively = \(scanning.jPositive ? 1 : 0)",
          key: "latitudeOfLastGridPointInDegrees")
      }
    }
    let firstLongitude = try handle.double("longitudeOfFirstGridPointInDegrees")
    var lastLongitude = try handle.double("longitudeOfLastGridPointInDegrees")
    // The last point lies a whole number of turns from where the scan reaches it.
    guard firstLongitude.isFinite, lastLongitude.isFinite, abs(firstLongitude) <= 720, abs(lastLongitude) <= 720 else {
      throw fail("\(firstLongitude) to \(lastLongitude) are not longitudes", key: "longitudeOfLastGridPointInDegrees")
    }
    if scanning.iNegative {
      while lastLongitude > firstLongitude { lastLongitude -= 360 }
    } else {
      while lastLongitude < firstLongitude { lastLongitude += 360 }
    }
    let columns = try axis(
      handle, first: firstLongitude, last: lastLongitude, count: width, increment: "iDirectionIncrementInDegrees"
    ).map { $0 >= 360 ? $0 - 360 : $0 < -180 ? $0 + 360 : $0 }
    if gridType == "rotated_ll" {
      return try rotated(handle, rows: rows, columns: columns)
    }
    var latitudes = [Float](repeating: 0, count: width * height)
    var longitudes = [Float](repeating: 0, count: width * height)
    for j in 0..<height {
      for i in 0..<width {
        latitudes[j * width + i] = Float(rows[j])
        longitudes[j * width + i] = Float(columns[i])
      }
    }
    return Coordinates(latitudes: latitudes, longitudes: longitudes, projection: nil)
  }

  /// `count` values from `first` to `last`, evenly spaced; a single value is `first`.
  /// The spacing comes from the ends, not from the increment key, whose rounding (to a
  /// millionth of a degree, or a thousandth in edition 1) would accumulate across a row.
  private static func axis(
    _ handle: GRIBHandle, first: Double, last: Double, count: Int, increment: String
  ) throws(GRIBError) -> [Double] {
    guard first.isFinite, last.isFinite else {
      throw GRIBError(
        reason: "the first or last point is not a number", path: handle.path, message: handle.message, key: increment)
    }
    guard count > 1 else { return [first] }
    let step = (last - first) / Double(count - 1)
    guard step != 0 else {
      throw GRIBError(
        reason: "\(count) points from \(first) to \(last) have no spacing", path: handle.path, message: handle.message,
        key: increment)
    }
    return (0..<count).map { first + Double($0) * step }
  }

  /// The latitudes of a regular Gaussian grid's rows: `Nj` consecutive Gaussian latitudes
  /// of the global grid of `N` rows per hemisphere, starting at the first point's.
  private static func gaussianRows(
    _ handle: GRIBHandle, first: Double, last: Double, height: Int, scanning: Scanning
  ) throws(GRIBError) -> [Double] {
    func fail(_ reason: String, key: String) -> GRIBError {
      GRIBError(reason: reason, path: handle.path, message: handle.message, key: key)
    }
    let n = try handle.long("N")
    guard n >= 1, 2 * n >= height, 2 * n <= GRIBLimits.sides.upperBound else {
      throw fail("N = \(n) parallels per hemisphere cannot hold \(height) rows", key: "N")
    }
    guard n <= GaussianLatitudes.largestN else {
      throw fail(
        "N = \(n) parallels per hemisphere is more than the \(GaussianLatitudes.largestN) whose latitudes the reader computes",
        key: "N")
    }
    let global = GaussianLatitudes.northToSouth(count: 2 * n)
    // The file rounds latitudes to a millionth of a degree (a thousandth in edition 1).
    guard
      let start = global.indices.min(by: { abs(global[$0] - first) < abs(global[$1] - first) }),
      abs(global[start] - first) < 0.002
    else {
      throw fail(
        "\(first) is not one of the \(2 * n) Gaussian latitudes of N = \(n)", key: "latitudeOfFirstGridPointInDegrees")
    }
    let direction = scanning.jPositive ? -1 : 1
    let end = start + direction * (height - 1)
    guard global.indices.contains(end), abs(global[end] - last) < 0.002 else {
      throw fail(
        "\(height) Gaussian rows of N = \(n) from \(first) do not end at \(last)",
        key: "latitudeOfLastGridPointInDegrees")
    }
    return (0..<height).map { global[start + direction * $0] }
  }

  /// A rotated grid's geographic coordinates: each point's latitude and longitude in the
  /// rotated frame turned back to the earth's, the frame's south pole at
  /// (`latitudeOfSouthernPoleInDegrees`, `longitudeOfSouthernPoleInDegrees`).
  private static func rotated(_ handle: GRIBHandle, rows: [Double], columns: [Double]) throws(GRIBError) -> Coordinates
  {
    let angle = try handle.optionalDouble("angleOfRotationInDegrees") ?? 0
    guard angle == 0 else {
      throw GRIBError(
        reason: "a rotation of \(angle)° about the rotated pole is not supported", path: handle.path,
        message: handle.message, key: "angleOfRotationInDegrees")
    }
    let poleLatitude = try handle.double("latitudeOfSouthernPoleInDegrees")
    let poleLongitude = try handle.double("longitudeOfSouthernPoleInDegrees")
    guard abs(poleLatitude) <= 90, poleLongitude.isFinite else {
      throw GRIBError(
        reason: "the rotated south pole \(poleLatitude), \(poleLongitude) is not a position on the globe",
        path: handle.path, message: handle.message, key: "latitudeOfSouthernPoleInDegrees")
    }
    let rotation = PoleRotation(southPoleLatitude: poleLatitude, southPoleLongitude: poleLongitude)
    let frame = Frame.rotated(southPoleLatitude: poleLatitude, southPoleLongitude: poleLongitude)
    let width = columns.count
    var latitudes = [Float](repeating: 0, count: width * rows.count)
    var longitudes = [Float](repeating: 0, count: width * rows.count)
    for (j, row) in rows.enumerated() {
      for (i, column) in columns.enumerated() {
        let (latitude, longitude) = rotation.geographic(latitude: row, longitude: column)
        latitudes[j * width + i] = Float(latitude)
        longitudes[j * width + i] = Float(longitude)
      }
    }
    return Coordinates(latitudes: latitudes, longitudes: longitudes, projection: nil, frame: frame)
  }
}
