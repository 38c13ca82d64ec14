import Testing
import _TestSupport

/// `nwpcube serve` over the sample store with `--flag=value` for each value: each run must
/// fail, and its standard error must hold the message `expected(value)` gives.
func expectServeRefuses(_ flag: String, _ values: [String], saying expected: (String) -> String) throws {
  for value in values {
    let outcome = try CommandLineTool.run(["serve", "--store", SampleService.store, "\(flag)=\(value)"])
    #expect(outcome.status != 0)
    #expect(outcome.standardError.contains(expected(value)), "\(value): \(outcome.standardError)")
  }
}
