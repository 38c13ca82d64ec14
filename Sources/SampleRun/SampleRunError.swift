/// Why a sample run could not be written.
public enum SampleRunError: Error, Equatable, CustomStringConvertible {
  /// The spec describes no sensible run; the text says which field is wrong.
  case invalidSpec(String)
  /// The output directory does not exist and could not be created.
  case cannotCreateDirectory(path: String, reason: String)

  /// One line for a command-line user.
  public var description: String {
    switch self {
    case .invalidSpec(let reason): "invalid sample run spec: \(reason)"
    case .cannotCreateDirectory(let path, let reason): "cannot create \(path): \(reason)"
    }
  }
}
