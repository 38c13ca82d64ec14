/// Why a cube that opened cleanly must no longer be served: its file is being changed in
/// place after it was verified, or a block verified after opening did not match.
public enum CubeWithdrawal: UInt8, Sendable, CustomStringConvertible {
  /// Another process opened the file for writing or truncated it, which broke its lease
  /// (`CubeLeases`): the writer waits until the cube is let go.
  case leaseBroken = 1
  /// A checksum block verified after the cube was opened (by a read or by the background
  /// verifier) did not match: the file is damaged, and stays left out until it changes.
  /// `CubeFile.damage` names the block.
  case damaged = 2

  public var description: String {
    switch self {
    case .leaseBroken: "another process opened it for writing or truncated it while it was served"
    case .damaged: "a checksum block verified while it was served did not match: the file is damaged"
    }
  }
}
