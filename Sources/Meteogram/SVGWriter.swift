import FaceKit
import XMLText

/// SVG text written element by element: attribute values escaped, numbers with at most two
/// decimals in the C locale, so that the document is the same on every machine.
struct SVGWriter {
  private(set) var text = ""

  init() {
    text.reserveCapacity(64 * 1024)
  }

  /// `<name attributes/>`, or `<name attributes>content</name>` with `content` escaped.
  mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String>, content: String? = nil) {
    open(name, attributes, empty: content == nil, newline: content == nil)
    if let content {
      text += Self.escaped(content)
      close(name)
    }
  }

  /// `<name attributes>` (or `<name attributes/>` when `empty`), and a line break unless
  /// text content follows (which would then begin with it).
  mutating func open(
    _ name: String, _ attributes: KeyValuePairs<String, String> = [:], empty: Bool = false, newline: Bool = true
  ) {
    text += "<"
    text += name
    for (key, value) in attributes {
      text += " "
      text += key
      text += "=\""
      text += Self.escaped(value)
      text += "\""
    }
    text += empty ? "/>" : ">"
    if newline { text += "\n" }
  }

  mutating func close(_ name: String) {
    text += "</\(name)>\n"
  }

  /// Text with the five XML special characters escaped.
  static func escaped(_ text: String) -> String { XMLText.escaped(text) }

  /// A coordinate or value rounded to two decimals, without trailing zeros.
  static func number(_ value: Double) -> String {
    value.isFinite ? JSONText.number(value, decimals: 2) : "0"
  }

  /// `x,y x,y …` for a polyline.
  static func points(_ points: [(x: Double, y: Double)]) -> String {
    points.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
  }
}
