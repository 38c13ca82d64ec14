/// Text for XML documents: the CAP warnings, the meteogram's SVG and the tiles' legends all
/// write element content and attribute values through this one escaping.
public enum XMLText {
  /// `text` with XML's five special characters as entities, safe as element content and
  /// as a quoted attribute value.
  public static func escaped(_ text: String) -> String {
    guard text.contains(where: { "&<>\"'".contains($0) }) else { return text }
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      default: out.append(character)
      }
    }
    return out
  }
}
