import CEcCodes
import CEcCodesGuard

/// One message opened by ecCodes (`codes_handle`), over bytes the caller keeps alive, with
/// typed key access. Every getter names the file, the message and the key in its error.
///
/// Internal and never shared: a handle lives for one scan or one decode, inside
/// `GRIBFile.withHandle`, which keeps the message's bytes mapped while it exists.
final class GRIBHandle {
  let pointer: OpaquePointer
  let path: String
  let message: Int
  /// Set when an ecCodes assertion cut a call on this handle short: ecCodes left it in an
  /// unknown state, so it is neither used nor deleted again (what it holds leaks).
  private var abandoned = false

  /// `codes_handle_new_from_message` over `bytes` (not copied: they must outlive the handle).
  init(bytes: UnsafeRawBufferPointer, path: String, message: Int) throws(GRIBError) {
    let outcome = GRIBLibrary.withLock { guardState in
      nwpcube_handle_new_from_message(bytes.baseAddress, bytes.count, guardState)
    }
    guard let handle = outcome.result, outcome.assertion == nil else {
      let reason =
        outcome.assertion.map { "the message is damaged: \($0)" }
        ?? (outcome.logged.isEmpty ? "ecCodes cannot parse the message" : outcome.logged)
      throw GRIBError(
        code: Int32(GRIB_INVALID_MESSAGE), reason: "codes_handle_new_from_message: \(reason)", path: path,
        message: message)
    }
    self.pointer = handle
    self.path = path
    self.message = message
  }

  deinit {
    guard !abandoned else { return }
    _ = GRIBLibrary.withLock { nwpcube_handle_delete(pointer, $0) }
  }

  private func call(
    _ function: String, key: String, _ body: (UnsafeMutablePointer<nwpcube_codes_guard>) -> Int32
  ) throws(GRIBError) {
    guard !abandoned else {
      throw GRIBError(
        reason: "\(function): an earlier ecCodes assertion left the message unreadable", path: path,
        message: message, key: key)
    }
    try GRIBLibrary.call(function, path: path, message: message, key: key, onAssertion: { abandoned = true }, body)
  }

  /// Whether the message defines `key` (`codes_is_defined`).
  func isDefined(_ key: String) throws(GRIBError) -> Bool {
    var defined: Int32 = 0
    try call("codes_is_defined", key: key) { guardState in
      defined = nwpcube_is_defined(pointer, key, guardState)
      return 0
    }
    return defined != 0
  }

  /// `codes_get_long`.
  func long(_ key: String) throws(GRIBError) -> Int {
    var value = 0
    try call("codes_get_long", key: key) { nwpcube_get_long(pointer, key, &value, nil, $0) }
    return value
  }

  /// The key as an integer, nil when the message does not define it or codes it missing.
  func optionalLong(_ key: String) throws(GRIBError) -> Int? {
    guard try isDefined(key) else { return nil }
    var value = 0
    var missing: Int32 = 0
    try call("codes_get_long", key: key) { nwpcube_get_long(pointer, key, &value, &missing, $0) }
    return missing != 0 || value == Int(GRIB_MISSING_LONG) ? nil : value
  }

  /// `codes_get_double`.
  func double(_ key: String) throws(GRIBError) -> Double {
    var value = 0.0
    try call("codes_get_double", key: key) { nwpcube_get_double(pointer, key, &value, nil, $0) }
    return value
  }

  /// The key as a real, nil when the message does not define it or codes it missing.
  func optionalDouble(_ key: String) throws(GRIBError) -> Double? {
    guard try isDefined(key) else { return nil }
    var value = 0.0
    var missing: Int32 = 0
    try call("codes_get_double", key: key) { nwpcube_get_double(pointer, key, &value, &missing, $0) }
    return missing != 0 || value == GRIB_MISSING_DOUBLE ? nil : value
  }

  /// `codes_get_string`, for the short texts keys hold (names, codes, centres).
  func string(_ key: String) throws(GRIBError) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    var length = buffer.count
    try call("codes_get_string", key: key) { nwpcube_get_string(pointer, key, &buffer, &length, $0) }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `codes_set_string`, on this handle only (the file is never written).
  func set(_ key: String, _ value: String) throws(GRIBError) {
    var length = value.utf8.count
    try call("codes_set_string", key: key) { nwpcube_set_string(pointer, key, value, &length, $0) }
  }

  /// `codes_set_double`, on this handle only.
  func set(_ key: String, _ value: Double) throws(GRIBError) {
    try call("codes_set_double", key: key) { nwpcube_set_double(pointer, key, value, $0) }
  }

  /// The number of elements of an array key (`codes_get_size`), without decoding it.
  func size(_ key: String) throws(GRIBError) -> Int {
    var size = 0
    try call("codes_get_size", key: key) { nwpcube_get_size(pointer, key, &size, $0) }
    return size
  }

  /// Decodes the array key into `buffer`, which must have exactly `size(key)` elements
  /// (the caller checks the count first, so that ecCodes never writes past it).
  func doubles(_ key: String, into buffer: UnsafeMutableBufferPointer<Double>) throws(GRIBError) {
    var length = buffer.count
    try call("codes_get_double_array", key: key) { guardState in
      guard let base = buffer.baseAddress else { return Int32(GRIB_ARRAY_TOO_SMALL) }
      return nwpcube_get_double_array(pointer, key, base, &length, guardState)
    }
    guard length == buffer.count else {
      throw GRIBError(
        reason: "ecCodes decoded \(length) values where the message declares \(buffer.count)", path: path,
        message: message, key: key)
    }
  }
}
