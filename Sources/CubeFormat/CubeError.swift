/// Why a cube could not be written, opened or read.
public struct CubeError: Error, Equatable, CustomStringConvertible {
  /// The cube file concerned.
  public let path: String
  /// What is wrong with it, in one line.
  public let reason: String

  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  public var description: String { "\(path): \(reason)" }
}
