import Meteorology

extension WarningRules {
  /// The fields a rule may have, in the order messages list them.
  static let fields = [
    "title", "metric", "above", "below", "duration_hours", "validity_hours", "severity", "urgency", "certainty",
    "description", "instruction",
  ]
  /// The longest id, as the keys file's names.
  static let maximumIdLength = 64
  /// The longest text field: a paragraph or two, as national services' descriptions are.
  static let maximumTextLength = 2_000
  /// How far ahead a rule may look: the hours a forecast may ask for.
  static let validityLimit = 1...384
  /// The default validity: the two days ahead national services warn for.
  static let defaultValidityHours = 48

  /// A rule's lines as read, before they are checked.
  private struct Section {
    let id: String
    let line: Int
    var fields: [String: (value: Substring, line: Int)] = [:]
  }

  /// Checks `text` as the contents of the alerts file `path`.
  public init(text: String, path: String) throws(AlertsFileError) {
    var sections: [Section] = []
    var current: Section?
    for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
      let number = index + 1
      func fault(_ reason: String) -> AlertsFileError {
        AlertsFileError(file: path, line: number, rule: current?.id, reason: reason)
      }
      let line = Self.trimmed(rawLine)
      if line.isEmpty || line.hasPrefix("#") { continue }
      if line.hasPrefix("[") {
        guard line.hasSuffix("]"), line.count >= 2 else {
          throw fault("'\(line.prefix(80))' opens a rule without closing it; write [id]")
        }
        let id = Self.trimmed(line.dropFirst().dropLast())
        guard (1...Self.maximumIdLength).contains(id.utf8.count), id.utf8.allSatisfy(Self.isIdByte) else {
          throw AlertsFileError(
            file: path, line: number,
            reason:
              "'[\(id.prefix(80))]' is not a rule id; an id is 1…\(Self.maximumIdLength) letters, digits, '-', '.' or '_'"
          )
        }
        if let earlier = (sections + (current.map { [$0] } ?? [])).first(where: { $0.id == id }) {
          throw AlertsFileError(
            file: path, line: number, rule: String(id),
            reason: "the id of line \(earlier.line) again; give each rule an id of its own")
        }
        if let current { sections.append(current) }
        current = Section(id: String(id), line: number)
        continue
      }
      guard let equals = line.firstIndex(of: "=") else {
        throw fault("'\(line.prefix(80))' is neither [id] nor field = value")
      }
      let name = String(Self.trimmed(line[..<equals]))
      let value = Self.trimmed(line[line.index(after: equals)...])
      guard current != nil else {
        throw fault("'\(name.prefix(80))' is outside a rule; start each rule with a line [id]")
      }
      guard Self.fields.contains(name) else {
        throw fault("unknown field '\(name.prefix(80))'; fields: \(Self.fields.joined(separator: ", "))")
      }
      if let earlier = current?.fields[name] { throw fault("\(name) given twice (first on line \(earlier.line))") }
      current?.fields[name] = (value, number)
    }
    if let current { sections.append(current) }
    guard !sections.isEmpty else {
      throw AlertsFileError(
        file: path, line: nil,
        reason: "holds no rule; write one [id] section per threshold, e.g. [heavy-rain] with title, metric, "
          + "above, severity and description (docs/alerts.md)")
    }
    self.init(
      rules: try sections.map { section throws(AlertsFileError) in try Self.rule(section, path: path) }, path: path)
  }

  /// The rule a section describes, every field checked.
  private static func rule(_ section: Section, path: String) throws(AlertsFileError) -> WarningRule {
    func fault(_ reason: String, at name: String? = nil) -> AlertsFileError {
      AlertsFileError(
        file: path, line: name.flatMap { section.fields[$0]?.line } ?? section.line, rule: section.id, reason: reason)
    }
    func text(_ name: String, required: Bool) throws(AlertsFileError) -> String? {
      guard let value = section.fields[name]?.value else {
        guard !required else { throw fault("no \(name); give \(name) = …") }
        return nil
      }
      guard !value.isEmpty else { throw fault("\(name) is empty; give \(name) = …", at: name) }
      guard value.count <= maximumTextLength else {
        throw fault("\(name) is \(value.count) characters long; at most \(maximumTextLength)", at: name)
      }
      // XML 1.0 cannot carry most control characters at all, and no text needs one.
      guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
        throw fault("\(name) holds a control character", at: name)
      }
      return String(value)
    }
    func code<Value: CAPValue>(_: Value.Type, default fallback: Value?) throws(AlertsFileError) -> Value {
      guard let written = section.fields[Value.field]?.value else {
        guard let fallback else { throw fault("no \(Value.field); give \(Value.field) = one of \(Value.allowed)") }
        return fallback
      }
      guard let value = Value(parsing: written) else {
        throw fault(
          "\(Value.field) '\(written.prefix(80))' is not a CAP \(Value.field); use \(Value.allowed)", at: Value.field)
      }
      return value
    }
    func hours(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws(AlertsFileError) -> Int {
      guard let written = section.fields[name]?.value else { return fallback }
      guard let value = Int(written), range.contains(value) else {
        throw fault(
          "\(name) '\(written.prefix(80))' is not a whole number of hours in \(range.lowerBound)…\(range.upperBound)",
          at: name)
      }
      return value
    }

    let title = try text("title", required: true) ?? ""
    guard let metricName = section.fields["metric"]?.value else {
      throw fault("no metric; give metric = one of \(Metric.queryable.map(\.name).joined(separator: ", "))")
    }
    guard let metric = Metric.named(String(metricName)) else {
      throw fault(
        "unknown metric '\(metricName.prefix(80))'; known: \(Metric.queryable.map(\.name).joined(separator: ", "))",
        at: "metric")
    }
    let comparison: WarningRule.Comparison
    switch (section.fields["above"], section.fields["below"]) {
    case (.some, .some):
      throw fault("both above and below; a rule has one threshold (write two rules for a range)", at: "below")
    case (.some, nil): comparison = .above
    case (nil, .some): comparison = .below
    case (nil, nil):
      throw fault("no threshold; give above = VALUE [UNIT] or below = VALUE [UNIT], e.g. above = 10 mm/h")
    }
    let field = comparison.rawValue
    let threshold: Threshold
    do throws(Threshold.Syntax) {
      threshold = try Threshold(parsing: section.fields[field]?.value ?? "", metric: metric)
    } catch {
      throw fault("\(field): \(error.reason)", at: field)
    }
    let validity = try hours("validity_hours", in: validityLimit, default: defaultValidityHours)
    let duration = try hours("duration_hours", in: 1...validity, default: 1)
    return WarningRule(
      id: section.id, title: title, metric: metric, comparison: comparison, threshold: threshold.value,
      unit: threshold.unit, unitLabel: threshold.label, durationHours: duration, validityHours: validity,
      severity: try code(CAPSeverity.self, default: nil), urgency: try code(CAPUrgency.self, default: .expected),
      certainty: try code(CAPCertainty.self, default: .likely),
      description: try text("description", required: true) ?? "", instruction: try text("instruction", required: false))
  }

  /// `text` without spaces and tabs at either end.
  private static func trimmed(_ text: Substring) -> Substring {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) }) else {
      return text[text.endIndex...]
    }
    return text[first...last]
  }

  private static func isIdByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
      true
    default: false
    }
  }
}
