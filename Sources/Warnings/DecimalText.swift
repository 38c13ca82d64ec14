/// Numbers as CAP and messages print them: fixed decimals, never an exponent (Swift's own
/// description writes 0.00005 as `5e-05`, which no CAP reader takes for a coordinate).
enum DecimalText {
  /// `value` rounded to `places` (0…9) decimal places, without trailing zeros: `38.1294`,
  /// `-8.93`, `15`.
  static func text(_ value: Double, places: Int) -> String {
    guard value.isFinite else { return "0" }
    var factor = 1.0
    for _ in 0..<places { factor *= 10 }
    let scaled = (value * factor).rounded()
    guard scaled.magnitude < 1e15 else { return String(Int64(value.rounded())) }
    let whole = Int64(scaled)
    let divisor = Int64(factor)
    let sign = whole < 0 ? "-" : ""
    var fraction = places == 0 ? "" : String(whole.magnitude % UInt64(divisor))
    if !fraction.isEmpty { fraction = String(repeating: "0", count: places - fraction.count) + fraction }
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return sign + String(whole.magnitude / UInt64(divisor)) + (fraction.isEmpty ? "" : "." + fraction)
  }
}
