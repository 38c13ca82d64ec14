import Foundation
import Meteorology
import Testing
import Warnings
import _TestSupport

/// The alerts file: the shipped example reads as written, and every fault is refused with
/// the file, the line, the rule and why.
@Suite struct WarningRulesTests {
  static let example = "\(SampleFiles.packageRoot)/docs/alerts.example"

  @Test func theExampleFileReadsAsWritten() throws {
    let rules = try WarningRules(path: Self.example).rules
    #expect(rules.map(\.id) == ["heavy-rain", "very-heavy-rain", "strong-gusts", "extreme-heat", "hard-frost"])
    let rain = try #require(rules.first)
    #expect(rain.title == "Heavy rain")
    #expect(rain.metric == .rain && rain.comparison == .above && rain.threshold == 10 && rain.unitLabel == "mm/h")
    #expect(rain.durationHours == 1 && rain.validityHours == 48)
    #expect(rain.severity == .moderate && rain.urgency == .expected && rain.certainty == .likely)
    #expect(rain.instruction == "Avoid flooded roads and underpasses.")
    let heat = rules[3]
    #expect(heat.metric == .apparentTemp && heat.threshold == 40 && heat.unitLabel == "°C")
    #expect(heat.durationHours == 3 && heat.validityHours == 72 && heat.severity == .severe)
    let frost = rules[4]
    #expect(frost.comparison == .below && frost.threshold == -5 && frost.metric == .temp && frost.instruction == nil)
  }

  /// A threshold with a unit is compared in that unit: 70 km/h against gusts in m/s, with
  /// the km/h factor written here independently (1 m/s = 3.6 km/h exactly).
  @Test func aThresholdInAnotherUnitIsComparedInThatUnit() throws {
    let gusts = try #require(try WarningRules(path: Self.example).rules.first { $0.id == "strong-gusts" })
    #expect(gusts.threshold == 70 && gusts.unitLabel == "km/h")
    for metresPerSecond in stride(from: 18.0, through: 21.0, by: 0.01) {
      let kmh = metresPerSecond * 3.6
      #expect(gusts.triggers(gusts.inThresholdUnit(metresPerSecond)) == (kmh > 70), "\(metresPerSecond) m/s")
    }
    let text = "[f]\ntitle = t\nmetric = temp\nabove = 104 F\nseverity = minor\ndescription = d\n"
    let fahrenheit = try #require(try WarningRules(text: text, path: "f").rules.first)
    #expect(fahrenheit.unitLabel == "°F" && fahrenheit.severity == .minor)
    #expect(fahrenheit.triggers(fahrenheit.inThresholdUnit(40.01)))
    #expect(!fahrenheit.triggers(fahrenheit.inThresholdUnit(39.99)))
  }

  /// A file of one good rule with `line` replaced or added, for the fault cases.
  static func rule(_ changes: [String: String?], extra: [String] = []) -> String {
    var fields: [(String, String?)] = [
      ("title", "Heavy rain"), ("metric", "rain"), ("above", "10 mm/h"), ("severity", "Moderate"),
      ("description", "Rain."),
    ]
    for (name, value) in changes {
      if let index = fields.firstIndex(where: { $0.0 == name }) {
        fields[index].1 = value
      } else {
        fields.append((name, value))
      }
    }
    return
      (["# alerts", "[heavy-rain]"] + fields.compactMap { name, value in value.map { "\(name) = \($0)" } }
      + extra).joined(separator: "\n") + "\n"
  }

