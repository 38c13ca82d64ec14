import JSONOutput

/// Numbers as CAP and messages print them: fixed decimals, never an exponent (Swift's own
/// description writes 0.00005 as `5e-05`, which no CAP reader takes for a coordinate).
enum DecimalText {
  /// `value` rounded to `places` (0…9) decimal places, without trailing zeros: `38.1294`,
  /// `-8.93`, `15`.
  static func text(_ value: Double, places: Int) -> String {
    guard value.isFinite else { return "0" }
    if let text = DecimalFormat.fixedText(value, places: places) { return text }
    // Beyond fixed notation's 15 digits: the whole number, where an integer holds it.
    let rounded = value.rounded()
    return rounded.magnitude < 9e18 ? String(Int64(rounded)) : "\(rounded)"
  }
}
