import FaceKit
import HTTPTypes
import Logging
import NIOCore
import Prometheus

/// Decides, as each request arrives, whether the server takes it on (`LoadLimiter`), and
/// makes the refusal when it does not: 429 beyond the client's cap, 503 beyond the server's,
/// both with `Retry-After` and in the error shape of the path's API family. Shared by every
/// connection's `LoadGateHandler`.
///
/// `/healthz` and `/metrics` pass uncounted: a load balancer's check and a scrape must see the
/// server as it is under load, not be refused by it. The client is the API key's name when
/// keys are required and the request carries a valid one, and otherwise the address: the
/// peer's, or the last `X-Forwarded-For` entry when the peer is a trusted proxy.
final class LoadGate: Sendable {
  let limiter: LoadLimiter
  /// The keys in force, to name a request's client by its key; nil when none are required.
  let keys: APIKeyStore?
  /// Whether the legacy app's endpoints are answered without a key: their clients are then
  /// known by address.
  let exemptLegacy: Bool
  /// The longest query read, as the routes read it.
  let maximumQueryBytes: Int
  let metrics: ServiceMetrics
  let logger: Logger
  private let routed: Set<String>
  private let templates: [String]
  private let shedGlobal: Counter
  private let shedClient: Counter

  /// The paths never shed nor counted.
  static var unlimitedPaths: Set<String> { [ServiceRoutes.healthPath, ServiceRoutes.metricsPath] }

  init(
    limiter: LoadLimiter, keys: APIKeyStore?, exemptLegacy: Bool, metrics: ServiceMetrics, routed: Set<String>,
    maximumQueryBytes: Int, logger: Logger
  ) {
    self.limiter = limiter
    self.keys = keys
    self.exemptLegacy = exemptLegacy
    self.maximumQueryBytes = maximumQueryBytes
    self.metrics = metrics
    self.logger = logger
    self.routed = routed
    templates = routed.filter { $0.contains("{") }.sorted()
    shedGlobal = metrics.shedCounter(.global)
    shedClient = metrics.shedCounter(.client)
  }

  /// What the gate decided for one request.
  enum Decision {
    /// Passed on to the router; the client's permit, if one was taken, is given back when
    /// the answer ends.
    case pass(LoadLimiter.Client?)
    /// Refused: this is the answer, already logged and counted.
    case shed(HTTPResponse, body: String)
  }

  /// Admits `request` from `peer`, or makes its refusal. With `force`, admits it whatever the
  /// counts: a request pipelined behind one still being answered on its connection cannot be
  /// answered before that one.
  func decide(_ request: HTTPRequest, peer: SocketAddress?, force: Bool) -> Decision {
    let target = request.path ?? "/"
    let question = target.firstIndex(of: "?")
    let path = question.map { String(target[..<$0]) } ?? target
    guard !Self.unlimitedPaths.contains(path) else { return .pass(nil) }
    let query = question.map { String(target[target.index(after: $0)...]) }
    let client = client(path: path, query: query, headers: request.headerFields, peer: peer)
    let limits = limiter.limits
    let status: HTTPResponse.Status
    let message: String
    switch force ? .admitted : limiter.admit(client) {
    case .admitted:
      if force { limiter.force(client) }
      return .pass(client)
    case .clientBusy:
      shedClient.increment()
      status = .tooManyRequests
      message =
        "\(client.subject) already has \(limits.perClient) requests in flight, the most one client may have at once; "
        + "retry in \(limits.retryAfter) s"
    case .overloaded:
      shedGlobal.increment()
      status = .serviceUnavailable
      message =
        "the server is answering its limit of \(limits.inFlight) requests at once; retry in \(limits.retryAfter) s"
    }
    // Counted under its route, as answered ones are, rather than as NotFound, and logged as
    // every request is (RequestLogMiddleware), without its query: a flood must not flood the
    // log with what it asked for.
    let route = RoutePattern.route(of: path, routed: routed, templates: templates) ?? "NotFound"
    metrics.record(route: route, status: status.code, duration: .zero)
    logger.info(
      "request",
      metadata: [
        "method": "\(request.method)", "path": "\(APIFamily.redacting(path))", "status": "\(status.code)",
        "shed": "\(status == .tooManyRequests ? "client" : "global")",
      ])
    let body = (APIFamily(path: path) ?? .nwpcube).errorBody(status: status, message: message)
    let head = HTTPResponse(
      status: status,
      headerFields: [
        .contentType: Responses.json, .contentLength: String(body.utf8.count), .retryAfter: String(limits.retryAfter),
      ])
    return .shed(head, body: body)
  }

  /// Who sent a request: its valid key's name when keys are required, else its address.
  func client(path: String, query: String?, headers: HTTPFields, peer: SocketAddress?) -> LoadLimiter.Client {
    if let keys, let family = APIFamily(path: path), !(exemptLegacy && family == .legacy),
      let name =
        (family.keyHeader.flatMap { headers[$0] }.map { Substring($0) }
        ?? Self.key(path: path, query: query, at: family.key, maximumQueryBytes: maximumQueryBytes))
        .flatMap(keys.name(of:))
    {
      return .key(name)
    }
    let address = peer?.ipAddress ?? "unknown"
    guard limiter.limits.trustedProxies.contains(address), let forwardedForField,
      let forwarded = headers[forwardedForField]
    else { return .address(address) }
    // The proxy appends the address it received the request from; earlier entries are the
    // client's own say, which anyone can forge.
    let last = (forwarded.split(separator: ",").last ?? "").filter { $0 != " " && $0 != "\t" }
    return .address(last.isEmpty ? address : String(last))
  }

  /// The key a request carries at `location`, nil when none can be read.
  static func key(path: String, query: String?, at location: KeyLocation, maximumQueryBytes: Int) -> Substring? {
    switch location {
    case .query(let name):
      guard
        let parameters = try? QueryParameters(request: query, maximumBytes: maximumQueryBytes, repeats: .lastWins()),
        let key = try? parameters.key(name)
      else { return nil }
      return Substring(key)
    case .pathSegment(let index):
      // Decoded as the key middleware decodes it, so `%6Bey` is counted as the key `key`.
      return KeyLocation.key(inSegment: index, of: path).map { Substring($0) }
    }
  }
}

extension LoadLimiter.Client {
  /// The client as a message names it: never the key itself.
  var subject: String {
    switch self {
    case .key(let name): "the API key '\(name)'"
    case .address(let address): "the client \(address)"
    }
  }
}

/// The de facto header in which proxies name the client they forward for.
private let forwardedForField = HTTPField.Name("X-Forwarded-For")
