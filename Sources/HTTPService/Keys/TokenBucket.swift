/// One key's token bucket: it holds up to `limit.count` tokens, refills at `limit.count`
/// per period, and each request takes one.
///
/// Time is whatever clock the caller reads (nanoseconds on a monotonic clock), so that
/// tests step it by hand instead of sleeping. The arithmetic is in integers: a token is
/// `period` units and the bucket gains `count` units a nanosecond, so that a refill due at
/// an exact instant comes at that instant, not a rounding error later.
struct TokenBucket: Sendable {
  let limit: RateLimit
  /// The period in nanoseconds: one token's worth of units.
  private let period: Int64
  /// Units in the bucket, 0…`count × period` (at most 3.6 × 10¹⁸, within Int64).
  private var level: Int64
  private var updated: Int64

  /// A full bucket at `now`.
  init(limit: RateLimit, now: Int64) {
    self.limit = limit
    self.period = Int64(limit.seconds) * 1_000_000_000
    self.level = Int64(limit.count) * period
    self.updated = now
  }

  /// Takes a token at `now`: nil when one was there, otherwise the whole seconds until one
  /// will be (at least 1), for `Retry-After`.
  mutating func take(now: Int64) -> Int? {
    let count = Int64(limit.count)
    // A clock that went backwards (it should not) refills nothing rather than draining;
    // a period refills the whole bucket, so longer is the same and cannot overflow.
    let elapsed = min(max(0, now - updated), period)
    level = min(count * period, level + elapsed * count)
    updated = max(updated, now)
    if level >= period {
      level -= period
      return nil
    }
    let nanoseconds = (period - level + count - 1) / count
    return max(1, Int((nanoseconds + 999_999_999) / 1_000_000_000))
  }
}
