/// A keys file that cannot be used: it names the file, the line (when one is at fault) and
/// why. `nwpcube serve` refuses to start on one; a reload on SIGHUP logs it and keeps the
/// keys it had.
public struct KeyFileError: Error, CustomStringConvertible, Equatable {
  /// The file as given on the command line.
  public let file: String
  /// The line at fault, from 1; nil when the file as a whole is (unreadable, no keys).
  public let line: Int?
  /// Why, naming the field at fault.
  public let reason: String

  public var description: String {
    "keys file \(file)\(line.map { ", line \($0)" } ?? ""): \(reason)"
  }
}
