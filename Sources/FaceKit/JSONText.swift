import JSONOutput

/// A small JSON writer: key order as given, numbers rounded to each metric's precision
/// (a quantized 21.37 prints as 21.37, not 21.370000000000001).
public enum JSONText {
  public static func string(_ text: String) -> String {
    // Keys and most values need no escaping; copying them whole is several times faster
    // than appending scalar by scalar, and the HTTP service writes many per answer.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
      return "\"" + text + "\""
    }
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

  /// `value` rounded to `decimals` places (0…9) as a JSON number, `null` for nil and
  /// non-finite values: `DecimalFormat.json`, the text every answer writes.
  public static func number(_ value: Double?, decimals: Int) -> String {
    DecimalFormat.json(value, places: decimals)
  }

  public static func object(_ members: [(String, String)]) -> String {
    var out = "{"
    out.reserveCapacity(members.reduce(2) { $0 + $1.0.utf8.count + $1.1.utf8.count + 4 })
    for (index, (name, value)) in members.enumerated() {
      if index > 0 { out += "," }
      out += string(name)
      out += ":"
      out += value
    }
    return out + "}"
  }

  public static func array(_ elements: [String]) -> String {
    "[" + elements.joined(separator: ",") + "]"
  }
}
