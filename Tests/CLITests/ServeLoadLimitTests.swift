import Foundation
import Testing
import _TestSupport

/// `nwpcube serve`'s load-limit flags: a count that is not one is refused before the server
/// listens, naming the flag.
@Suite struct ServeLoadLimitTests {
  @Test(arguments: [
    (["--max-requests=-1"], "--max-requests -1 is not a count of requests in 0…1000000 (0 sets no cap)"),
    (
      ["--max-client-requests", "1000001"],
      "--max-client-requests 1000001 is not a count of requests in 0…1000000 (0 sets no cap)"
    ),
  ])
  func aLoadLimitThatIsNotACountIsRefusedNamingTheFlag(flags: [String], message: String) throws {
    let outcome = try CommandLineTool.run(["serve", "--store", "/nonexistent", "--port", "0"] + flags)
    #expect(outcome.status == 64, "\(outcome.standardError)")
    #expect(outcome.standardError.hasPrefix("Error: \(message)"), "\(outcome.standardError)")
  }
}
