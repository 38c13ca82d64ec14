/// The 64-bit FNV-1a hash: a stable digest for identifiers and validators (Swift's `Hasher`
/// is seeded per process, so its values change from one start to the next). CAP
/// identifiers, the web page's and the meteogram's ETags and the tiles' ETags all use it.
public struct FNV1a {
  public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  public init() {}

  /// The digest of `bytes`.
  public init(_ bytes: some Sequence<UInt8>) { add(bytes) }

  /// Adds the UTF-8 of `text`.
  public mutating func add(_ text: String) { add(text.utf8) }

  /// Adds `bytes`.
  public mutating func add(_ bytes: some Sequence<UInt8>) {
    for byte in bytes {
      value ^= UInt64(byte)
      value = value &* 0x0000_0100_0000_01b3
    }
  }

  /// The digest as 16 lower-case hexadecimal digits.
  public var hex: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
