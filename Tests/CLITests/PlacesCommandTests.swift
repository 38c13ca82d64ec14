import Foundation
import Testing
import _TestSupport

/// `nwpcube places`, run as a user runs it.
@Suite struct PlacesCommandTests {
  static let file = SampleFiles.grid("places/cities1000_PT_ES.txt")

  @Test func aNameListsItsPlacesMostPopulousFirst() throws {
    let table = try CommandLineTool.run(["places", "évora", "--places", Self.file, "--count", "3"])
    #expect(table.status == 0, "\(table.standardError)")
    let rows = table.standardOutput.split(separator: "\n")
    #expect(rows.count == 2)
    #expect(rows.dropFirst().first?.hasPrefix("2268406   Évora ") == true, "\(table.standardOutput)")
    let json = try CommandLineTool.run(["places", "lisboa", "--places", Self.file, "--json"])
    #expect(json.status == 0, "\(json.standardError)")
    let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
    let first = (object?["results"] as? [[String: Any]])?.first
    #expect(first?["id"] as? Int == 2_267_057)
  }

  @Test func badInputGetsOneLineNamingItsCause() throws {
    let count = try CommandLineTool.run(["places", "porto", "--places", Self.file, "--count", "101"])
    #expect(count.status == 64)
    #expect(count.standardError.contains("--count 101 is not in 1…100"))
    let directory = SampleFiles.temporaryDirectory("places-cli")
    defer { SampleFiles.remove(directory) }
    let bad = "\(directory)/cities.txt"
    try Data("1\tA\tA\t\tninety\t0\tP\tPPL\tPT\t\t\t\t\t\t0\t\t\t\t\n".utf8).write(to: URL(fileURLWithPath: bad))
    let malformed = try CommandLineTool.run(["places", "a", "--places", bad])
    #expect(malformed.status == 1)
    #expect(
      malformed.standardError.contains(
        "\(bad):1: column 5 (latitude): 'ninety' is not a decimal number of degrees in -90…90"),
      "\(malformed.standardError)")
  }
}
