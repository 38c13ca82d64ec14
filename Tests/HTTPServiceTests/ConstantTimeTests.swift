import Synchronization
import Testing

@testable import HTTPService

/// `ConstantTime.equal`: right answers, and the same bytes read wherever the candidate
/// differs, which is what keeps its time from telling how near a guess came.
@Suite struct ConstantTimeTests {
  /// Bytes that count how often they are read.
  struct CountingBytes: RandomAccessCollection {
    let bytes: [UInt8]
    let reads = Counter()
    var startIndex: Int { 0 }
    var endIndex: Int { bytes.count }
    subscript(position: Int) -> UInt8 {
      reads.count.add(1, ordering: .relaxed)
      return bytes[position]
    }
  }

  final class Counter: Sendable {
    let count = Atomic<Int>(0)
  }

  static let secret = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

  @Test func equalOnlyForTheSameBytes() {
    let secret = Self.secret
    #expect(ConstantTime.equal(secret, secret))
    #expect(ConstantTime.equal(secret[...], secret))
    #expect(ConstantTime.equal([UInt8](), []))
    #expect(!ConstantTime.equal([UInt8](), secret))
    #expect(!ConstantTime.equal(secret, []))
    #expect(!ConstantTime.equal(Array(secret.dropLast()), secret))
    #expect(!ConstantTime.equal(secret + [0], secret))
    // A shorter candidate is not read as if padded with zeros that the secret might hold.
    #expect(!ConstantTime.equal([1, 0], [1]))
    #expect(!ConstantTime.equal([1], [1, 0]))
    for index in secret.indices {
      var changed = secret
      changed[index] ^= 0x01
      #expect(!ConstantTime.equal(changed, secret), "byte \(index)")
      changed[index] = secret[index] ^ 0x80
      #expect(!ConstantTime.equal(changed, secret), "byte \(index)")
    }
    // A slice not starting at 0 is read from its own start.
    let padded = [9] + secret
    #expect(ConstantTime.equal(padded[1...], secret))
  }

  @Test func everyByteIsReadWhereverTheCandidateDiffers() {
    let secret = Self.secret
    for index in secret.indices {
      var changed = secret
      changed[index] ^= 0xFF
      let candidate = CountingBytes(bytes: changed)
      #expect(!ConstantTime.equal(candidate, secret))
      #expect(candidate.reads.count.load(ordering: .relaxed) == secret.count, "differing at byte \(index)")
    }
    let same = CountingBytes(bytes: secret)
    #expect(ConstantTime.equal(same, secret))
    #expect(same.reads.count.load(ordering: .relaxed) == secret.count)
    // A shorter candidate: each of its bytes once, the rest of the secret compared with zero.
    let short = CountingBytes(bytes: [0x41])
    #expect(!ConstantTime.equal(short, secret))
    #expect(short.reads.count.load(ordering: .relaxed) == 1)
  }
}
