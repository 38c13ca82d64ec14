import Foundation
import Testing

@testable import HTTPService

/// The keys file: what it holds when good, and for each fault a refusal naming the file,
/// the line and why, without quoting a key.
@Suite struct APIKeyFileTests {
  static let key1 = "3f9c2d0e6b1a47c88e5d2f4a9b7c6e1d"
  static let key2 = "K~ey.with_every-allowed.character0123456789"

  @Test func aGoodFileGivesEachKeyItsNameAndLimitAndSkipsCommentsAndBlankLines() throws {
    let text = """
      # nwpcube keys

      \(Self.key1)  name=ipma-app\tlimit=10/s   # the app
      \t\(Self.key2) limit=60/min\r
      \(String(repeating: "z", count: 128)) limit=5/h name=z.z
      """
    let file = try APIKeyFile(text: text, path: "keys.txt")
    #expect(file.keys.map(\.name) == ["ipma-app", "line-4", "z.z"])
    #expect(
      file.keys.map { String(decoding: $0.secret, as: UTF8.self) } == [
        Self.key1, Self.key2, String(repeating: "z", count: 128),
      ])
    #expect(file.keys.map(\.limit?.count) == [10, 60, 5])
    #expect(file.keys.map(\.limit?.seconds) == [1, 60, 3_600])
    #expect(file.keys[1].limit?.description == "60 requests per minute")
  }

  @Test(arguments: [
    (
      "short1234567890123456789012345", 1,
      "the key is 30 characters long; a key has at least 32 (make one with: openssl rand -hex 32)"
    ),
    (String(repeating: "a", count: 129), 1, "the key is 129 characters long; a key has at most 128"),
    ("\(key1)/x", 1, "character 33 of the key is not allowed; a key holds only letters, digits, '-', '.', '_' and '~'"),
    ("\(key1)\n# again\n\(key1) name=b", 3, "the key of line 1 again; give each key once"),
    ("\(key1) \(key2)", 1, "field 2 is neither name=NAME nor limit=N/PERIOD; one key a line"),
    ("\(key1) name=a name=b", 1, "name given twice"),
    ("\(key1) limit=1/s limit=2/s", 1, "limit given twice"),
    ("\(key1) name=", 1, "name '' is not 1…64 letters, digits, '-', '.' or '_'"),
    ("\(key1) name=a/b", 1, "name 'a/b' is not 1…64 letters, digits, '-', '.' or '_'"),
    ("\(key1) limit=10", 1, "limit '10' is not N/s, N/min or N/h (e.g. limit=60/min)"),
    ("\(key1) limit=10/day", 1, "limit '10/day' is not N/s, N/min or N/h (e.g. limit=60/min)"),
    ("\(key1) limit=0/s", 1, "limit '0/s': '0' is not a whole number of requests in 1…1000000"),
    ("\(key1) limit=-1/s", 1, "limit '-1/s': '-1' is not a whole number of requests in 1…1000000"),
    (
      "\(key1) limit=99999999999999999999/s", 1,
      "limit '99999999999999999999/s': '99999999999999999999' is not a whole number of requests in 1…1000000"
    ),
  ])
  func aFaultyLineIsRefusedNamingTheFileTheLineAndWhy(text: String, line: Int, reason: String) {
    #expect(throws: KeyFileError(file: "keys.txt", line: line, reason: reason)) {
      try APIKeyFile(text: text, path: "keys.txt")
    }
  }

  @Test func theMessageNamesTheFileAndLineAndQuotesNoKey() throws {
    let error = #expect(throws: KeyFileError.self) {
      try APIKeyFile(text: "# keys\n\(Self.key1) \(Self.key2)\n", path: "/etc/nwpcube/keys")
    }
    #expect(
      error?.description
        == "keys file /etc/nwpcube/keys, line 2: field 2 is neither name=NAME nor limit=N/PERIOD; one key a line")
    #expect(error?.description.contains(Self.key2) == false)
  }

  @Test func aFileWithoutKeysOrThatCannotBeReadIsRefused() throws {
    #expect(
      throws: KeyFileError(
        file: "k", line: nil, reason: "holds no key; write one key a line, e.g. KEY name=NAME limit=60/min")
    ) {
      try APIKeyFile(text: "# only a comment\n\n", path: "k")
    }
    let directory = NSTemporaryDirectory() + "nwpcube-keys-\(UUID().uuidString)"
    let missing = directory + "/absent"
    #expect(throws: KeyFileError(file: missing, line: nil, reason: "cannot be opened: No such file or directory")) {
      try APIKeyFile(path: missing)
    }
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let binary = directory + "/binary"
    try Data([0x33, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: binary))
    #expect(throws: KeyFileError(file: binary, line: nil, reason: "is not UTF-8 text")) { try APIKeyFile(path: binary) }
    let good = directory + "/good"
    try "\(Self.key1) name=one\n".write(toFile: good, atomically: true, encoding: .utf8)
    #expect(try APIKeySettings(file: good).count == 1)
    try? FileManager.default.removeItem(atPath: directory)
  }
}
