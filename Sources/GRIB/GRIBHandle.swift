import CEcCodes

/// One message opened by ecCodes (`codes_handle`), over bytes the caller keeps alive, with
/// typed key access. Every getter names the file, the message and the key in its error.
///
/// Internal and never shared: a handle lives for one scan or one decode, inside
/// `GRIBFile.withHandle`, which keeps the message's bytes mapped while it exists.
final class GRIBHandle {
  let pointer: OpaquePointer
  let path: String
  let message: Int

  /// `codes_handle_new_from_message` over `bytes` (not copied: they must outlive the handle).
  init(bytes: UnsafeRawBufferPointer, path: String, message: Int) throws(GRIBError) {
    let (created, logged, asserted) = GRIBLibrary.withLockCheckingAssertions {
      codes_handle_new_from_message(nil, bytes.baseAddress, bytes.count)
    }
    // A handle made past a failed assertion is not to be trusted.
    if asserted, let created { _ = GRIBLibrary.withLock { codes_handle_delete(created) } }
    guard let handle = asserted ? nil : created else {
      throw GRIBError(
        code: Int32(GRIB_INVALID_MESSAGE),
        reason: "codes_handle_new_from_message: "
          + (logged.isEmpty ? "ecCodes cannot parse the message" : logged),
        path: path, message: message)
    }
    self.pointer = handle
    self.path = path
    self.message = message
  }

  deinit {
    _ = GRIBLibrary.withLock { codes_handle_delete(pointer) }
  }

  private func call(_ function: String, key: String, _ body: () -> Int32) throws(GRIBError) {
    try GRIBLibrary.call(function, path: path, message: message, key: key, body)
  }

  /// Whether the message defines `key` (`codes_is_defined`).
  func isDefined(_ key: String) -> Bool {
    GRIBLibrary.withLock { codes_is_defined(pointer, key) }.0 != 0
  }

  /// `codes_get_long`.
  func long(_ key: String) throws(GRIBError) -> Int {
    var value = 0
    try call("codes_get_long", key: key) { codes_get_long(pointer, key, &value) }
    return value
  }

  /// The key as an integer, nil when the message does not define it or codes it missing.
  func optionalLong(_ key: String) throws(GRIBError) -> Int? {
    try optional(key, "codes_get_long", initial: 0) { codes_get_long(pointer, key, $0) }.flatMap {
      $0 == Int(GRIB_MISSING_LONG) ? nil : $0
    }
  }

  /// The key read by `get` (a `codes_get_…` call named `function`), nil when the message
  /// does not define it or `codes_is_missing` says it is coded missing.
  private func optional<T>(
    _ key: String, _ function: String, initial: T, _ get: (UnsafeMutablePointer<T>) -> Int32
  ) throws(GRIBError) -> T? {
    guard isDefined(key) else { return nil }
    var value = initial
    var missing: Int32 = 0
    try call(function, key: key) {
      let status = get(&value)
      // codes_is_missing writes its status through the pointer, which must not be nil.
      var ignored: Int32 = 0
      missing = status == 0 ? codes_is_missing(pointer, key, &ignored) : 0
      return status
    }
    return missing != 0 ? nil : value
  }

  /// `codes_get_double`.
  func double(_ key: String) throws(GRIBError) -> Double {
    var value = 0.0
    try call("codes_get_double", key: key) { codes_get_double(pointer, key, &value) }
    return value
  }

  /// The key as a real, nil when the message does not define it or codes it missing.
  func optionalDouble(_ key: String) throws(GRIBError) -> Double? {
    try optional(key, "codes_get_double", initial: 0.0) { codes_get_double(pointer, key, $0) }.flatMap {
      $0 == GRIB_MISSING_DOUBLE ? nil : $0
    }
  }

  /// `codes_get_string`, for the short texts keys hold (names, codes, centres).
  func string(_ key: String) throws(GRIBError) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    var length = buffer.count
    try call("codes_get_string", key: key) { codes_get_string(pointer, key, &buffer, &length) }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `codes_set_string`, on this handle only (the file is never written).
  func set(_ key: String, _ value: String) throws(GRIBError) {
    var length = value.utf8.count
    try call("codes_set_string", key: key) { codes_set_string(pointer, key, value, &length) }
  }

  /// `codes_set_double`, on this handle only.
  func set(_ key: String, _ value: Double) throws(GRIBError) {
    try call("codes_set_double", key: key) { codes_set_double(pointer, key, value) }
  }

  /// The number of elements of an array key (`codes_get_size`), without decoding it.
  func size(_ key: String) throws(GRIBError) -> Int {
    var size = 0
    try call("codes_get_size", key: key) { codes_get_size(pointer, key, &size) }
    return size
  }

  /// Decodes the array key into `buffer`, which must have exactly `size(key)` elements
  /// (the caller checks the count first, so that ecCodes never writes past it).
  func doubles(_ key: String, into buffer: UnsafeMutableBufferPointer<Double>) throws(GRIBError) {
    var length = buffer.count
    try call("codes_get_double_array", key: key) {
      guard let base = buffer.baseAddress else { return Int32(GRIB_ARRAY_TOO_SMALL) }
      return codes_get_double_array(pointer, key, base, &length)
    }
    guard length == buffer.count else {
      throw GRIBError(
        reason: "ecCodes decoded \(length) values where the message declares \(buffer.count)", path: path,
        message: message, key: key)
    }
  }
}
