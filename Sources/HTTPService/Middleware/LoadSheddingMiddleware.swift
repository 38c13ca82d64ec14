import HTTPTypes
import Hummingbird
import Prometheus

/// Sheds load before any work is done for it: a request beyond its client's cap of requests
/// in flight gets 429, one beyond the server's cap 503, both with `Retry-After` and in the
/// error shape of the path's API family (`LoadLimiter`, `LoadLimits`).
///
/// `/healthz` and `/metrics` pass uncounted: a load balancer's check and a scrape must see the
/// server as it is under load, not be refused by it. The client is the API key's name when
/// keys are required and the request carries a valid one, and otherwise the address: the
/// peer's, or the last `X-Forwarded-For` entry when the peer is a trusted proxy.
struct LoadSheddingMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
  let limiter: LoadLimiter
  /// The keys in force, to name a request's client by its key; nil when none are required.
  let keys: APIKeyStore?
  /// Whether the legacy app's endpoints are answered without a key: their clients are then
  /// known by address.
  let exemptLegacy: Bool
  /// The longest query read, as the routes read it.
  let maximumQueryBytes: Int
  private let routed: Set<String>
  private let templates: [String]
  private let shedGlobal: Counter
  private let shedClient: Counter

  /// The paths never shed nor counted.
  static var unlimitedPaths: Set<String> { [ServiceRoutes.healthPath, ServiceRoutes.metricsPath] }

  init(
    limiter: LoadLimiter, keys: APIKeyStore?, exemptLegacy: Bool, metrics: ServiceMetrics, routed: Set<String>,
    maximumQueryBytes: Int
  ) {
    self.limiter = limiter
    self.keys = keys
    self.exemptLegacy = exemptLegacy
    self.maximumQueryBytes = maximumQueryBytes
    self.routed = routed
    templates = routed.filter { $0.contains("{") }.sorted()
    shedGlobal = metrics.shedCounter(.global)
    shedClient = metrics.shedCounter(.client)
  }

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    guard !Self.unlimitedPaths.contains(request.uri.path) else { return try await next(request, context) }
    let client = client(of: request, context: context)
    let limits = limiter.limits
    let status: HTTPResponse.Status
    let message: String
    switch limiter.admit(client) {
    case .admitted:
      // Released however the request ends: answered, thrown, or cancelled with its connection.
      defer { limiter.release(client) }
      return try await next(request, context)
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
    // Counted under its route, as answered ones are, rather than as NotFound.
    if let route = RoutePattern.route(of: request.uri.path, routed: routed, templates: templates) {
      context.coreContext.endpointPath.value = route
    }
    var response = (APIFamily(path: request.uri.path)?.errors ?? .nwpcube).response(status: status, message: message)
    response.headers[.retryAfter] = String(limits.retryAfter)
    return response
  }

  /// Who sent `request`: its valid key's name when keys are required, else its address.
  func client(of request: Request, context: Context) -> LoadLimiter.Client {
    if let keys, let family = APIFamily(path: request.uri.path), !(exemptLegacy && family == .legacy),
      let name = Self.key(in: request, at: family.key, maximumQueryBytes: maximumQueryBytes).flatMap(keys.name(of:))
    {
      return .key(name)
    }
    let peer = context.remoteAddress?.ipAddress ?? "unknown"
    guard limiter.limits.trustedProxies.contains(peer), let forwardedForField,
      let forwarded = request.headers[forwardedForField]
    else { return .address(peer) }
    // The proxy appends the address it received the request from; earlier entries are the
    // client's own say, which anyone can forge.
    let last = (forwarded.split(separator: ",").last ?? "").filter { $0 != " " && $0 != "\t" }
    return .address(last.isEmpty ? peer : String(last))
  }

  /// The key `request` carries at `location`, nil when none can be read.
  static func key(in request: Request, at location: KeyLocation, maximumQueryBytes: Int) -> Substring? {
    switch location {
    case .query(let name):
      let query = try? QueryParameters(request.uri.query, maximumBytes: maximumQueryBytes)
      return query?.key(name).map { Substring($0) }
    case .pathSegment(let index):
      return KeyLocation.segment(index, of: request.uri.path)
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
