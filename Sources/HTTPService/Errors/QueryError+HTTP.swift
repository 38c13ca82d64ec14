import Hummingbird
import PointQuery

/// What the store says about a point: a point outside every domain or a time no run covers
/// is a question without an answer (404); a malformed coordinate or name is a bad request
/// (400); a store with nothing readable is the service's trouble, not the client's (503).
/// A handle crossing cubes cannot come from a request (500, should it ever happen).
extension QueryError: JSONErrorResponse {
  public var status: HTTPResponse.Status {
    switch self {
    case .outsideDomain, .timeOutsideRun, .timeNotCovered: .notFound
    case .unknownMetric, .invalidCoordinate, .unknownDomain: .badRequest
    case .emptyStore, .noReadableCube, .unreadableStore, .unreadableCube: .serviceUnavailable
    // The service pairs every handle with its cube; one crossing cubes is its own bug.
    case .foreignHandle: .internalServerError
    }
  }

  /// The description, except that the store's trouble is told without its paths, which stay
  /// private (the log and `/healthz` name the cubes, relative to the store).
  public var message: String {
    switch self {
    case .emptyStore:
      "the store has no readable cube: it holds no run yet; the service answers once one is published"
    case .noReadableCube(_, let problems):
      "the store has no readable cube: \(problems.count == 1 ? "its only cube cannot" : "none of its \(problems.count) cubes can") be opened; /healthz names the problems"
    // A read that met a block failing its checksum (the cube is then withdrawn): the
    // reader's text names the file, which stays private.
    case .unreadableCube(let reason) where reason.contains("corrupted: "):
      "a cube this answer reads is damaged (a block failed its checksum) and is withdrawn; /healthz names it, and other runs answer once the store is refreshed (within a second)"
    case .unreadableStore, .unreadableCube:
      "the store has no readable cube; the server log has the cause"
    default:
      description
    }
  }
}
