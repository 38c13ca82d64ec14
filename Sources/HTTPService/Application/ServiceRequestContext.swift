import Hummingbird
import NIOCore

/// The context of each request: Hummingbird's basic one plus the peer's address, which the
/// per-client load limit needs (`LoadSheddingMiddleware`).
struct ServiceRequestContext: RequestContext, RemoteAddressRequestContext {
  var coreContext: CoreRequestContextStorage
  /// The address of the connection's other end: the client's, or a proxy's in front of it.
  let remoteAddress: SocketAddress?

  init(source: ApplicationRequestContextSource) {
    coreContext = CoreRequestContextStorage(source: source)
    remoteAddress = source.channel.remoteAddress
  }
}
