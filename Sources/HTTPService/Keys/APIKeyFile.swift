import Platform

/// A keys file read and checked: `nwpcube serve --keys FILE` (docs/keys.md).
///
/// One key a line, then optional fields separated by spaces or tabs; `#` starts a comment
/// (no key or name can hold one) and blank lines are skipped:
///
///     # name and limit are optional
///     3f9c2d0e6b1a47c88e5d2f4a9b7c6e1d  name=ipma-app  limit=10/s
///     c4e8a1f09b2d4c6e8a0b1c2d3e4f5a6b  name=station-feed
///
/// A key is 32…128 of the characters `A–Z a–z 0–9 - . _ ~` (unreserved in URLs). A name is
/// 1…64 of `A–Z a–z 0–9 - . _`; a key without one is named `line-N` after its line. Keys
/// sharing a name are counted together. Every fault is refused with the file, the line and
/// why, and no message quotes a key: the log is not the place for secrets.
struct APIKeyFile: Sendable {
  /// The file as given.
  let path: String
  /// The keys in file order; at least one.
  let keys: [APIKey]

  /// The most bytes a keys file may have: thousands of keys, far more than any operator
  /// writes by hand, and a mistaken path to a large file is refused rather than read.
  static let maximumBytes = 1 << 20

  /// Reads and checks the file at `path`.
  init(path: String) throws(KeyFileError) {
    try self.init(text: try Self.contents(of: path), path: path)
  }

  /// Checks `text` as the contents of the file `path`.
  init(text: String, path: String) throws(KeyFileError) {
    var keys: [APIKey] = []
    var lines: [[UInt8]: Int] = [:]
    for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
      let number = index + 1
      func fault(_ reason: String) -> KeyFileError { KeyFileError(file: path, line: number, reason: reason) }
      let content = line.prefix { $0 != "#" }
      let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard let first = fields.first else { continue }
      let secret = Array(first.utf8)
      guard secret.count >= APIKey.minimumLength else {
        throw fault(
          "the key is \(secret.count) characters long; a key has at least \(APIKey.minimumLength) "
            + "(make one with: openssl rand -hex 32)")
      }
      guard secret.count <= APIKey.maximumLength else {
        throw fault("the key is \(secret.count) characters long; a key has at most \(APIKey.maximumLength)")
      }
      if let bad = secret.firstIndex(where: { !APIKey.isKeyByte($0) }) {
        throw fault(
          "character \(bad + 1) of the key is not allowed; a key holds only letters, digits, '-', '.', '_' and '~'")
      }
      if let earlier = lines[secret] { throw fault("the key of line \(earlier) again; give each key once") }
      lines[secret] = number
      var name: String?
      var limit: RateLimit?
      for (position, field) in fields.enumerated().dropFirst() {
        if field.hasPrefix("name=") {
          guard name == nil else { throw fault("name given twice") }
          name = try Self.name(field.dropFirst(5), fault: fault)
        } else if field.hasPrefix("limit=") {
          guard limit == nil else { throw fault("limit given twice") }
          do throws(RateLimitSyntax) {
            limit = try RateLimit(parsing: field.dropFirst(6))
          } catch {
            throw fault(error.reason)
          }
        } else {
          // Not quoted: a field that is neither may be a second key pasted onto the line.
          throw fault("field \(position + 1) is neither name=NAME nor limit=N/PERIOD; one key a line")
        }
      }
      keys.append(APIKey(secret: secret, name: name ?? "line-\(number)", limit: limit))
    }
    guard !keys.isEmpty else {
      throw KeyFileError(
        file: path, line: nil, reason: "holds no key; write one key a line, e.g. KEY name=NAME limit=60/min")
    }
    self.path = path
    self.keys = keys
  }

  private static func name(
    _ text: Substring, fault: (String) -> KeyFileError
  ) throws(KeyFileError) -> String {
    guard (1...APIKey.maximumNameLength).contains(text.utf8.count), text.utf8.allSatisfy(APIKey.isNameByte) else {
      throw fault(
        "name '\(text.prefix(APIKey.maximumNameLength))' is not 1…\(APIKey.maximumNameLength) letters, digits, "
          + "'-', '.' or '_'")
    }
    return String(text)
  }

  /// The file's text.
  private static func contents(of path: String) throws(KeyFileError) -> String {
    func fault(_ reason: String) -> KeyFileError { KeyFileError(file: path, line: nil, reason: reason) }
    let descriptor: Int32
    do {
      descriptor = try Posix.open(path, .readOnly)
    } catch {
      throw fault("cannot be opened: \(error.text)")
    }
    defer { Posix.close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count: Int
      do {
        count = try buffer.withUnsafeMutableBytes { bytes in
          Result { () throws(Errno) in try Posix.read(descriptor, into: bytes) }
        }.get()
      } catch {
        throw fault("cannot be read: \(error.text)")
      }
      if count == 0 { break }
      bytes += buffer[..<count]
      guard bytes.count <= maximumBytes else {
        throw fault("is over \(maximumBytes / 1_048_576) MiB; a keys file holds one short line per key")
      }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else { throw fault("is not UTF-8 text") }
    return text
  }
}
