import Foundation
import Synchronization
import Testing

@testable import HTTPService

/// `APIKeyStore`: which key a candidate is, and the token buckets, on a clock the test
/// steps by hand, so that nothing depends on how fast the machine is.
@Suite struct APIKeyStoreTests {
  /// A clock that moves only when told.
  final class ManualClock: Sendable {
    private let nanoseconds = Mutex<Int64>(1_000_000_000_000)
    /// Moves the clock by `step` seconds (negative: backwards).
    func advance(_ step: Double) { nanoseconds.withLock { $0 += Int64(step * 1e9) } }
    var reading: @Sendable () -> Int64 { { self.nanoseconds.withLock { $0 } } }
  }

  static let limited = "limited-key-0123456789abcdefghijklmnop"
  static let free = "free-key-0123456789abcdefghijklmnopqrs"

  static func store(_ limit: String, clock: ManualClock) throws -> APIKeyStore {
    let file = try APIKeyFile(text: "\(limited) name=l limit=\(limit)\n\(free) name=f\n", path: "k")
    return APIKeyStore(file, now: clock.reading)
  }

  @Test func aCandidateIsTheKeyItEqualsAndNoOther() throws {
    let store = try Self.store("1/s", clock: ManualClock())
    #expect(store.verdict(for: Self.free) == .accepted(name: "f"))
    #expect(store.verdict(for: Self.free.dropLast()) == .unknown)
    #expect(store.verdict(for: Self.free + "s") == .unknown)
    #expect(store.verdict(for: "") == .unknown)
    #expect(store.verdict(for: Self.free.uppercased()) == .unknown)
    // A key without a limit is never limited.
    for _ in 0..<1_000 { #expect(store.verdict(for: Self.free) == .accepted(name: "f")) }
  }

  @Test func aBucketHoldsOnePeriodsRequestsAndRefillsAtTheLimitsRate() throws {
    let clock = ManualClock()
    let store = try Self.store("3/min", clock: clock)
    let limit = try RateLimit(parsing: "3/min")
    for _ in 0..<3 { #expect(store.verdict(for: Self.limited) == .accepted(name: "l")) }
    // A token every 20 s: the next is 20 s away, then 0.5 s away, rounded up to 1.
    #expect(store.verdict(for: Self.limited) == .limited(name: "l", limit: limit, retryAfter: 20))
    clock.advance(19.5)
    #expect(store.verdict(for: Self.limited) == .limited(name: "l", limit: limit, retryAfter: 1))
    clock.advance(0.5)
    #expect(store.verdict(for: Self.limited) == .accepted(name: "l"))
    #expect(store.verdict(for: Self.limited) == .limited(name: "l", limit: limit, retryAfter: 20))
    // A long rest fills the bucket to its size and no further.
    clock.advance(86_400)
    for _ in 0..<3 { #expect(store.verdict(for: Self.limited) == .accepted(name: "l")) }
    #expect(store.verdict(for: Self.limited) == .limited(name: "l", limit: limit, retryAfter: 20))
    // The other key's requests take nothing from this one's bucket.
    #expect(store.verdict(for: Self.free) == .accepted(name: "f"))
  }

  @Test func aClockGoingBackwardsRefillsNothing() throws {
    let clock = ManualClock()
    let store = try Self.store("1/h", clock: clock)
    let limit = try RateLimit(parsing: "1/h")
    #expect(store.verdict(for: Self.limited) == .accepted(name: "l"))
    clock.advance(-10_000)
    #expect(store.verdict(for: Self.limited) == .limited(name: "l", limit: limit, retryAfter: 3_600))
    clock.advance(10_000 + 3_599)
    #expect(store.verdict(for: Self.limited) == .limited(name: "l", limit: limit, retryAfter: 1))
    clock.advance(1)
    #expect(store.verdict(for: Self.limited) == .accepted(name: "l"))
  }

  @Test func aFastLimitWaitsAtLeastOneWholeSecond() throws {
    let clock = ManualClock()
    let store = try Self.store("1000/s", clock: clock)
    for _ in 0..<1_000 { #expect(store.verdict(for: Self.limited) == .accepted(name: "l")) }
    #expect(
      store.verdict(for: Self.limited) == .limited(name: "l", limit: try RateLimit(parsing: "1000/s"), retryAfter: 1))
    clock.advance(0.001)
    #expect(store.verdict(for: Self.limited) == .accepted(name: "l"))
  }

  @Test func theLargestLimitCountsExactlyWithoutOverflow() throws {
    var bucket = TokenBucket(limit: try RateLimit(parsing: "1000000/h"), now: 0)
    var taken = 0
    while bucket.take(now: 0) == nil { taken += 1 }
    #expect(taken == 1_000_000)
    // A token every 3.6 ms: one whole second at the least.
    #expect(bucket.take(now: 3_599_999) == 1)
    #expect(bucket.take(now: 3_600_000) == nil)
    // Idle for a year: full, and no more than full.
    taken = 0
    while bucket.take(now: 31_536_000_000_000_000) == nil { taken += 1 }
    #expect(taken == 1_000_000)
  }

  @Test func aReloadPutsTheNewKeysInForceAndAFaultyFileKeepsTheOld() throws {
    let path = try KeyedService.file("\(Self.free) name=f\n")
    let store = APIKeyStore(try APIKeyFile(path: path), now: ManualClock().reading)
    try "\(Self.limited) name=l limit=1/h\n".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(try store.reload().get() == 1)
    #expect(store.verdict(for: Self.free) == .unknown)
    #expect(store.verdict(for: Self.limited) == .accepted(name: "l"))
    try "\(Self.free) name=bad/name\n".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(
      throws: KeyFileError(file: path, line: 1, reason: "name 'bad/name' is not 1…64 letters, digits, '-', '.' or '_'")
    ) {
      try store.reload().get()
    }
    #expect(store.verdict(for: Self.free) == .unknown)
    #expect(store.names == ["l"])
    #expect(store.verdict(for: Self.limited) != .accepted(name: "l"))  // its bucket was kept, and is empty
  }

  @Test func aReloadKeepsTheBucketOfAKeyItKeepsWithTheSameLimit() throws {
    let path = try KeyedService.file("\(Self.limited) name=l limit=1/h\n\(Self.free) name=f limit=1/h\n")
    let clock = ManualClock()
    let store = APIKeyStore(try APIKeyFile(path: path), now: clock.reading)
    #expect(store.verdict(for: Self.limited) == .accepted(name: "l"))
    #expect(store.verdict(for: Self.free) == .accepted(name: "f"))
    // The same key and limit under a new name keeps its empty bucket; a changed limit starts
    // full.
    try "\(Self.limited) name=renamed limit=1/h\n\(Self.free) name=f limit=2/h\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    #expect(try store.reload().get() == 2)
    guard case .limited(name: "renamed", _, _) = store.verdict(for: Self.limited) else {
      Issue.record("a reload refilled the bucket of a key it kept with the same limit")
      return
    }
    #expect(store.verdict(for: Self.free) == .accepted(name: "f"))
  }
}
