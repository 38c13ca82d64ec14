/// A key's rate limit as the keys file writes it: `limit=N/s`, `N/min` or `N/h`.
///
/// Enforced as a token bucket that holds `count` tokens and refills `count` of them each
/// `period`: a client may spend a whole period's requests at once, then waits for tokens.
struct RateLimit: Sendable, Equatable, CustomStringConvertible {
  /// Requests per period, 1…1,000,000.
  let count: Int
  /// The period in seconds: 1, 60 or 3,600.
  let seconds: Int

  static let periods: [(unit: String, seconds: Int, words: String)] = [
    ("s", 1, "second"), ("min", 60, "minute"), ("h", 3_600, "hour"),
  ]
  static let counts = 1...1_000_000

  /// Reads `N/s`, `N/min` or `N/h`.
  /// - Throws: the reason, for the keys file's error.
  init(parsing text: Substring) throws(RateLimitSyntax) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let period = Self.periods.first(where: { $0.unit == parts[1] }) else {
      throw RateLimitSyntax(reason: "limit '\(text)' is not N/s, N/min or N/h (e.g. limit=60/min)")
    }
    guard parts[0].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
      let count = Int(parts[0]), Self.counts.contains(count)
    else {
      throw RateLimitSyntax(
        reason: "limit '\(text)': '\(parts[0])' is not a whole number of requests in 1…\(Self.counts.upperBound)")
    }
    self.count = count
    self.seconds = period.seconds
  }

  /// "60 requests per minute".
  var description: String {
    let words = Self.periods.first { $0.seconds == seconds }?.words ?? "\(seconds) s"
    return "\(count) request\(count == 1 ? "" : "s") per \(words)"
  }
}

/// Why a limit could not be read.
struct RateLimitSyntax: Error {
  let reason: String
}
