/// Why a cube that opened cleanly must no longer be served: its file is being changed in
/// place after it was verified, or a block of it failed verification when first read.
public enum CubeWithdrawal: UInt8, Sendable, CustomStringConvertible {
  /// Another process opened the file for writing or truncated it, which broke its lease
  /// (`CubeLeases`): the writer waits until the cube is let go.
  case leaseBroken = 1
  /// A checksum block did not match when it was first read (`CubeFile.damage` names it):
  /// the file was damaged after it was written.
  case damaged = 2

  public var description: String {
    switch self {
    case .leaseBroken: "another process opened it for writing or truncated it while it was served"
    case .damaged: "a block of it did not match its checksum when it was read"
    }
  }
}
