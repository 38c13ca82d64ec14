import Foundation
import Testing
import _TestSupport

/// `nwpcube serve --alerts`: a faulty alerts file stops the server before it listens, with
/// one line naming the file, the line, the rule and why.
@Suite struct ServeAlertsTests {
  static let faults: [(text: String, message: String)] = [
    (
      "[heavy-rain]\ntitle = Heavy rain\nmetric = rian\n",
      "line 3 (rule heavy-rain): unknown metric 'rian'; known: "
    ),
    (
      "[heavy-rain]\ntitle = t\nmetric = rain\nabove = ten\n",
      "line 4 (rule heavy-rain): above: 'ten' is not a number with an optional unit; "
    ),
    (
      "[heavy-rain]\ntitle = t\nmetric = rain\nabove = 10\nseverity = Bad\ndescription = d\n",
      "line 5 (rule heavy-rain): severity 'Bad' is not a CAP severity; use Extreme, Severe, Moderate, Minor or Unknown"
    ),
    (
      "[heavy-rain]\nmetric = rain\nabove = 10\nseverity = Minor\ndescription = d\n",
      "line 1 (rule heavy-rain): no title; give title = …"
    ),
    (
      "[a]\ntitle = t\nmetric = rain\nabove = 10\nseverity = Minor\ndescription = d\n[a]\n",
      "line 7 (rule a): the id of line 1 again; give each rule an id of its own"
    ),
  ]

  @Test(arguments: faults.indices) func aFaultyAlertsFileIsRefusedAtStartUpNamingTheEntry(_ index: Int) throws {
    let directory = SampleFiles.temporaryDirectory("serve-alerts")
    defer { SampleFiles.remove(directory) }
    let file = "\(directory)/alerts"
    try Self.faults[index].text.write(toFile: file, atomically: true, encoding: .utf8)
    let outcome = try CommandLineTool.run(["serve", "--store", directory, "--port", "0", "--alerts", file])
    #expect(outcome.status == 64, "\(outcome.standardError)")
    let lines = outcome.standardError.split(separator: "\n")
    let first = lines.first.map(String.init) ?? ""
    #expect(first.hasPrefix("Error: --alerts: alerts file \(file), \(Self.faults[index].message)"), "\(first)")
  }

  @Test func aMissingAlertsFileIsRefusedNamingIt() throws {
    let outcome = try CommandLineTool.run(["serve", "--store", "/nonexistent", "--alerts", "/nonexistent/alerts"])
    #expect(outcome.status == 64)
    #expect(
      outcome.standardError.hasPrefix("Error: --alerts: alerts file /nonexistent/alerts: cannot be read: "),
      "\(outcome.standardError)")
  }

  @Test func aSenderCAPForbidsIsRefused() throws {
    let example = "\(SampleFiles.packageRoot)/docs/alerts.example"
    let bad = try CommandLineTool.run([
      "serve", "--store", "/nonexistent", "--alerts", example, "--alerts-sender", "nwpcube at home",
    ])
    #expect(bad.status == 64)
    #expect(
      bad.standardError.hasPrefix(
        "Error: --alerts-sender 'nwpcube at home' holds ' ', which CAP forbids in a sender (no spaces, commas, '<' or "
          + "'&'); give an address such as nwpcube@forecast.example.org"), "\(bad.standardError)")
    let alone = try CommandLineTool.run(["serve", "--store", "/nonexistent", "--alerts-sender", "a@b"])
    #expect(alone.status == 64)
    #expect(
      alone.standardError.hasPrefix(
        "Error: --alerts-sender names the sender of the warnings of --alerts FILE, which is not given"),
      "\(alone.standardError)")
  }
}
