/// A GRIB file that cannot be read, or a message the reader refuses.
///
/// The description is one line naming the file, the message (1-based, in file order) and
/// the ecCodes key when there is one, and why: ecCodes' own text
/// (`codes_get_error_message`, and what ecCodes logged) or the reader's.
public struct GRIBError: Error, Equatable, CustomStringConvertible {
  /// The ecCodes status (`CODES_…`, negative), or 0 for errors raised by the reader itself.
  public let code: Int32
  /// What went wrong, in ecCodes' words or the reader's.
  public let reason: String
  /// The file being read.
  public let path: String
  /// The message's number in the file, counted from 1, when the error concerns one.
  public let message: Int?
  /// The ecCodes key involved, if any.
  public let key: String?

  /// An error about `path`, its message `message` and its key `key`.
  public init(code: Int32 = 0, reason: String, path: String, message: Int? = nil, key: String? = nil) {
    self.code = code
    self.reason = reason
    self.path = path
    self.message = message
    self.key = key
  }

  public var description: String {
    var text = path
    if let message { text += ": message \(message)" }
    if let key { text += ": \(key)" }
    return text + ": " + reason
  }
}
