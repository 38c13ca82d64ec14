/// An alerts file that cannot be used: it names the file, the line and the rule at fault
/// (when one is) and why. `nwpcube serve` refuses to start on one.
public struct AlertsFileError: Error, CustomStringConvertible, Equatable {
  /// The file as given on the command line.
  public let file: String
  /// The line at fault, from 1; nil when the file as a whole is (unreadable, no rules).
  public let line: Int?
  /// The rule the line belongs to, when it has one.
  public let rule: String?
  /// Why, naming the field at fault.
  public let reason: String

  public init(file: String, line: Int?, rule: String? = nil, reason: String) {
    self.file = file
    self.line = line
    self.rule = rule
    self.reason = reason
  }

  public var description: String {
    let place = line.map { ", line \($0)" } ?? ""
    let entry = rule.map { " (rule \($0))" } ?? ""
    return "alerts file \(file)\(place)\(entry): \(reason)"
  }
}
