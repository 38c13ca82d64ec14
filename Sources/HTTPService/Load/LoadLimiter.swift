import Synchronization

/// Counts the requests in flight, over all clients and for each client, and admits a new one
/// only while both counts are under their caps (`LoadLimits`).
///
/// One lock guards both counts, so that a request is admitted or refused against a
/// consistent state; it is held for a dictionary update, never across a request.
final class LoadLimiter: Sendable {
  /// Who a request comes from, for the per-client cap.
  enum Client: Hashable, Sendable {
    /// A valid API key, by its name (never the key).
    case key(String)
    /// An address: the peer's, or the one a trusted proxy forwarded.
    case address(String)
  }

  /// What `admit` decided.
  enum Admission: Equatable, Sendable {
    /// Admitted: the caller must `release` the same client when the request ends.
    case admitted
    /// Refused: the server already has its cap of requests in flight.
    case overloaded
    /// Refused: this client already has its cap of requests in flight.
    case clientBusy
  }

  private struct State {
    var inFlight = 0
    /// Only clients with a request in flight, so that the table is never larger than the
    /// requests in flight, whatever the number of clients seen.
    var perClient: [Client: Int] = [:]
  }

  let limits: LoadLimits
  private let state = Mutex(State())

  init(_ limits: LoadLimits) {
    self.limits = limits
  }

  /// Admits one request of `client`, counting it, or says why not. The client's own cap is
  /// asked first: a client over it is told so (429) even when the server is full too, since
  /// its own requests are the ones it can hold back.
  func admit(_ client: Client) -> Admission {
    state.withLock { state in
      let mine = state.perClient[client, default: 0]
      if limits.perClient > 0, mine >= limits.perClient { return .clientBusy }
      if limits.inFlight > 0, state.inFlight >= limits.inFlight { return .overloaded }
      state.inFlight += 1
      state.perClient[client] = mine + 1
      return .admitted
    }
  }

  /// Counts one request of `client` whatever the caps: one that cannot be refused (pipelined
  /// behind another on its connection) still takes its place.
  func force(_ client: Client) {
    state.withLock { state in
      state.inFlight += 1
      state.perClient[client, default: 0] += 1
    }
  }

  /// Ends one admitted request of `client`.
  func release(_ client: Client) {
    state.withLock { state in
      state.inFlight = max(state.inFlight - 1, 0)
      guard let mine = state.perClient[client] else { return }
      state.perClient[client] = mine > 1 ? mine - 1 : nil
    }
  }

  /// Requests in flight now, over all clients.
  var inFlight: Int { state.withLock { $0.inFlight } }

  /// Requests of `client` in flight now.
  func inFlight(of client: Client) -> Int { state.withLock { $0.perClient[client, default: 0] } }
}
