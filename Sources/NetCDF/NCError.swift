/// A failed call into libnetcdf, or a request the file cannot satisfy.
///
/// The description is one line naming the file, the variable or attribute when there is
/// one, and libnetcdf's own explanation (`nc_strerror`).
public struct NCError: Error, Equatable, CustomStringConvertible {
  /// The libnetcdf status code (`NC_E…`), or 0 for errors raised by the wrapper itself.
  public let code: Int32
  /// What went wrong, in libnetcdf's words or the wrapper's.
  public let reason: String
  /// The file that was being read or written.
  public let path: String
  /// The variable (or `"global attribute X"`) involved, if any.
  public let variable: String?

  public init(code: Int32, reason: String, path: String, variable: String?) {
    self.code = code
    self.reason = reason
    self.path = path
    self.variable = variable
  }

  public var description: String {
    if let variable { return "\(path): \(variable): \(reason)" }
    return "\(path): \(reason)"
  }
}
