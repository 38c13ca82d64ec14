/// The one decimal formatter of nwpcube's answers: a number rounded to a fixed count of
/// decimal places, trailing zeros cut, never an exponent (`21.37`, `21.3`, `21`, `-0.5`,
/// `0.00004`). JSON documents, CSV cells, CAP coordinates, SVG labels and legends all
/// write their numbers through it, so that one value prints alike in every answer.
///
/// The digits come from the integer `(value · 10^places).rounded()`: that integer and the
/// decimal point are the whole text. A value whose scaled magnitude reaches 10^15 has more
/// digits than a double holds exactly; for it, and for NaN and the infinities, `fixed`
/// declines and each caller keeps its own rule (JSON writes `null`, or the rounded value
/// as Swift describes it).
public enum DecimalFormat {
  /// The most bytes `fixed(_:places:into:)` writes: a sign, 15 digits and a point.
  public static let maximumFixedLength = 17

  /// The largest scaled magnitude written in fixed notation.
  static let fixedLimit = 1e15

  /// `10^places`, exact for `places` in 0…9: a loop rather than a table, which as a global
  /// would be reached through its accessor on every number.
  @inlinable
  static func power(_ places: Int) -> Double {
    var factor = 1.0
    for _ in 0..<places { factor *= 10 }
    return factor
  }

  /// Clamps a count of decimal places to what `fixed` writes.
  @inlinable
  public static func clampedPlaces(_ places: Int) -> Int { min(max(places, 0), 9) }

  /// `value · 10^places` rounded half away from zero, `places` clamped to 0…9: the integer
  /// whose digits `fixed` writes.
  @inlinable
  public static func scaled(_ value: Double, places: Int) -> Double {
    (value * power(clampedPlaces(places))).rounded()
  }

  /// Writes `value` rounded to `places` (0…9) decimal places, without trailing zeros,
  /// into `target`, which has room for `maximumFixedLength` bytes, and returns the count
  /// written; nil (and nothing written) when `value` is not finite or its scaled magnitude
  /// is 10^15 or more.
  @inlinable
  public static func fixed(_ value: Double, places: Int, into target: UnsafeMutablePointer<UInt8>) -> Int? {
    let places = clampedPlaces(places)
    let scaled = (value * power(places)).rounded()
    // NaN fails the comparison too.
    guard scaled.magnitude < 1e15 else { return nil }
    let whole = Int64(scaled)
    var magnitude = whole.magnitude
    var fractionDigits = places
    // Trailing zeros of the fraction are not written.
    while fractionDigits > 0, magnitude % 10 == 0 {
      magnitude /= 10
      fractionDigits -= 1
    }
    // Digits lowest first into a scratch area, then copied in order: one division by the
    // constant 10 per digit (a multiplication once compiled).
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { scratch -> Int? in
      guard let base = scratch.baseAddress else { return nil }
      var position = 24
      var rest = magnitude
      var written = 0
      repeat {
        position -= 1
        scratch[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
        written += 1
        if written == fractionDigits {
          position -= 1
          scratch[position] = UInt8(ascii: ".")
        }
        // A fraction below one goes on to its leading zeros and the integer part's `0`.
      } while rest > 0 || written <= fractionDigits
      if whole < 0 {
        position -= 1
        scratch[position] = UInt8(ascii: "-")
      }
      let count = 24 - position
      target.initialize(from: base + position, count: count)
      return count
    }
  }

  /// `value` rounded to `places` decimal places as `fixed` writes it, nil where it declines.
  public static func fixedText(_ value: Double, places: Int) -> String? {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumFixedLength) { buffer in
      guard let base = buffer.baseAddress, let count = fixed(value, places: places, into: base) else { return nil }
      return String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }
  }

  /// `value` as a JSON number rounded to `places` decimal places: `fixed`'s text, `null`
  /// for nil, NaN and the infinities, and for a magnitude beyond fixed notation the
  /// rounded value as Swift describes it (`1e+15`), which JSON reads as the same number.
  public static func json(_ value: Double?, places: Int) -> String {
    guard let value, value.isFinite else { return "null" }
    return fixedText(value, places: places) ?? large(value, places: places)
  }

  /// The text of a finite `value` too large for fixed notation: the value rounded to
  /// `places` as Swift describes it, an integer where it is one below 10^15.
  public static func large(_ value: Double, places: Int) -> String {
    let factor = power(clampedPlaces(places))
    let rounded = (value * factor).rounded() / factor
    if rounded == rounded.rounded(), rounded.magnitude < 1e15 { return String(Int64(rounded)) }
    return "\(rounded)"
  }
}
