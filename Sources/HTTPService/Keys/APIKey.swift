/// One key of a keys file: the secret a client passes, the name it is counted under, and
/// its rate limit if it has one.
struct APIKey: Sendable {
  /// The fewest characters a key may have: 32 characters of the allowed alphabet are at
  /// least 128 bits when made at random (`openssl rand -hex 16` gives 32), too many to guess.
  static let minimumLength = 32
  /// The most characters a key may have; a longer candidate is refused without comparing it.
  static let maximumLength = 128
  /// The longest name: names are metric labels and log fields, so they stay short.
  static let maximumNameLength = 64

  /// The key's bytes, compared in constant time (`ConstantTime.equal`).
  let secret: [UInt8]
  /// What `/metrics` and the log call the key; never the key itself.
  let name: String
  /// Requests allowed per period; nil for no limit.
  let limit: RateLimit?

  /// Whether `byte` may appear in a key: RFC 3986's unreserved characters, so that a key
  /// goes into a query string or a path segment as it is, without percent-encoding.
  static func isKeyByte(_ byte: UInt8) -> Bool {
    isNameByte(byte) || byte == UInt8(ascii: "~")
  }

  /// Whether `byte` may appear in a name: letters, digits, `-`, `_` and `.`, which need no
  /// escaping in a Prometheus label or a log line.
  static func isNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
      true
    default: false
    }
  }
}
