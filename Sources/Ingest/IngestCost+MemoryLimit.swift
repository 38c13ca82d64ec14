import Foundation

extension IngestCost {
  /// The budget ingest plans within unless `--max-memory` says otherwise: 512 MiB,
  /// whatever the grid and the run's length (`defaultBudget`).
  public static func defaultMaxMemory() -> Int {
    defaultBudget
  }

  /// The bytes of a size such as `512M`, `4G`, `1.5T` or `1000000` (binary units: K, M, G
  /// and T are 2^10, 2^20, 2^30 and 2^40 bytes; a trailing `B` or `iB` is allowed), or the
  /// reason it is not one.
  public static func bytes(parsing text: String) -> Result<Int, IngestError> {
    let refusal = IngestError(
      path: "--max-memory", reason: "'\(text)' is not a size: give bytes or a number with K, M, G or T, e.g. 512M or 4G"
    )
    var body = Substring(text.trimmingCharacters(in: .whitespaces)).uppercased()[...]
    if body.hasSuffix("IB") { body = body.dropLast(2) } else if body.hasSuffix("B") { body = body.dropLast() }
    let exponents: [Character: Double] = ["K": 10, "M": 20, "G": 30, "T": 40]
    var multiplier = 1.0
    if let last = body.last, let exponent = exponents[last] {
      multiplier = pow(2, exponent)
      body = body.dropLast()
    }
    guard let number = Double(body), number.isFinite, number > 0 else { return .failure(refusal) }
    let bytes = number * multiplier
    guard bytes >= 1_048_576, bytes < 1e18 else {
      return .failure(
        IngestError(path: "--max-memory", reason: "'\(text)' is outside 1M…\(Int(1e18 / 1_099_511_627_776))T"))
    }
    return .success(Int(bytes))
  }
}