  static let faults: [(text: String, message: String)] = [
    (
      rule(["metric": "rian"]),
      "alerts file bad, line 4 (rule heavy-rain): unknown metric 'rian'; known: "
        + Metric.queryable.map(\.name).joined(separator: ", ")
    ),
    (
      rule(["above": "ten mm/h"]),
      "alerts file bad, line 5 (rule heavy-rain): above: 'ten mm/h' is not a number with an optional unit; "
        + "e.g. above = 10 mm/h, above = 70 km/h or below = -5 °C"
    ),
    (
      rule(["above": "10 km/h"]),
      "alerts file bad, line 5 (rule heavy-rain): above: unit 'km/h' is not a unit of rain; use mm, mm/h, in, in/h "
        + "(or no unit for mm)"
    ),
    (
      rule(["severity": "High"]),
      "alerts file bad, line 6 (rule heavy-rain): severity 'High' is not a CAP severity; "
        + "use Extreme, Severe, Moderate, Minor or Unknown"
    ),
    (
      rule(["urgency": "Soon"]),
      "alerts file bad, line 8 (rule heavy-rain): urgency 'Soon' is not a CAP urgency; "
        + "use Immediate, Expected, Future, Past or Unknown"
    ),
    (
      rule(["certainty": "Sure"]),
      "alerts file bad, line 8 (rule heavy-rain): certainty 'Sure' is not a CAP certainty; "
        + "use Observed, Likely, Possible, Unlikely or Unknown"
    ),
    (rule(["title": nil]), "alerts file bad, line 2 (rule heavy-rain): no title; give title = …"),
    (rule(["description": nil]), "alerts file bad, line 2 (rule heavy-rain): no description; give description = …"),
    (
      rule(["severity": nil]),
      "alerts file bad, line 2 (rule heavy-rain): no severity; give severity = one of "
        + "Extreme, Severe, Moderate, Minor or Unknown"
    ),
    (rule(["title": ""]), "alerts file bad, line 3 (rule heavy-rain): title is empty; give title = …"),
    (
      rule([:], extra: ["[heavy-rain]"]),
      "alerts file bad, line 8 (rule heavy-rain): the id of line 2 again; give each rule an id of its own"
    ),
    (
      rule(["below": "3"]),
      "alerts file bad, line 8 (rule heavy-rain): both above and below; a rule has one threshold "
        + "(write two rules for a range)"
    ),
    (
      rule(["above": nil]),
      "alerts file bad, line 2 (rule heavy-rain): no threshold; give above = VALUE [UNIT] or below = VALUE [UNIT], "
        + "e.g. above = 10 mm/h"
    ),
    (
      rule(["colour": "red"]),
      "alerts file bad, line 8 (rule heavy-rain): unknown field 'colour'; fields: title, metric, above, below, "
        + "duration_hours, validity_hours, severity, urgency, certainty, description, instruction"
    ),
    (
      rule([:], extra: ["title = Again"]),
      "alerts file bad, line 8 (rule heavy-rain): title given twice (first on line 3)"
    ),
    (
      rule([:], extra: ["just words"]),
      "alerts file bad, line 8 (rule heavy-rain): 'just words' is neither [id] nor field = value"
    ),
    (
      rule(["duration_hours": "50"]),
      "alerts file bad, line 8 (rule heavy-rain): duration_hours '50' is not a whole number of hours in 1…48"
    ),
    (
      rule(["validity_hours": "0"]),
      "alerts file bad, line 8 (rule heavy-rain): validity_hours '0' is not a whole number of hours in 1…384"
    ),
    (
      rule(["description": "Tab\u{7}bell"]),
      "alerts file bad, line 7 (rule heavy-rain): description holds a control character"
    ),
    ("title = x\n", "alerts file bad, line 1: 'title' is outside a rule; start each rule with a line [id]"),
    (
      "[heavy rain]\n",
      "alerts file bad, line 1: '[heavy rain]' is not a rule id; an id is 1…64 letters, digits, '-', '.' or '_'"
    ),
    ("[open\n", "alerts file bad, line 1: '[open' opens a rule without closing it; write [id]"),
    (
      "# nothing\n\n",
      "alerts file bad: holds no rule; write one [id] section per threshold, e.g. [heavy-rain] with title, metric, "
        + "above, severity and description (docs/alerts.md)"
    ),
  ]

  @Test(arguments: faults.indices) func aFaultIsRefusedNamingTheLineTheRuleAndWhy(_ index: Int) {
    let (text, message) = Self.faults[index]
    #expect(throws: AlertsFileError.self) { _ = try WarningRules(text: text, path: "bad") }
    do {
      _ = try WarningRules(text: text, path: "bad")
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func aFileThatCannotBeReadIsRefusedNamingIt() {
    do {
      _ = try WarningRules(path: "/nonexistent/alerts")
      Issue.record("read a file that does not exist")
    } catch {
      #expect(error.file == "/nonexistent/alerts" && error.line == nil)
      #expect(error.description.hasPrefix("alerts file /nonexistent/alerts: cannot be read: "), "\(error)")
    }
  }

  @Test func theGoodRuleOfTheFaultCasesReads() throws {
    let rules = try WarningRules(text: Self.rule([:]), path: "good")
    #expect(rules.rules.count == 1 && rules.rules[0].unitLabel == "mm/h")
    let crlf = Self.rule([:]).replacingOccurrences(of: "\n", with: "\r\n")
    #expect(try WarningRules(text: crlf, path: "good").rules[0].description == "Rain.")
  }
}
