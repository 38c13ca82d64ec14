/// A number written rounded to a fixed number of decimal places, as every answer writes its
/// numbers (`DecimalFormat.json`): `21.37`, not `21.370000000000001`; `null` for nil and
/// non-finite values.
///
/// A document that is `Encodable` holds its numbers as these. `OrderedJSONEncoder` writes
/// their text; any other encoder gets the rounded value.
public struct JSONDecimal: Encodable, Sendable, Equatable {
  /// The value, nil for none.
  public var value: Double?
  /// The decimal places written, 0…9.
  public var places: Int

  /// `value` to be written with `places` decimal places.
  public init(_ value: Double?, places: Int) {
    self.value = value
    self.places = places
  }

  /// The value rounded to `places`, nil for none or a non-finite value (which JSON cannot
  /// write), for encoders that write their own number text.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    // The double nearest the text this type stands for.
    if let value, value.isFinite, let rounded = Double(DecimalFormat.json(value, places: places)) {
      try container.encode(rounded)
    } else {
      try container.encodeNil()
    }
  }
}
