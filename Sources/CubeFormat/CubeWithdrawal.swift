/// Why a cube that opened cleanly must no longer be served: its file changed in place after
/// it was verified.
public enum CubeWithdrawal: UInt8, Sendable, CustomStringConvertible {
  /// Another process opened the file for writing or truncated it, which broke its lease
  /// (`CubeLeases`): the writer waits until the cube is let go.
  case leaseBroken = 1
  /// A read found a version 2 cell entry that points outside its section: the file was
  /// written to in place after it was verified (without a lease to stop it).
  case damagedEntry = 2

  public var description: String {
    switch self {
    case .leaseBroken: "another process opened it for writing or truncated it while it was served"
    case .damagedEntry: "a cell entry points outside its section: it was changed in place after it was verified"
    }
  }
}
