import Foundation
import NIOCore

/// How much work the server takes on at once: requests in flight beyond `inFlight` are shed
/// with 503, and one client's beyond `perClient` with 429, both with `Retry-After`, so that a
/// burst costs its senders a refusal rather than every client its latency.
///
/// The defaults come from the measured capacity (docs/operations.md, *Load limits*): one
/// core's throughput stops growing at about `inFlightPerCore` requests in flight, so more
/// only queue, and half the cap for one client leaves the other half to everyone else.
public struct LoadLimits: Sendable, Equatable {
  /// Requests in flight at once over all clients (`--max-requests`); 0 sets no cap.
  public var inFlight: Int
  /// Requests in flight at once from one client (`--max-client-requests`): one address, or
  /// one API key when keys are required; 0 sets no cap.
  public var perClient: Int
  /// Seconds a shed client is asked to wait (`Retry-After`): the server's requests last
  /// milliseconds, so a permit is free again well within one.
  public var retryAfter: Int
  /// How long a refusal is held before it is sent. A refusal costs the server about what a
  /// `/healthz` exchange does; clients that resend at once, ignoring `Retry-After`, would
  /// otherwise spend the core on refusals. Held, each connection is refused at most once per
  /// delay, and a client that honours `Retry-After` waits longer anyway.
  public var refusalDelay: TimeAmount
  /// The addresses of proxies (a load balancer) whose `X-Forwarded-For` names the client
  /// (`--trusted-proxy`): behind one, every request comes from its address.
  public var trustedProxies: Set<String>

  /// Requests in flight per core at which `Scripts/capacity` found one core's throughput
  /// saturated: the default global cap is this times the cores.
  public static let inFlightPerCore = 32

  /// The default global cap: `inFlightPerCore` for each core the process may use.
  public static var defaultInFlight: Int { inFlightPerCore * max(ProcessInfo.processInfo.activeProcessorCount, 1) }

  /// Limits of `inFlight` requests at once, and `perClient` for one client (unless given,
  /// half the global cap, or none when there is none).
  public init(
    inFlight: Int = LoadLimits.defaultInFlight, perClient: Int? = nil, retryAfter: Int = 1,
    refusalDelay: TimeAmount = .milliseconds(250), trustedProxies: Set<String> = []
  ) {
    self.inFlight = inFlight
    self.perClient = perClient ?? (inFlight > 0 ? max(inFlight / 2, 1) : 0)
    self.retryAfter = retryAfter
    self.refusalDelay = refusalDelay
    self.trustedProxies = trustedProxies
  }
}
