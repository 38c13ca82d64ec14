import CEcCodes
import Foundation
import GRIB

/// Writes GRIB2 messages for tests, from ecCodes' own sample templates
/// (`codes_grib_handle_new_from_samples`), with a grid, a parameter, a reference time, a
/// step and values of the test's choosing.
///
/// The writer shares no code with the product's reader: it sets keys through ecCodes and
/// asks ecCodes (its geoiterator) for the coordinates of the points it wrote, which the
/// tests use as the independent place of every value. Values are packed as IEEE floats
/// (`grid_ieee`) unless a field asks for simple packing, so a value written is the value
/// ecCodes decodes, to `Float`'s precision.
public enum GRIBWriter {
  /// Encodes one field on `grid` as a GRIB2 message.
  public static func message(_ field: GRIBTestField, on grid: GRIBTestGrid) throws(GRIBWriterError) -> [UInt8] {
    guard field.values.count == grid.width * grid.height else {
      throw GRIBWriterError(
        key: "values", reason: "\(field.values.count) values for a \(grid.width) × \(grid.height) grid")
    }
    return try withHandle(grid) { handle throws(GRIBWriterError) in
      try field.apply(to: handle)
      try setValues(field.values, handle)
      // ecCodes refuses complex packing of the sample's values: it repacks the field's.
      if case .complex = field.packing {
        try set("packingType", .text("grid_complex_spatial_differencing"), handle)
      }
      var bytes: UnsafeRawPointer?
      var count = 0
      try check(codes_get_message(handle, &bytes, &count), key: "message")
      guard let bytes else { throw GRIBWriterError(key: "message", reason: "ecCodes gave no message") }
      return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
  }

  /// Writes `messages` one after the other into a new file at `path`.
  public static func write(_ messages: [[UInt8]], to path: String) throws {
    try Data(messages.flatMap { $0 }).write(to: URL(fileURLWithPath: path))
  }

  /// Every point's latitude and longitude as ecCodes' geoiterator computes them for
  /// `grid`, in the message's value order (longitudes as ecCodes gives them: 0–360 for
  /// the grids it iterates in that range).
  public static func coordinates(
    of grid: GRIBTestGrid
  ) throws(GRIBWriterError) -> (
    latitudes: [Double], longitudes: [Double]
  ) {
    try withHandle(grid) { handle throws(GRIBWriterError) in
      try setValues([Double](repeating: 0, count: grid.width * grid.height), handle)
      return (try doubles("latitudes", handle), try doubles("longitudes", handle))
    }
  }

  /// The `2n` latitudes of the Gaussian grid with `n` rows per hemisphere, north to south,
  /// as ecCodes computes them.
  public static func gaussianLatitudes(_ n: Int) throws(GRIBWriterError) -> [Double] {
    var latitudes = [Double](repeating: 0, count: 2 * n)
    let status = GRIBLibrary.exclusively { codes_get_gaussian_latitudes(n, &latitudes) }
    try check(status, key: "N")
    return latitudes
  }

  /// A handle from `grid`'s sample with its keys set, lent to `body` under the GRIB
  /// module's lock and deleted afterwards.
  static func withHandle<R>(
    _ grid: GRIBTestGrid, _ body: (OpaquePointer) throws(GRIBWriterError) -> R
  ) throws(GRIBWriterError) -> R {
    try GRIBLibrary.exclusively { () throws(GRIBWriterError) -> R in
      guard let handle = codes_grib_handle_new_from_samples(nil, grid.sample) else {
        throw GRIBWriterError(key: "sample", reason: "no ecCodes sample \(grid.sample)")
      }
      defer { codes_handle_delete(handle) }
      for (key, value) in grid.keys { try set(key, value, handle) }
      // Bit 5 (value 8) of the flags: u and v relative to the grid's x and y, not east and north.
      var flags = 0
      try check(codes_get_long(handle, "resolutionAndComponentFlags", &flags), key: "resolutionAndComponentFlags")
      try set("resolutionAndComponentFlags", .integer(grid.gridRelativeWinds ? flags | 8 : flags & ~8), handle)
      return try body(handle)
    }
  }

  /// Sets one key.
  static func set(_ key: String, _ value: GRIBKeyValue, _ handle: OpaquePointer) throws(GRIBWriterError) {
    switch value {
    case .integer(let number): try check(codes_set_long(handle, key, number), key: key)
    case .real(let number): try check(codes_set_double(handle, key, number), key: key)
    case .text(let text):
      var length = text.utf8.count
      try check(codes_set_string(handle, key, text, &length), key: key)
    }
  }

  /// Sets the values; NaN ones become points a bitmap leaves out.
  static func setValues(_ values: [Double], _ handle: OpaquePointer) throws(GRIBWriterError) {
    try check(codes_set_long(handle, "numberOfDataPoints", values.count), key: "numberOfDataPoints")
    guard values.contains(where: \.isNaN) else {
      try check(codes_set_double_array(handle, "values", values, values.count), key: "values")
      return
    }
    // ecCodes leaves out of the bitmap the points whose value is `missingValue`.
    let missing = 9.999e20
    try check(codes_set_long(handle, "bitmapPresent", 1), key: "bitmapPresent")
    try check(codes_set_double(handle, "missingValue", missing), key: "missingValue")
    let marked = values.map { $0.isNaN ? missing : $0 }
    try check(codes_set_double_array(handle, "values", marked, marked.count), key: "values")
  }

  static func doubles(_ key: String, _ handle: OpaquePointer) throws(GRIBWriterError) -> [Double] {
    var count = 0
    try check(codes_get_size(handle, key, &count), key: key)
    var values = [Double](repeating: .nan, count: count)
    try check(codes_get_double_array(handle, key, &values, &count), key: key)
    return Array(values.prefix(count))
  }

  static func check(_ status: Int32, key: String) throws(GRIBWriterError) {
    guard status != 0 else { return }
    throw GRIBWriterError(key: key, reason: String(cString: codes_get_error_message(status)))
  }
}

/// A key's value for `GRIBWriter`: ecCodes sets each kind through its own function.
public enum GRIBKeyValue: Sendable, Equatable {
  case integer(Int)
  case real(Double)
  case text(String)
}

/// ecCodes refused a key the writer set.
public struct GRIBWriterError: Error, CustomStringConvertible {
  /// The key being set or read.
  public let key: String
  /// ecCodes' text, or the writer's.
  public let reason: String
  public var description: String { "GRIB writer: \(key): \(reason)" }
}
