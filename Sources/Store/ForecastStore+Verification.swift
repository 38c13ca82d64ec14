import CubeFormat
import PointQuery

extension ForecastStore {
  /// What one step of background verification did.
  public enum VerificationStep: Sendable, Equatable {
    /// `bytes` of not-yet-verified blocks of the cube at `path` matched their checksums.
    case verified(path: String, bytes: Int)
    /// Every cube of the current catalog is verified: nothing to do until a new run comes.
    case idle
    /// A block of the cube at `path` did not match: the cube is withdrawn (the next refresh
    /// leaves it out until a new file is published under its name), and `problem` says
    /// which block.
    case failed(path: String, problem: String)
  }

  /// Verifies up to `limit` bytes of the blocks of the current catalog's cubes that no
  /// request has verified yet, in answering order (the newest runs, which most requests
  /// read, first), for a background verifier that calls it at its own rate
  /// (`CubeVerifierService`). A cube opened without hashing (a version 3 cube: its blocks
  /// are verified when first read) is fully verified after enough calls; versions 1 and 2
  /// are verified whole when opened. A block that does not match withdraws its cube.
  public func verifyNext(limit: Int) -> VerificationStep {
    for cube in catalog.cubes where cube.file.withdrawal == nil && !cube.file.isFullyVerified {
      do {
        let bytes = try cube.file.verifyNext(limit: limit)
        if bytes > 0 { return .verified(path: cube.file.path, bytes: bytes) }
      } catch {
        // `verifyNext` has withdrawn the cube.
        return .failed(path: cube.file.path, problem: error.description)
      }
    }
    return .idle
  }
}
