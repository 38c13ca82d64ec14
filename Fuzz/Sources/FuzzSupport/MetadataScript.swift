import Foundation
import NetCDF

/// The netcdf_metadata target's input: a template name on the first line, then one
/// change per line. Text, so that seeds and findings can be read and written by hand and
/// libFuzzer's text mutations (with its dictionary of names) make sensible variants.
///
///     wrf                         the template: wrf, cf or mm5
///     :GRID_ID=1e300              set a global attribute
///     time:units="days since 1"   set a variable's attribute
///     Times[1]="2005-09-21_03:00:00"   set element (or char row) 1, modulo the count
///     XLAT[*]=0                   set every element
///     -:MAP_PROJ  -XLAT:units  -COSALPHA   remove an attribute or a variable
///
/// A value in double quotes is text; otherwise an integer, else a real (`nan`, `inf` and
/// `1e300` included; what follows a number is ignored), else text. At most `maximumLines` lines are applied.
public struct MetadataScript {
  public static let maximumLines = 64

  /// The template's name.
  public let template: String
  public let changes: [Substring]

  /// Parses `bytes`: the text form when they start with a template's name, else the binary
  /// form (`MetadataScript+Binary.swift`). Invalid UTF-8 is repaired, not refused.
  public init(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    var lines = text.split(whereSeparator: \.isNewline)
    let first = lines.first.map { $0.trimmingSpaces() } ?? ""
    guard MetadataTemplates.names.contains(first) else {
      self.init(binary: bytes)
      return
    }
    lines.removeFirst()
    self.init(template: first, changes: Array(lines.prefix(Self.maximumLines)))
  }

  init(template: String, changes: [Substring]) {
    self.template = template
    self.changes = changes
  }

  /// The script as text, the form a finding is reported in.
  public var text: String { ([template[...]] + changes).joined(separator: "\n") + "\n" }

  /// `document` with the changes applied; lines that name nothing are skipped.
  public func apply(to document: NetCDFDocument) -> NetCDFDocument {
    var document = document
    for line in changes { Self.apply(line, to: &document) }
    return document
  }

  static func apply(_ line: Substring, to document: inout NetCDFDocument) {
    if line.hasPrefix("-") {
      remove(line.dropFirst().trimmingSpaces(), from: &document)
      return
    }
    guard let equals = line.firstIndex(of: "=") else { return }
    let target = line[..<equals].trimmingSpaces()
    let value = parseValue(line[line.index(after: equals)...])
    if let colon = target.firstIndex(of: ":") {
      let variable = String(target[..<colon])
      let name = String(target[target.index(after: colon)...])
      guard !name.isEmpty else { return }
      if variable.isEmpty {
        setAttribute(name, value, in: &document.attributes)
      } else if let index = document.index(of: variable) {
        setAttribute(name, value, in: &document.variables[index].attributes)
      }
    } else if let open = target.firstIndex(of: "["), target.hasSuffix("]") {
      let name = String(target[..<open])
      let element = target[target.index(after: open)..<target.index(before: target.endIndex)]
      guard let index = document.index(of: name) else { return }
      setElement(String(element), value, of: &document.variables[index])
    }
  }

  static func remove(_ target: String, from document: inout NetCDFDocument) {
    if let colon = target.firstIndex(of: ":") {
      let variable = String(target[..<colon])
      let name = String(target[target.index(after: colon)...])
      if variable.isEmpty {
        document.attributes.removeAll { $0.name == name }
      } else if let index = document.index(of: variable) {
        document.variables[index].attributes.removeAll { $0.name == name }
      }
    } else {
      document.variables.removeAll { $0.name == target }
    }
  }

  static func setAttribute(
    _ name: String, _ value: NCAttribute, in attributes: inout [(name: String, value: NCAttribute)]
  ) {
    if let index = attributes.firstIndex(where: { $0.name == name }) {
      attributes[index].value = value
    } else {
      attributes.append((name, value))
    }
  }

  static func setElement(_ element: String, _ value: NCAttribute, of variable: inout NetCDFDocument.Variable) {
    let count = variable.type == .char ? variable.rows.count : variable.values.count
    guard count > 0 else { return }
    let indices: [Int]
    if element == "*" {
      indices = Array(0..<count)
    } else if let index = Int(element) {
      indices = [((index % count) + count) % count]
    } else {
      return
    }
    for index in indices {
      if variable.type == .char {
        variable.rows[index] = value.text ?? value.number.map { "\($0)" } ?? ""
      } else {
        variable.values[index] = value.number ?? .nan
      }
    }
  }

  static func parseValue(_ raw: Substring) -> NCAttribute {
    let text = raw.trimmingSpaces()
    if text.hasPrefix("\"") {
      let body = text.dropFirst()
      return .text(String(body.hasSuffix("\"") ? body.dropLast() : body))
    }
    if let integer = Int64(text) { return .integers([integer]) }
    // The longest prefix that reads as a number (C's strtod: "nan", "inf", "1e300",
    // hexadecimal), so that a mutation that leaves something after a number still sets a
    // number.
    let real = text.withCString { start -> Double? in
      var end: UnsafeMutablePointer<CChar>?
      let value = strtod(start, &end)
      return end.map { $0 > UnsafeMutablePointer(mutating: start) } == true ? value : nil
    }
    return real.map { .reals([$0]) } ?? .text(text)
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs.
  func trimmingSpaces() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
