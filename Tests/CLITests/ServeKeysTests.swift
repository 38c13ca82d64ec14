import Foundation
import Testing
import _TestSupport

/// `nwpcube serve --keys`: a faulty keys file stops the server before it listens, with the
/// file, the line and why.
@Suite struct ServeKeysTests {
  @Test func aFaultyKeysFileIsRefusedAtStartUpNamingTheFileTheLineAndWhy() throws {
    let directory = SampleFiles.temporaryDirectory("serve-keys")
    defer { SampleFiles.remove(directory) }
    let keys = "\(directory)/keys"
    try "# keys\nshort name=x\n".write(toFile: keys, atomically: true, encoding: .utf8)
    let outcome = try CommandLineTool.run(["serve", "--store", directory, "--port", "0", "--keys", keys])
    #expect(outcome.status == 64, "\(outcome.standardError)")
    let first = outcome.standardError.split(separator: "\n").first.map(String.init) ?? ""
    #expect(
      first
        == "Error: --keys: keys file \(keys), line 2: the key is 5 characters long; a key has at least 32 "
        + "(make one with: openssl rand -hex 32)")
  }

  @Test func theLegacyExemptionNeedsKeys() throws {
    let outcome = try CommandLineTool.run(["serve", "--store", "/nonexistent", "--keys-exempt-legacy"])
    #expect(outcome.status == 64)
    #expect(
      outcome.standardError.hasPrefix(
        "Error: --keys-exempt-legacy exempts the legacy endpoints from --keys FILE, which is not given"),
      "\(outcome.standardError)")
  }
}
