import FNV
import UTCTime
import XMLText

/// A point's warnings as a CAP 1.2 alert (OASIS Common Alerting Protocol, namespace
/// `urn:oasis:names:tc:emergency:cap:1.2`): one `info` block per warning, its `area` the
/// model cells' outlines (docs/alerts.md).
///
/// An evaluation with no warning is an alert with no `info` block, which the CAP 1.2
/// schema allows (`info` is optional), and a `note` saying that nothing is in force: a
/// reader following a link gets a valid document rather than an error.
public struct CAPDocument: Sendable {
  public let evaluation: WarningEvaluation
  /// CAP's `sender`: an identifier of the publisher, e.g. `nwpcube@forecast.example.org`.
  public let sender: String

  public init(evaluation: WarningEvaluation, sender: String) {
    self.evaluation = evaluation
    self.sender = sender
  }

  /// Why `sender` cannot be CAP's `sender`, nil when it can: CAP 1.2 forbids spaces,
  /// commas, `<` and `&` in it (and an XML document cannot carry control characters).
  public static func senderProblem(_ sender: String) -> String? {
    guard !sender.isEmpty, sender.utf8.count <= 255 else { return "is not 1…255 bytes long" }
    if let bad = sender.unicodeScalars.first(where: { " ,<&".unicodeScalars.contains($0) || $0.value < 0x20 }) {
      return "holds '\(bad.value < 0x20 ? "control character" : String(bad))', which CAP forbids in a sender "
        + "(no spaces, commas, '<' or '&'); give an address such as nwpcube@forecast.example.org"
    }
    return nil
  }

  /// The document's `identifier`: the cell, the run and a digest of what the alert says,
  /// so that it is the same for the same run, cell and warnings (whichever point in the
  /// cell asked, and however often) and differs when any warning changes.
  public var identifier: String {
    let warnings = evaluation.warnings
    guard let cell = warnings.first?.cell ?? evaluation.cell else {
      return "nwpcube.uncovered." + UTC.runIdentifier(evaluation.start)
    }
    let where_ =
      "\(cell.provenance.model).\(cell.provenance.domain).\(cell.provenance.run)"
      + ".\(cell.i).\(cell.j)"
    guard !warnings.isEmpty else { return "nwpcube.\(Self.token(where_)).none.\(UTC.runIdentifier(evaluation.start))" }
    var digest = FNV1a()
    for warning in warnings {
      let p = warning.cell.provenance
      digest.add(
        "\(warning.rule.id)|\(p.model)|\(p.domain)|\(p.run)|\(warning.cell.i)|\(warning.cell.j)|\(warning.onset)|\(warning.expires)\n"
      )
    }
    return "nwpcube.\(Self.token(where_)).\(digest.hex)"
  }

  /// CAP's `sent`: the start of the newest run the warnings come from (the forecast's
  /// time, stable with the identifier), or of the run answering the point when none.
  public var sent: Int64 {
    evaluation.warnings.map(\.cell.runStart).max() ?? evaluation.cell?.runStart ?? evaluation.start
  }

  /// The XML text, UTF-8.
  public var xml: String {
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<alert xmlns=\"urn:oasis:names:tc:emergency:cap:1.2\">\n"
    Self.element(&out, "identifier", identifier, indent: 1)
    Self.element(&out, "sender", sender, indent: 1)
    Self.element(&out, "sent", Self.time(sent), indent: 1)
    Self.element(&out, "status", "Actual", indent: 1)
    Self.element(&out, "msgType", "Alert", indent: 1)
    Self.element(&out, "scope", "Public", indent: 1)
    if evaluation.warnings.isEmpty {
      Self.element(
        &out, "note",
        "No warning in force for this cell from \(UTC.iso8601(evaluation.start)) for \(evaluation.hours) hours.",
        indent: 1)
    }
    for warning in evaluation.warnings { info(&out, warning) }
    out += "</alert>\n"
    return out
  }

  /// One warning's `info` block, its elements in the order the CAP 1.2 schema requires.
  private func info(_ out: inout String, _ warning: Warning) {
    let rule = warning.rule
    out += "  <info>\n"
    Self.element(&out, "language", "en", indent: 2)
    Self.element(&out, "category", "Met", indent: 2)
    Self.element(&out, "event", rule.title, indent: 2)
    Self.element(&out, "urgency", rule.urgency.rawValue, indent: 2)
    Self.element(&out, "severity", rule.severity.rawValue, indent: 2)
    Self.element(&out, "certainty", rule.certainty.rawValue, indent: 2)
    Self.element(&out, "onset", Self.time(warning.onset), indent: 2)
    Self.element(&out, "expires", Self.time(warning.expires), indent: 2)
    Self.element(&out, "senderName", "nwpcube", indent: 2)
    Self.element(&out, "headline", rule.title, indent: 2)
    Self.element(&out, "description", rule.description, indent: 2)
    if let instruction = rule.instruction { Self.element(&out, "instruction", instruction, indent: 2) }
    let threshold = DecimalText.text(rule.threshold, places: 4)
    for (name, value) in [
      ("nwpcube:rule", rule.id), ("nwpcube:metric", rule.metric.name),
      ("nwpcube:threshold", "\(rule.comparison.rawValue) \(threshold) \(rule.unitLabel)"),
      ("nwpcube:duration_hours", String(rule.durationHours)),
      ("nwpcube:peak", "\(DecimalText.text(warning.peak, places: 2)) \(rule.unitLabel)"),
    ] {
      out += "    <parameter>\n"
      Self.element(&out, "valueName", name, indent: 3)
      Self.element(&out, "value", value, indent: 3)
      out += "    </parameter>\n"
    }
    out += "    <area>\n"
    Self.element(&out, "areaDesc", warning.areaDescription, indent: 3)
    // CAP's area is the union of its polygons: a moving nest's cells at the warning's hours.
    for cell in warning.area { Self.element(&out, "polygon", cell.polygon, indent: 3) }
    out += "    </area>\n"
    out += "  </info>\n"
  }

  /// `<name>text</name>` on a line of its own, the text escaped.
  private static func element(_ out: inout String, _ name: String, _ text: String, indent: Int) {
    out += String(repeating: "  ", count: indent) + "<\(name)>" + XMLText.escaped(text) + "</\(name)>\n"
  }

  /// CAP's date form: ISO 8601 with a numeric offset, never `Z`, UTC written `-00:00`.
  static func time(_ instant: Int64) -> String {
    String(UTC.iso8601(instant).dropLast()) + "-00:00"
  }

  /// `text` with every character CAP's identifier forbids (space, comma, `<`, `&`) and
  /// any other that is not a letter, digit, `-`, `.` or `_` replaced by `_`.
  private static func token(_ text: String) -> String {
    String(
      text.map { character in
        character.isASCII && (character.isLetter || character.isNumber || "-._".contains(character)) ? character : "_"
      })
  }
}
