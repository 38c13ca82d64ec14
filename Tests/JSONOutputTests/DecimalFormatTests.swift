import JSONOutput
import Testing

/// The one formatter against the four it replaced, kept here as they were as oracles:
/// `JSONBytes.number` (the hot JSON answers), `JSONText.number` (the answers built as
/// strings), `DecimalText.text` (CAP) and `Legend.number` (legends). Every double may
/// reach a formatter, so the values are random bit patterns (subnormals, NaN payloads and
/// infinities included) as well as forecast-like values, the halves at every rounding
/// digit with their neighbours, and the edges of fixed notation.
@Suite struct DecimalFormatTests {
  /// Values that exercise every branch: ±0, halves at each rounding digit and one ulp
  /// either side, 10^15 and 10^21 around the fixed-notation limit, Int64's ends, the
  /// smallest subnormal, NaN and the infinities, and random values of both kinds.
  static let values: [Double] = {
    var generator = SystemRandomNumberGenerator()
    var values: [Double] = [
      0, -0.0, 1, -1, 0.5, -0.5, 1.5, 2.5, -2.5, 0.05, -0.05, 0.00004, -0.00004, 1e-5, 1e-10, 21.37, -8.9341,
      38.1294, 65_534, 1e14, -1e14, 1e15, -1e15, 1e15 - 1, 1e21, -1e21, 9.2e18, 9.3e18, -9.3e18, 1e300,
      .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
      -.greatestFiniteMagnitude, .infinity, -.infinity, .nan, -.nan, .signalingNaN, .ulpOfOne,
    ]
    var power = 1.0
    for _ in 0...9 {
      for whole in [0.0, 1, 2, 3, 7, 12, 99, 12_345, 999_999] {
        for half in [(whole + 0.5) / power, -(whole + 0.5) / power] {
          values += [half, half.nextUp, half.nextDown]
        }
      }
      power *= 10
    }
    for _ in 0..<100_000 {
      values.append(Double(bitPattern: UInt64.random(in: .min ... .max, using: &generator)))
      values.append(Double.random(in: -2_000...2_000, using: &generator))
    }
    for _ in 0..<20_000 {
      values.append(Double(Int.random(in: -10_000_000...10_000_000, using: &generator)) / 10_000)
      values.append(Double.random(in: -1e16...1e16, using: &generator))
      values.append(Double.random(in: -1e-3...1e-3, using: &generator))
    }
    return values
  }()

  /// The writer of the hot JSON answers gives `JSONBytes.number`'s text for every value
  /// and every count of places, and `JSONText.number`'s for 0–4 places, where the two
  /// agreed (beyond, `JSONText` wrote `1e-05` where `JSONBytes` wrote `0.00001`).
  @Test func jsonNumbersAreTheTextOfTheFormattersTheyReplace() {
    var differing: [String] = []
    for value in Self.values {
      for places in 0...9 {
        var writer = JSONWriter(capacity: 8)
        writer.number(value, decimals: places)
        let expected = Old.jsonBytesNumber(value, decimals: places)
        if writer.text != expected { differing.append("\(value) at \(places): \(writer.text) ≠ \(expected)") }
        if DecimalFormat.json(value, places: places) != expected {
          differing.append("json(\(value), \(places)) ≠ \(expected)")
        }
        if places <= 4, Old.jsonTextNumber(value, decimals: places) != expected {
          differing.append("JSONText \(value) at \(places): \(Old.jsonTextNumber(value, decimals: places))")
        }
      }
      if differing.count > 20 { break }
    }
    #expect(differing.isEmpty, "\(differing.prefix(8))")
    var missing = JSONWriter(capacity: 8)
    missing.number(nil, decimals: 2)
    #expect(missing.text == "null")
  }

  /// CAP's numbers and the legends' labels are the fixed text wherever the old code wrote
  /// fixed notation: every finite value whose scaled magnitude is below 10^15.
  @Test func capAndLegendNumbersAreTheFixedText() {
    var differing: [String] = []
    for value in Self.values {
      for places in 0...9 {
        guard let fixed = DecimalFormat.fixedText(value, places: places) else {
          #expect(!value.isFinite || DecimalFormat.scaled(value, places: places).magnitude >= 1e15)
          continue
        }
        if fixed != Old.decimalText(value, places: places) { differing.append("CAP \(value) at \(places): \(fixed)") }
        if places <= 3, fixed != Old.legendNumber(value, digits: places) {
          differing.append("legend \(value) at \(places): \(fixed) ≠ \(Old.legendNumber(value, digits: places))")
        }
      }
      if differing.count > 20 { break }
    }
    #expect(differing.isEmpty, "\(differing.prefix(8))")
  }

  /// The fixed text read back as a double is the value rounded to its places, to the
  /// nearest double: checked against the standard library's parser, independently of
  /// any formatter.
  @Test func fixedTextReadsBackAsTheRoundedValue() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<50_000 {
      let places = Int.random(in: 0...9, using: &generator)
      let scaled = Int64.random(in: -999_999_999_999_999...999_999_999_999_999, using: &generator)
      var power = 1.0
      for _ in 0..<places { power *= 10 }
      let value = Double(scaled) / power
      guard let text = DecimalFormat.fixedText(value, places: places) else {
        Issue.record("\(value) declined at \(places)")
        continue
      }
      #expect(!text.contains("e") && !text.contains("E"))
      #expect(Double(text) == (value * power).rounded() / power, "\(value) at \(places): \(text)")
      if text.contains(".") { #expect(!text.hasSuffix("0"), "\(text) keeps a trailing zero") }
    }
  }
}

/// The formatters `DecimalFormat` replaced, copied as they were.
enum Old {
  static func jsonTextNumber(_ value: Double?, decimals: Int) -> String {
    guard let value, value.isFinite else { return "null" }
    var factor = 1.0
    for _ in 0..<decimals { factor *= 10 }
    let rounded = (value * factor).rounded() / factor
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
    return "\(rounded)"
  }

  static func jsonBytesNumber(_ value: Double?, decimals: Int) -> String {
    guard let value, value.isFinite else { return "null" }
    let places = min(max(decimals, 0), 9)
    var factor = 1.0
    for _ in 0..<places { factor *= 10 }
    let scaled = (value * factor).rounded()
    guard abs(scaled) < 1e15 else { return jsonTextNumber(value, decimals: decimals) }
    let whole = Int64(scaled)
    var out = whole < 0 ? "-" : ""
    var magnitude = whole.magnitude
    var divisor: UInt64 = 1
    for _ in 0..<places { divisor *= 10 }
    out += String(magnitude / divisor)
    magnitude %= divisor
    guard magnitude != 0 else { return out }
    var places2 = places
    while magnitude % 10 == 0 {
      magnitude /= 10
      places2 -= 1
    }
    let digits = String(magnitude)
    return out + "." + String(repeating: "0", count: places2 - digits.count) + digits
  }

  static func decimalText(_ value: Double, places: Int) -> String {
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

  static func legendNumber(_ value: Double, digits: Int) -> String {
    let power = (0..<digits).reduce(1.0) { value, _ in value * 10 }
    var scaled = (value * power).rounded() / power
    if scaled == 0 { scaled = 0 }
    if scaled == scaled.rounded(), abs(scaled) < 1e15 { return String(Int(scaled)) }
    return String(scaled)
  }
}
