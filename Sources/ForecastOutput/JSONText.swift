/// A small JSON writer: key order as given, numbers rounded to each metric's precision
/// (a quantized 21.37 prints as 21.37, not 21.370000000000001).
public enum JSONText {
  public static func string(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  public static func number(_ value: Double?, decimals: Int) -> String {
    guard let value, value.isFinite else { return "null" }
    var factor = 1.0
    for _ in 0..<decimals { factor *= 10 }
    let rounded = (value * factor).rounded() / factor
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
    return "\(rounded)"
  }

  public static func object(_ members: [(String, String)]) -> String {
    "{" + members.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }

  public static func array(_ elements: [String]) -> String {
    "[" + elements.joined(separator: ",") + "]"
  }
}
