import Hummingbird

/// `/healthz`'s answer: `{"status", "cubes", "problems"}`, and a `reason` when the replica is
/// not ready. Its members are written in this order (`OrderedJSONEncoder`).
struct HealthDocument: ResponseEncodable, Equatable {
  /// `ready`, `degraded`, `unavailable` or `draining` (`ServiceHealth.Status`).
  let status: String
  /// The cubes that answer.
  let cubes: Int
  /// A line per cube left out, its path relative to the store.
  let problems: [String]
  /// Why the replica is not ready; left out when it is.
  let reason: String?
}
