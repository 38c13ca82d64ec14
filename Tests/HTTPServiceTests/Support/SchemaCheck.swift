import Foundation

/// Checks a JSON value against an OpenAPI 3.1 schema, for the keywords openapi.yaml uses:
/// `$ref`, `type` (one or a list), `enum`, `properties`, `required`,
/// `additionalProperties`, `items`, `minItems`, `maxItems`, `minimum`, `maximum` and `oneOf`.
/// A keyword it does not know is an error, so that the document cannot outgrow the check
/// unnoticed.
struct SchemaCheck {
  /// The whole document, for `$ref`s.
  let document: [String: Any]

  static let known: Set<String> = [
    "$ref", "type", "enum", "properties", "required", "additionalProperties", "items", "minItems", "maxItems",
    "minimum", "maximum", "oneOf", "description", "format", "pattern", "default",
  ]

  /// The problems of `value` against `schema`, each with its JSON path; empty when it conforms.
  func problems(_ value: Any, _ schema: [String: Any], at path: String = "$") -> [String] {
    if let unknown = schema.keys.first(where: { !Self.known.contains($0) }) {
      return ["\(path): the check does not know the schema keyword \(unknown)"]
    }
    if let reference = schema["$ref"] as? String {
      guard let target = resolve(reference) else { return ["\(path): unresolved \(reference)"] }
      return problems(value, target, at: path)
    }
    if let choices = schema["oneOf"] as? [[String: Any]] {
      let matching = choices.filter { problems(value, $0, at: path).isEmpty }.count
      return matching == 1 ? [] : ["\(path): matches \(matching) of oneOf's \(choices.count) schemas"]
    }
    if let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map({ [$0] }),
      !types.contains(where: { Self.isType(value, $0) })
    {
      return ["\(path): \(Self.describe(value)) is not \(types.joined(separator: " or "))"]
    }
    var found: [String] = []
    if let allowed = schema["enum"] as? [Any], !allowed.contains(where: { "\($0)" == "\(value)" }) {
      found.append("\(path): \(value) is not one of \(allowed)")
    }
    if let number = Self.number(value) {
      if let minimum = Self.number(schema["minimum"]), number < minimum {
        found.append("\(path): \(number) < \(minimum)")
      }
      if let maximum = Self.number(schema["maximum"]), number > maximum {
        found.append("\(path): \(number) > \(maximum)")
      }
    }
    if let array = value as? [Any] {
      if let minimum = schema["minItems"] as? Int, array.count < minimum {
        found.append("\(path): \(array.count) items, fewer than \(minimum)")
      }
      if let maximum = schema["maxItems"] as? Int, array.count > maximum {
        found.append("\(path): \(array.count) items, more than \(maximum)")
      }
      if let items = schema["items"] as? [String: Any] {
        for (index, item) in array.enumerated() { found += problems(item, items, at: "\(path)[\(index)]") }
      }
    }
    if let object = value as? [String: Any] {
      for name in schema["required"] as? [String] ?? [] where object[name] == nil {
        found.append("\(path): \(name) is missing")
      }
      let properties = schema["properties"] as? [String: Any] ?? [:]
      for (name, member) in object {
        if let property = properties[name] as? [String: Any] {
          found += problems(member, property, at: "\(path).\(name)")
        } else if schema["additionalProperties"] as? Bool == false {
          found.append("\(path): \(name) is not allowed")
        } else if let additional = schema["additionalProperties"] as? [String: Any] {
          found += problems(member, additional, at: "\(path).\(name)")
        }
      }
    }
    return found
  }

  /// The schema or parameter a local `$ref` (`#/components/…`) points at.
  func resolve(_ reference: String) -> [String: Any]? {
    guard reference.hasPrefix("#/") else { return nil }
    var node: Any = document
    for key in reference.dropFirst(2).split(separator: "/") {
      guard let next = (node as? [String: Any])?[String(key)] else { return nil }
      node = next
    }
    return node as? [String: Any]
  }

  /// Any JSON number (or YAML integer or real) is a number here; the one boolean of the API,
  /// Open-Meteo's `"error": true`, is checked by its type alone.
  static func number(_ value: Any?) -> Double? {
    switch value {
    case let value as Int: Double(value)
    case let value as Double: value
    case let value as NSNumber: value.doubleValue
    default: nil
    }
  }

  static func isType(_ value: Any, _ type: String) -> Bool {
    switch type {
    case "null": return value is NSNull
    case "string": return value is String
    case "boolean": return value is Bool
    case "object": return value is [String: Any]
    case "array": return value is [Any]
    case "number": return number(value) != nil
    case "integer": return number(value).map { $0 == $0.rounded() } ?? false
    default: return false
    }
  }

  static func describe(_ value: Any) -> String {
    let text = "\(value)"
    return text.count > 80 ? String(text.prefix(80)) + "…" : text
  }
}
