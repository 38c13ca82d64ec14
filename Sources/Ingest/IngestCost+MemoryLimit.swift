import Foundation

extension IngestCost {
  /// The share of the machine's memory an ingest may plan to use unless `--max-memory`
  /// says otherwise: half, leaving the rest to the servers and the page cache of the
  /// machine it shares, so that an ingest refuses rather than drives the kernel to kill
  /// some process.
  public static let defaultMemoryShare = 0.5

  /// `defaultMemoryShare` of the memory this process may use: the machine's physical
  /// memory, or its control group's limit when that is lower (a container).
  public static func defaultMaxMemory() -> Int {
    let physical = Double(sysconf(Int32(_SC_PHYS_PAGES))) * Double(sysconf(Int32(_SC_PAGESIZE)))
    var available = physical > 0 ? physical : 4 * 1_073_741_824
    if let text = try? String(contentsOfFile: "/sys/fs/cgroup/memory.max", encoding: .utf8),
      let limit = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), limit > 0
    {
      available = Swift.min(available, limit)
    }
    return Int(available * defaultMemoryShare)
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
